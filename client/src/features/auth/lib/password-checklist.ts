import { isAcceptablePassword, PASSWORD_RULES, PASSWORD_RULES_MESSAGE, type PasswordRule } from '@common/password-rules.ts';

export interface ChecklistItem {
  id: PasswordRule['id'];
  label: string;
  met: boolean;
}

/** The live checklist under a new-password field, straight from the shared policy. */
export function passwordChecklist(password: string): ChecklistItem[] {
  return PASSWORD_RULES.map((rule) => ({ id: rule.id, label: rule.label, met: rule.test(password) }));
}

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** The live hint under a confirm-password field: only once something has been typed there. */
export function confirmMismatch(password: string, confirm: string): boolean {
  return confirm !== '' && confirm !== password;
}

/** Why a new password and its confirmation cannot be sent (the rules, then the match), or null. */
export function newPasswordError(password: string, confirm: string): string | null {
  if (!isAcceptablePassword(password)) return PASSWORD_RULES_MESSAGE;
  if (password !== confirm) return PASSWORDS_DO_NOT_MATCH;
  return null;
}
