import type { FormEvent, ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';

/**
 * The body of every offer dialog (make, counter, accept, decline, withdraw, second chance): its
 * fields, the server's refusal, then "Not now" and the move's own button. A confirmation starts
 * on "Not now", so Enter alone changes nothing.
 */
export function OfferDialogForm({
  onSubmit,
  onCancel,
  error,
  busy,
  submitLabel,
  busyLabel,
  tone = 'primary',
  startOnCancel = false,
  children,
}: {
  onSubmit: () => void;
  onCancel: () => void;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  tone?: 'primary' | 'gold' | 'dark';
  startOnCancel?: boolean;
  children?: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) onSubmit();
  }
  const notNow = (
    <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy} data-autofocus={startOnCancel || undefined}>
      Not now
    </button>
  );
  const go = (
    <button type="submit" className={`btn btn--${tone}`} disabled={busy} data-testid="offer-dialog-submit">
      {busy ? busyLabel : submitLabel}
    </button>
  );
  return (
    <form className="modal-dialog__form" onSubmit={submit} noValidate>
      {children}
      {error && <Alert tone="error" testId="offer-dialog-error"><p>{error}</p></Alert>}
      <div className="modal-dialog__actions">
        {notNow}
        {go}
      </div>
    </form>
  );
}
