import { CheckIcon, CircleIcon } from '../../../components/ui/icons.tsx';
import { passwordChecklist } from '../lib/password-checklist.ts';

/**
 * The live requirements list under a new-password field. Each item shows met/unmet by icon
 * shape and colour, and a change to one item is announced politely as the whole item.
 */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
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

/** The live "Passwords do not match" hint under a confirm field; the region is always present. */
export function MismatchHint({ id, show }: { id: string; show: boolean }) {
  return (
    <p id={id} className="field__hint field__hint--error" aria-live="polite">
      {show ? 'Passwords do not match' : ''}
    </p>
  );
}
