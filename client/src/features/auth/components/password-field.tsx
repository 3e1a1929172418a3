import { useState, type ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from '../../../components/ui/icons.tsx';

/** A password input with a show/hide toggle. `toggleName` is the toggle's accessible noun. */
export function PasswordField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  toggleName = 'password',
  describedBy,
  invalid = false,
  labelAside,
  name,
  error = null,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  toggleName?: string;
  describedBy?: string;
  invalid?: boolean;
  /** Shown at the end of the label row, e.g. the "Forgot password?" link. */
  labelAside?: ReactNode;
  name?: string;
  /** A message about this field, tied to it (and marking it invalid) until it changes. */
  error?: string | null;
}) {
  const [shown, setShown] = useState(false);
  const errorId = `${id}-error`;
  const described = [error ? errorId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <div className="split-row field__label-row">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        {labelAside}
      </div>
      <div className="input-group">
        <input
          id={id}
          name={name}
          className="input input--with-action"
          type={shown ? 'text' : 'password'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={autoComplete}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          aria-describedby={described}
          aria-invalid={invalid || Boolean(error) || undefined}
        />
        <button
          type="button"
          className="icon-button input-group__action"
          aria-label={`${shown ? 'Hide' : 'Show'} ${toggleName}`}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
        </button>
      </div>
      {error && (
        <p id={errorId} className="field__hint field__hint--error" data-testid={name ? `error-${name}` : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
