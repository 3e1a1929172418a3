import { describe, expect, it } from 'vitest';
import { PASSWORD_SPECIAL_CHARACTERS, isAcceptablePassword, unmetPasswordRules } from './password-rules.ts';

const ids = (password: string) => unmetPasswordRules(password).map((r) => r.id);

describe('password rules', () => {
  it('accepts a password meeting every rule', () => {
    expect(isAcceptablePassword('Str0ng!pass')).toBe(true);
  });

  it('names each unmet rule', () => {
    expect(ids('')).toEqual(['length', 'uppercase', 'lowercase', 'number', 'special']);
    expect(ids('Short1!')).toEqual(['length']);
    expect(ids('lowercase1!')).toEqual(['uppercase']);
    expect(ids('UPPERCASE1!')).toEqual(['lowercase']);
    expect(ids('NoNumbers!')).toEqual(['number']);
    expect(ids('NoSpecial1')).toEqual(['special']);
  });

  it('counts only the listed special characters', () => {
    for (const c of PASSWORD_SPECIAL_CHARACTERS) expect(isAcceptablePassword(`Abcdefg1${c}`), c).toBe(true);
    for (const c of ['-', '_', '+', '=', '~', '[', ']', ' ']) expect(isAcceptablePassword(`Abcdefg1${c}`), c).toBe(false);
  });

  it('rejects passwords over 128 characters', () => {
    expect(isAcceptablePassword(`Aa1!${'x'.repeat(124)}`)).toBe(true);
    expect(ids(`Aa1!${'x'.repeat(125)}`)).toEqual(['max-length']);
  });

  it('counts characters, not UTF-16 units, for the minimum length', () => {
    expect(ids('Aa1!😀😀😀')).toEqual(['length']);
  });
});
