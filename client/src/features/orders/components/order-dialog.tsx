import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import { CloseIcon } from '../../../components/ui/icons.tsx';

/**
 * A modal `<dialog>` for one order action. Its content is rendered only while it is open, so every
 * opening starts from a fresh form; focus goes to the element marked `data-autofocus` (else the
 * first control), Escape and a click on the backdrop close it, except while its request is out.
 */
export function OrderDialog({
  open,
  busy = false,
  onClose,
  title,
  subtitle,
  testId,
  children,
}: {
  open: boolean;
  /** A request is out: the dialog stays until it is answered. */
  busy?: boolean;
  onClose: () => void;
  title: string;
  subtitle?: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
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
    // Escape: close through React state (or not at all while the request is out).
    event.preventDefault();
    if (!busy) onClose();
  }

  return (
    <dialog
      ref={ref}
      className="order-dialog"
      aria-labelledby={titleId}
      onClick={onBackdropClick}
      onCancel={onCancel}
      onClose={() => {
        if (open) onClose();
      }}
      data-testid={testId}
    >
      {open && (
        <div className="order-dialog__panel">
          <header className="order-dialog__header">
            <div>
              <h2 id={titleId} className="order-dialog__title">
                {title}
              </h2>
              {subtitle && <p className="order-dialog__subtitle">{subtitle}</p>}
            </div>
            <button type="button" className="order-dialog__close" aria-label="Close" onClick={onClose} disabled={busy}>
              <CloseIcon size={20} />
            </button>
          </header>
          {children}
        </div>
      )}
    </dialog>
  );
}
