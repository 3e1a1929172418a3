import { useEffect, useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import { Alert } from './alert.tsx';
import { CloseIcon } from './icons.tsx';
import './modal-dialog.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab stops at inside `root`, in order: a radio group stops once (at its checked radio). */
function tabStops(root: HTMLElement): HTMLElement[] {
  const shown = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const groupStop = new Map<string, HTMLElement>();
  for (const el of shown) {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) continue;
    if (!groupStop.has(el.name) || el.checked) groupStop.set(el.name, el);
  }
  return shown.filter((el) => !(el instanceof HTMLInputElement && el.type === 'radio' && el.name) || groupStop.get(el.name) === el);
}

/**
 * The one modal dialog (confirmations and small forms), on the native `<dialog>` opened with
 * `showModal()`: the page behind it is inert, and Tab and Shift+Tab go round the dialog's own
 * controls, so focus stays inside while it is open.
 *
 * - Its content is rendered only while it is open, so every opening starts fresh.
 * - Focus goes to the element marked `data-autofocus` (else the first control) and, when it
 *   closes (or is taken off the page while open), back to the element that had it when it
 *   opened (the button that opened it), when that is still on the page.
 * - Escape, the close button and a click on the backdrop close it, except while `busy` (a
 *   request is out: the dialog stays until it is answered).
 * - It is named by its title and, with a `description`, described by it.
 *
 * A form inside it uses the class `modal-dialog__form`; its buttons go in `modal-dialog__actions`
 * (`ModalFormFooter` for the usual Cancel and send).
 */
export function ModalDialog({
  open,
  busy = false,
  onClose,
  title,
  subtitle,
  description,
  wide = false,
  testId,
  children,
}: {
  open: boolean;
  busy?: boolean;
  onClose: () => void;
  title: string;
  /** Shown under the title (what the dialog is about: a car, an order). */
  subtitle?: string;
  /** The first paragraph of the body, which the dialog is described by. */
  description?: ReactNode;
  /** Room for a longer form (plan choices, summaries). */
  wide?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

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

  // Taken off the page while open (a dialog shown while it is rendered, closed by unmounting it):
  // no close event comes, so give focus back here, unless something else has taken it meanwhile.
  useEffect(() => {
    const opener = returnTo;
    return () => {
      const target = opener.current;
      const active = document.activeElement;
      if (target?.isConnected && (active === null || active === document.body)) target.focus();
    };
  }, []);

  function onBackdropClick(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget && !busy) onClose();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const stops = tabStops(event.currentTarget);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    const leaving = event.shiftKey ? active === first || active === event.currentTarget : active === last;
    if (!leaving) return;
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }

  function onCancel(event: SyntheticEvent<HTMLDialogElement>) {
    // Escape: close through React state (or not at all while the request is out).
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
      className={wide ? 'modal-dialog modal-dialog--wide' : 'modal-dialog'}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={open && description ? descriptionId : undefined}
      onClick={onBackdropClick}
      onKeyDown={onKeyDown}
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
            <button type="button" className="icon-button modal-dialog__close" aria-label="Close" onClick={onClose} disabled={busy}>
              <CloseIcon size={20} />
            </button>
          </header>
          <div className="modal-dialog__body">
            {description && <p id={descriptionId}>{description}</p>}
            {children}
          </div>
        </div>
      )}
    </dialog>
  );
}

/**
 * The end of a form in the dialog: why the last attempt failed, if it did, then Cancel and the
 * submit button. While `busy` both are disabled and the submit button says what is under way.
 */
export function ModalFormFooter({
  error,
  errorTestId,
  busy,
  onCancel,
  submitLabel,
  busyLabel,
  danger = false,
}: {
  error: string | null;
  errorTestId: string;
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
  busyLabel: string;
  /** A move that is hard to undo: the submit button says so in red. */
  danger?: boolean;
}) {
  return (
    <>
      {error && (
        <Alert tone="error" testId={errorTestId}>
          <p>{error}</p>
        </Alert>
      )}
      <div className="modal-dialog__actions">
        <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className={danger ? 'btn btn--danger' : 'btn btn--primary'} disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
