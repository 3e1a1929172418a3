import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import type { PartyAction } from '@common/order-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import type { OrderRole } from '../../../lib/order-progress.ts';
import type { ActionBodies, OrderWithEvents } from '../api/orders-api.ts';
import {
  CANCEL_REASON_MAX,
  cancelBody,
  cancelReasonError,
  charCount,
  DISPUTE_REASON_MAX,
  disputeReasonError,
  SHIPMENT_FIELD_MAX,
  shipmentBody,
  validateShipment,
  type ShipmentErrors,
  type ShipmentValues,
} from '../lib/action-forms.ts';
import { availableActions } from '../lib/actions.ts';
import { runOrderAction } from '../stores/order-store.ts';
import { OrderDialog } from './order-dialog.tsx';


const BUTTONS: Record<PartyAction, { label: string; busy: string; primary: boolean }> = {
  pay: { label: 'Pay into Escrow', busy: 'Paying...', primary: true },
  ship: { label: 'Enter Shipment', busy: 'Saving shipment...', primary: true },
  'confirm-delivery': { label: 'Confirm Delivery', busy: 'Confirming...', primary: true },
  accept: { label: 'Accept the Car', busy: 'Accepting...', primary: true },
  dispute: { label: 'Open a Dispute', busy: 'Opening dispute...', primary: false },
  cancel: { label: 'Cancel Order', busy: 'Cancelling...', primary: false },
};

type Runner = ReturnType<typeof useActionRunner>;

/**
 * Sends moves one at a time. Each attempt the user makes gets its own Idempotency-Key; when an
 * attempt got no answer (network failure), trying the same move with the same details again
 * reuses its key, so the server applies it at most once.
 */
function useActionRunner(orderId: number, onMoved?: () => void) {
  const [pending, setPending] = useState<PartyAction | null>(null);
  const [error, setError] = useState<{ action: PartyAction; message: string } | null>(null);
  const unanswered = useRef<{ action: PartyAction; body: string; key: string } | null>(null);
  const inFlight = useRef(false);

  const run = useCallback(
    async <A extends PartyAction>(action: A, body: ActionBodies[A]): Promise<boolean> => {
      if (inFlight.current) return false;
      const json = JSON.stringify(body);
      const held = unanswered.current;
      const key = held && held.action === action && held.body === json ? held.key : newIdempotencyKey();
      inFlight.current = true;
      setPending(action);
      setError(null);
      try {
        await runOrderAction(orderId, action, body, key);
        unanswered.current = null;
        onMoved?.();
        return true;
      } catch (err) {
        const answered = err instanceof ApiError && err.status !== 0;
        unanswered.current = answered ? null : { action, body: json, key };
        setError({ action, message: errorMessage(err) });
        return false;
      } finally {
        inFlight.current = false;
        setPending(null);
      }
    },
    [orderId, onMoved],
  );

  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}

/** The buttons for the viewer's moves, and the dialog each one opens. */
export function OrderActions({ order, role, onMoved }: { order: OrderWithEvents; role: OrderRole; onMoved?: () => void }) {
  const runner = useActionRunner(order.id, onMoved);
  const [opened, setOpened] = useState<PartyAction | null>(null);
  const actions = availableActions(order, role);
  // A dialog whose move is no longer possible (the order moved meanwhile) closes by itself.
  const dialog = opened && actions.includes(opened) ? opened : null;
  const panelError = runner.error && runner.error.action !== dialog ? runner.error : null;

  if (actions.length === 0 && !panelError) return null;

  function open(action: PartyAction) {
    runner.clearError();
    if (action === 'confirm-delivery') {
      void runner.run('confirm-delivery', {});
      return;
    }
    setOpened(action);
  }

  const close = () => {
    setOpened(null);
    runner.clearError();
  };
  const dialogError = runner.error && runner.error.action === dialog ? runner.error.message : null;
  const common = { order, runner, error: dialogError, onDone: close };

  return (
    <div className="order-actions">
      {actions.length > 0 && (
        <div className="order-actions__buttons">
          {actions.map((action) => {
            const { label, busy, primary } = BUTTONS[action];
            return (
              <button
                key={action}
                type="button"
                className={primary ? 'btn btn--gold' : 'btn btn--outline'}
                disabled={runner.pending !== null}
                aria-haspopup={action === 'confirm-delivery' ? undefined : 'dialog'}
                onClick={() => open(action)}
              >
                {runner.pending === action ? busy : label}
              </button>
            );
          })}
        </div>
      )}
      {actions.includes('confirm-delivery') && (
        <p className="order-actions__hint">
          Confirm only once the car has arrived: your {order.inspectionDays}-day inspection period starts then.
        </p>
      )}
      {panelError && (
        <Alert tone="error" testId="order-action-error">
          <p>{panelError.message}</p>
        </Alert>
      )}

      <OrderDialog open={dialog === 'pay'} busy={runner.pending === 'pay'} onClose={close} title="Pay into Escrow" subtitle={carTitle(order)} testId="pay-dialog">
        <PayForm {...common} />
      </OrderDialog>
      <OrderDialog open={dialog === 'ship'} busy={runner.pending === 'ship'} onClose={close} title="Ship the Car" subtitle={carTitle(order)} testId="ship-dialog">
        <ShipForm {...common} />
      </OrderDialog>
      <OrderDialog open={dialog === 'accept'} busy={runner.pending === 'accept'} onClose={close} title="Accept the Car" subtitle={carTitle(order)} testId="accept-dialog">
        <AcceptForm {...common} />
      </OrderDialog>
      <OrderDialog open={dialog === 'dispute'} busy={runner.pending === 'dispute'} onClose={close} title="Open a Dispute" subtitle={carTitle(order)} testId="dispute-dialog">
        <DisputeForm {...common} />
      </OrderDialog>
      <OrderDialog open={dialog === 'cancel'} busy={runner.pending === 'cancel'} onClose={close} title="Cancel Order" subtitle={carTitle(order)} testId="cancel-dialog">
        <CancelForm {...common} role={role} />
      </OrderDialog>
    </div>
  );
}

