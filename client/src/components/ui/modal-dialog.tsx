import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import { CloseIcon } from './icons.tsx';
import './modal-dialog.css';

/**
 * A modal `<dialog>` (confirmations and small forms). Its content is rendered only while it is
 * open, so every opening starts fresh; focus goes to the element marked `data-autofocus` (else
 * the first control) and back to where it was when the dialog closes. Escape and a click on the
 * backdrop close it, except while `busy` (a request is out).
 */
export function ModalDialog({
  open,
  busy = false,
  onClose,
  title,
  subtitle,
  testId,
  children,
}: {
  open: boolean;
  busy?: boolean;
  onClose: () => void;
  title: string;
  subtitle?: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function onBackdropClick(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget && !busy) onClose();
  }

  function onCancel(event: SyntheticEvent<HTMLDialogElement>) {
    event.preventDefault();
    if (!busy) onClose();
  }

  function onClosed() {
    const target = returnTo.current;
    returnTo.current = null;
    if (target?.isConnected) target.focus();
    if (open) onClose();
  }

  return (
    <dialog
      ref={ref}
      className="modal-dialog"
      aria-labelledby={titleId}
      onClick={onBackdropClick}
      onCancel={onCancel}
      onClose={onClosed}
      data-testid={testId}
    >
      {open && (
        <div className="modal-dialog__panel">
          <header className="modal-dialog__header">
            <div>
              <h2 id={titleId} className="modal-dialog__title">
                {title}
              </h2>
              {subtitle && <p className="modal-dialog__subtitle">{subtitle}</p>}
            </div>
            <button type="button" className="modal-dialog__close" aria-label="Close" onClick={onClose} disabled={busy}>
              <CloseIcon size={20} />
            </button>
          </header>
          <div className="modal-dialog__body">{children}</div>
        </div>
      )}
    </dialog>
  );
}
