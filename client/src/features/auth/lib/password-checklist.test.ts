import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES, PASSWORD_RULES_MESSAGE } from '@common/password-rules.ts';
import { confirmMismatch, newPasswordError, passwordChecklist, PASSWORDS_DO_NOT_MATCH } from './password-checklist.ts';

describe('passwordChecklist', () => {
  it('lists every shared rule, in order, with whether it is met', () => {
    expect(passwordChecklist('').map((i) => i.label)).toEqual(PASSWORD_RULES.map((r) => r.label));
    expect(passwordChecklist('').every((i) => !i.met)).toBe(true);
    expect(passwordChecklist('Abcdefg1').map((i) => [i.id, i.met])).toEqual([
      ['length', true],
      ['uppercase', true],
      ['lowercase', true],
      ['number', true],
      ['special', false],
    ]);
    expect(passwordChecklist('Abcdefg1!').every((i) => i.met)).toBe(true);
  });
});

describe('confirmMismatch', () => {
  it('only reports a mismatch once something has been typed', () => {
    expect(confirmMismatch('Secret1!', '')).toBe(false);
    expect(confirmMismatch('Secret1!', 'Secret1')).toBe(true);
    expect(confirmMismatch('Secret1!', 'Secret1!')).toBe(false);
  });
});

describe('newPasswordError', () => {
  it('asks for the rules first, then for a matching confirmation', () => {
    expect(newPasswordError('short', 'short')).toBe(PASSWORD_RULES_MESSAGE);
    expect(newPasswordError('Abcdefg1!', 'Abcdefg1')).toBe(PASSWORDS_DO_NOT_MATCH);
    expect(newPasswordError('Abcdefg1!', 'Abcdefg1!')).toBeNull();
  });
});
