import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES } from '@common/password-rules.ts';
import { confirmMismatch, passwordChecklist } from './password-checklist.ts';

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