const carTitle = (order: OrderWithEvents) => `${order.car.year} ${order.car.make} ${order.car.model} · Order #${order.id}`;

interface FormProps {
  order: OrderWithEvents;
  runner: Runner;
  error: string | null;
  onDone: () => void;
}

/** The form body shared by the dialogs: content, the server's error, and the two buttons. */
function DialogForm({
  onSubmit,
  error,
  submitLabel,
  busyLabel,
  busy,
  cancelLabel = 'Close',
  onCancel,
  danger = false,
  focusCancel = false,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  error: string | null;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  cancelLabel?: string;
  onCancel: () => void;
  danger?: boolean;
  /** Start on the button that changes nothing (confirmations of moves that cannot be undone). */
  focusCancel?: boolean;
  children: ReactNode;
}) {
  return (
    <form className="order-dialog__body" onSubmit={onSubmit} noValidate>
      {children}
      {error && (
        <Alert tone="error" testId="order-action-error">
          <p>{error}</p>
        </Alert>
      )}
      <div className="order-dialog__actions">
        <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy} data-autofocus={focusCancel || undefined}>
          {cancelLabel}
        </button>
        <button type="submit" className={danger ? 'btn btn--dark' : 'btn btn--primary'} disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

function Totals({ order }: { order: OrderWithEvents }) {
  return (
    <dl className="order-totals" data-testid="order-totals">
      <div>
        <dt>Vehicle price</dt>
        <dd>{formatUsd(order.amount)}</dd>
      </div>
      <div>
        <dt>Escrow fee ({ESCROW_PLANS[order.plan]?.name ?? order.plan})</dt>
        <dd>{formatUsd(order.escrowFee)}</dd>
      </div>
      <div className="order-totals__total">
        <dt>Total</dt>
        <dd>{formatUsd(order.amount + order.escrowFee)}</dd>
      </div>
    </dl>
  );
}

function PayForm({ order, runner, error, onDone }: FormProps) {
  const name = useId();
  const [method, setMethod] = useState<'wire' | 'card'>('wire');
  const busy = runner.pending === 'pay';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await runner.run('pay', { method })) onDone();
  }

  const total = formatUsd(order.amount + order.escrowFee);
  return (
    <DialogForm onSubmit={submit} error={error} submitLabel={`Pay ${total}`} busyLabel="Paying..." busy={busy} cancelLabel="Not Now" onCancel={onDone}>
      <p>
        Your payment is held in escrow. The seller is paid only after you have inspected and accepted the car; if
        there is a problem, you can open a dispute.
      </p>
      <Totals order={order} />
      <fieldset className="order-choice">
        <legend className="field__label">Pay by</legend>
        {(
          [
            { value: 'wire', label: 'Bank wire', hint: 'From your bank account to our escrow account.' },
            { value: 'card', label: 'Card', hint: 'Debit or credit card.' },
          ] as const
        ).map((option) => (
          <label key={option.value} className="order-choice__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={method === option.value}
              data-autofocus={option.value === 'wire' || undefined}
              onChange={() => setMethod(option.value)}
              disabled={busy}
            />
            <span>
              <span className="order-choice__label">{option.label}</span>
              <span className="order-choice__hint">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </DialogForm>
  );
}

function ShipForm({ runner, error, onDone }: FormProps) {
  const idBase = useId();
  const [values, setValues] = useState<ShipmentValues>({ carrier: '', trackingNumber: '' });
  const [errors, setErrors] = useState<ShipmentErrors>({});
  const busy = runner.pending === 'ship';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateShipment(values);
    setErrors(found);
    const first = (['carrier', 'trackingNumber'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`${idBase}-${first}`)?.focus();
      return;
    }
    if (await runner.run('ship', shipmentBody(values))) onDone();
  }

  const field = (key: keyof ShipmentValues, label: string, hint: string) => {
    const id = `${idBase}-${key}`;
    const errorId = `${id}-error`;
    const hintId = `${id}-hint`;
    return (
      <div className="field">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        <input
          id={id}
          className="input"
          type="text"
          autoComplete="off"
          maxLength={SHIPMENT_FIELD_MAX * 2}
          value={values[key]}
          data-autofocus={key === 'carrier' || undefined}
          disabled={busy}
          required
          aria-invalid={errors[key] ? true : undefined}
          aria-describedby={errors[key] ? `${errorId} ${hintId}` : hintId}
          onChange={(e) => {
            const value = e.target.value;
            setValues((v) => ({ ...v, [key]: value }));
            setErrors((found) => (found[key] ? { ...found, [key]: undefined } : found));
          }}
        />
        {errors[key] && (
          <p id={errorId} className="field__hint field__hint--error">
            {errors[key]}
          </p>
        )}
        <p id={hintId} className="field__hint muted">
          {hint}
        </p>
      </div>
    );
  };

  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Mark as Shipped" busyLabel="Saving shipment..." busy={busy} cancelLabel="Not Now" onCancel={onDone}>
      <p>Hand the car to a carrier, then enter its details. The buyer is told at once and can follow the delivery.</p>
      {field('carrier', 'Carrier', 'For example: Reliable Carriers.')}
      {field('trackingNumber', 'Tracking number', 'As the carrier gave it to you.')}
    </DialogForm>
  );
}

