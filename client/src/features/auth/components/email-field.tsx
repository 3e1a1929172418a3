import { useId } from 'react';
import { TextField } from '../../../components/ui/form-field.tsx';

/** The account's email address (sign-in, sign-up, a reset link). */
export function EmailField({
  value,
  onChange,
  error = null,
  id: givenId,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** The input's id, for a form that moves focus to it. */
  id?: string;
}) {
  const ownId = useId();
  const id = givenId ?? ownId;
  return (
    <TextField
      id={id}
      label="Email"
      type="email"
      name="email"
      value={value}
      onChange={onChange}
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      error={error}
      errorTestId="error-email"
      required
    />
  );
}
