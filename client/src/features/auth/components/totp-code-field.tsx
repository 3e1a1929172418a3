import { useId, useState } from 'react';
import { TextField } from '../../../components/ui/form-field.tsx';
import { TOTP_CODE_MAX_LENGTH } from '@common/schemas/auth.ts';
import './totp-code-field.css';

/**
 * The state of a TotpCodeField: what is typed (`field`, spread on the field; typing clears the
 * error), the code as sent (spaces taken out), and the moves on it after a refusal.
 */
export function useTotpCode() {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onChange = (next: string) => {
    setValue(next);
    setError(null);
  };
  return {
    field: { id, value, error, onChange },
    code: value.replace(/\s+/g, ''),
    setError,
    /** Empties the field: a wrong code is typed again, not corrected. */
    clear: () => setValue(''),
    focus: () => document.getElementById(id)?.focus(),
  };
}

/**
 * "Authentication code": the six digits an authenticator app shows (or, at sign-in, a recovery
 * code). Phones offer the code from a text message or the app (`one-time-code`) and a keypad.
 */
export function TotpCodeField({
  id,
  value,
  onChange,
  error,
  hint,
  disabled,
  autoFocus = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: string;
  disabled?: boolean;
  /** Marks the field for a dialog's first focus. */
  autoFocus?: boolean;
}) {
  return (
    <TextField
      id={id}
      label="Authentication code"
      name="totp"
      value={value}
      onChange={onChange}
      error={error}
      hint={hint}
      errorFirst
      inputMode="numeric"
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={TOTP_CODE_MAX_LENGTH}
      inputClassName="totp-code__input"
      disabled={disabled}
      data-autofocus={autoFocus || undefined}
      required
    />
  );
}
