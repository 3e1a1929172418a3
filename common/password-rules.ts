/**
 * The password policy, shared by the registration and reset forms (live checklist) and the
 * server (enforcement), so the two can never disagree.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';
export const PASSWORD_RULES_MESSAGE = 'Please meet all password requirements';

export interface PasswordRule {
  id: 'length' | 'uppercase' | 'lowercase' | 'number' | 'special' | 'max-length';
  label: string;
  test: (password: string) => boolean;
}

const specials = new Set(PASSWORD_SPECIAL_CHARACTERS);

/** In the order the checklist shows them. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', label: `At least ${PASSWORD_MIN_LENGTH} characters`, test: (p) => [...p].length >= PASSWORD_MIN_LENGTH },
  { id: 'uppercase', label: 'One uppercase letter', test: (p) => /[A-Z]/.test(p) },
  { id: 'lowercase', label: 'One lowercase letter', test: (p) => /[a-z]/.test(p) },
  { id: 'number', label: 'One number', test: (p) => /[0-9]/.test(p) },
  { id: 'special', label: `One special character (${PASSWORD_SPECIAL_CHARACTERS})`, test: (p) => [...p].some((c) => specials.has(c)) },
];

/** Not shown as a checklist item; only ever hit by pasted or generated text. */
const MAX_LENGTH_RULE: PasswordRule = {
  id: 'max-length',
  label: `At most ${PASSWORD_MAX_LENGTH} characters`,
  test: (p) => [...p].length <= PASSWORD_MAX_LENGTH,
};

/** The rules `password` breaks; empty when it is acceptable. */
export function unmetPasswordRules(password: string): PasswordRule[] {
  return [...PASSWORD_RULES, MAX_LENGTH_RULE].filter((rule) => !rule.test(password));
}

export function isAcceptablePassword(password: string): boolean {
  return unmetPasswordRules(password).length === 0;
}