function AcceptForm({ order, runner, error, onDone }: FormProps) {
  const busy = runner.pending === 'accept';
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await runner.run('accept', {})) onDone();
  }
  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Accept and Release Funds" busyLabel="Accepting..." busy={busy} cancelLabel="Keep Inspecting" onCancel={onDone} focusCancel>
      <Alert tone="info" title="Funds will be released to the seller">
        <p>
          Accept only if the car is as described. {formatUsd(order.amount)} will be released to the seller and the
          purchase is complete; you can no longer open a dispute.
        </p>
      </Alert>
    </DialogForm>
  );
}

function DisputeForm({ runner, error, onDone }: FormProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const busy = runner.pending === 'dispute';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = disputeReasonError(reason);
    setProblem(found);
    if (found) {
      document.getElementById(id)?.focus();
      return;
    }
    if (await runner.run('dispute', { reason: reason.trim() })) onDone();
  }

  const count = charCount(reason.trim());
  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Open Dispute" busyLabel="Opening dispute..." busy={busy} cancelLabel="Not Now" onCancel={onDone} danger>
      <p>
        The funds stay in escrow while our escrow team reviews the dispute with you and the seller. They decide to
        refund you or release the funds to the seller.
      </p>
      <div className="field">
        <div className="field__label-row">
          <label htmlFor={id} className="field__label">
            What is wrong with the car?
          </label>
          <span className={count > DISPUTE_REASON_MAX ? 'field__counter field__counter--over' : 'field__counter'} aria-hidden="true">
            {count}/{DISPUTE_REASON_MAX}
          </span>
        </div>
        <textarea
          id={id}
          className="input input--textarea"
          value={reason}
          data-autofocus
          disabled={busy}
          required
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            if (problem) setProblem(null);
          }}
        />
        {problem && (
          <p id={`${id}-error`} className="field__hint field__hint--error">
            {problem}
          </p>
        )}
      </div>
    </DialogForm>
  );
}

function CancelForm({ runner, error, onDone, role }: FormProps & { role: OrderRole }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const busy = runner.pending === 'cancel';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = cancelReasonError(reason);
    setProblem(found);
    if (found) {
      document.getElementById(id)?.focus();
      return;
    }
    if (await runner.run('cancel', cancelBody(reason))) onDone();
  }

  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Cancel Order" busyLabel="Cancelling..." busy={busy} cancelLabel="Keep Order" onCancel={onDone} danger>
      <p>
        {role === 'buyer'
          ? 'Nothing has been paid yet, so nothing is charged. The seller is told that you cancelled.'
          : 'The buyer has not paid yet. They are told that you cancelled, and the car stays listed.'}
      </p>
      <div className="field">
        <div className="field__label-row">
          <label htmlFor={id} className="field__label">
            Reason <span className="field__optional">(optional)</span>
          </label>
          <span className="field__counter" aria-hidden="true">
            {charCount(reason.trim())}/{CANCEL_REASON_MAX}
          </span>
        </div>
        <textarea
          id={id}
          className="input input--textarea"
          value={reason}
          data-autofocus
          disabled={busy}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            if (problem) setProblem(null);
          }}
        />
        {problem && (
          <p id={`${id}-error`} className="field__hint field__hint--error">
            {problem}
          </p>
        )}
      </div>
    </DialogForm>
  );
}
