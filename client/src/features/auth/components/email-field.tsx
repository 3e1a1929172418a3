import { useId } from 'react';
import { TextField } from '../../../components/ui/form-field.tsx';

/** The account's email address (sign-in, sign-up, a reset link). */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
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
      required
    />
  );
}
