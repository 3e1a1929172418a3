import { useId } from 'react';
import { CheckIcon, CircleIcon } from '../../../components/ui/icons.tsx';
import { confirmMismatch, passwordChecklist, PASSWORDS_DO_NOT_MATCH } from '../lib/password-checklist.ts';
import { PasswordField } from './password-field.tsx';

/**
 * A new password with its live requirements checklist, and the field that confirms it with a
 * live "Passwords do not match" hint (sign-up, and setting a new password from a reset link).
 */
export function PasswordWithConfirm({
  password,
  confirm,
  onPassword,
  onConfirm,
  label = 'Password',
  confirmLabel = 'Confirm password',
  name = 'password',
  passwordError = null,
  confirmError = null,
  passwordId: givenPasswordId,
  confirmId: givenConfirmId,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  label?: string;
  confirmLabel?: string;
  /** The new password's form name ("password", "newPassword"). */
  name?: string;
  /** Messages about the new password and its confirmation (a refused submit). */
  passwordError?: string | null;
  confirmError?: string | null;
  /** The inputs' ids, for a form that moves focus to the first error. */
  passwordId?: string;
  confirmId?: string;
}) {
  const ownPasswordId = useId();
  const ownConfirmId = useId();
  const passwordId = givenPasswordId ?? ownPasswordId;
  const confirmId = givenConfirmId ?? ownConfirmId;
  const checklistId = useId();
  const mismatchId = useId();
  const mismatch = confirmMismatch(password, confirm);
  return (
    <>
      <div className="field-group">
        <PasswordField
          id={passwordId}
          name={name}
          label={label}
          value={password}
          onChange={onPassword}
          autoComplete="new-password"
          describedBy={checklistId}
          error={passwordError}
        />
        <PasswordChecklist id={checklistId} password={password} />
      </div>
      <div className="field-group">
        <PasswordField
          id={confirmId}
          name="confirmPassword"
          label={confirmLabel}
          value={confirm}
          onChange={onConfirm}
          autoComplete="new-password"
          toggleName="confirm password"
          describedBy={mismatchId}
          invalid={mismatch || Boolean(confirmError)}
        />
        <p id={mismatchId} className="field__hint field__hint--error" aria-live="polite">
          {mismatch ? PASSWORDS_DO_NOT_MATCH : (confirmError ?? '')}
        </p>
      </div>
    </>
  );
}

/**
 * The live requirements list under the new password. Each item shows met/unmet by icon shape
 * and colour, and a change to one item is announced politely as the whole item.
 */
function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const items = passwordChecklist(password);
  return (
    <div className="password-checklist" id={id}>
      <p className="password-checklist__title">Password requirements</p>
      <ul aria-live="polite" data-testid="password-checklist">
        {items.map((item) => (
          <li
            key={item.id}
            aria-atomic="true"
            className={item.met ? 'password-rule password-rule--met' : 'password-rule'}
            data-met={item.met}
          >
            {item.met ? <CheckIcon size={16} strokeWidth={2.6} /> : <CircleIcon size={16} />}
            <span>{item.label}</span>
            <span className="sr-only">{item.met ? ': met' : ': not met'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
