import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ESCROW_PLANS, amountCharged } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { MoneySummary } from '../../../components/ui/money-summary.tsx';
import { CharCounter, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import type { OrderWithEvents } from '../api/orders-api.ts';
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
import type { ActionRunner } from '../hooks/use-action-runner.ts';
import { itemsNotAsDescribed } from '../lib/inspection.ts';
import { hasUnsavedMarks, saveMarks, useInspectionStore } from '../stores/inspection-store.ts';

/** What each move's form is given by the dialog around it. */
export interface ActionFormProps {
  order: OrderWithEvents;
  runner: ActionRunner;
  /** The server's refusal of this move, if it refused. */
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
  children?: ReactNode;
}) {
  return (
    <form className="modal-dialog__form" onSubmit={onSubmit} noValidate>
      {children}
      {error && (
        <Alert tone="error" testId="order-action-error">
          <p>{error}</p>
        </Alert>
      )}
      <div className="modal-dialog__actions">
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

const PAYMENT_METHODS = [
  { value: 'wire', label: 'Bank wire', hint: 'From your bank account to our escrow account.' },
  { value: 'card', label: 'Card', hint: 'Debit or credit card.' },
] as const;

export function PayForm({ order, runner, error, onDone }: ActionFormProps) {
  const name = useId();
  const [method, setMethod] = useState<'wire' | 'card'>('wire');
  const busy = runner.pending === 'pay';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await runner.run('pay', { method })) onDone();
  }

  const total = formatUsd(amountCharged(order));
  return (
    <DialogForm onSubmit={submit} error={error} submitLabel={`Pay ${total}`} busyLabel="Paying..." busy={busy} cancelLabel="Not Now" onCancel={onDone}>
      <MoneySummary
        price={order.amount}
        fee={order.escrowFee}
        feeLabel={`Escrow fee (${ESCROW_PLANS[order.plan]?.name ?? order.plan})`}
        className="order-totals"
        testId="order-totals"
      />
      <fieldset className="order-choice">
        <legend className="field__label">Pay by</legend>
        {PAYMENT_METHODS.map((option) => (
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

const SHIPMENT_FIELDS = [
  { key: 'carrier', label: 'Carrier', hint: 'For example: Reliable Carriers.' },
  { key: 'trackingNumber', label: 'Tracking number', hint: 'As the carrier gave it to you.' },
] as const;

export function ShipForm({ runner, error, onDone }: ActionFormProps) {
  const idBase = useId();
  const [values, setValues] = useState<ShipmentValues>({ carrier: '', trackingNumber: '' });
  const [errors, setErrors] = useState<ShipmentErrors>({});
  const busy = runner.pending === 'ship';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateShipment(values);
    setErrors(found);
    const first = SHIPMENT_FIELDS.find((field) => found[field.key]);
    if (first) {
      document.getElementById(`${idBase}-${first.key}`)?.focus();
      return;
    }
    if (await runner.run('ship', shipmentBody(values))) onDone();
  }

  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Mark as Shipped" busyLabel="Saving shipment..." busy={busy} cancelLabel="Not Now" onCancel={onDone}>
      {SHIPMENT_FIELDS.map(({ key, label, hint }) => (
        <TextField
          key={key}
          id={`${idBase}-${key}`}
          label={label}
          hint={hint}
          error={errors[key]}
          errorFirst
          autoComplete="off"
          maxLength={SHIPMENT_FIELD_MAX * 2}
          value={values[key]}
          data-autofocus={key === 'carrier' || undefined}
          disabled={busy}
          required
          onChange={(value) => {
            setValues((v) => ({ ...v, [key]: value }));
            setErrors((found) => (found[key] ? { ...found, [key]: undefined } : found));
          }}
        />
      ))}
    </DialogForm>
  );
}

export function AcceptForm({ order, runner, error, onDone }: ActionFormProps) {
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

/** A reason typed in a textarea, checked before the move is sent. */
function useReason(check: (reason: string) => string | null) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  /** True when the reason may be sent; else shows why and focuses the field. */
  function accept(): boolean {
    const found = check(reason);
    setProblem(found);
    if (found) document.getElementById(id)?.focus();
    return !found;
  }

  function change(value: string) {
    setReason(value);
    if (problem) setProblem(null);
  }

  return { id, reason, problem, accept, change, count: charCount(reason.trim()) };
}

export function DisputeForm({ order, runner, error, onDone }: ActionFormProps) {
  const field = useReason(disputeReasonError);
  const entry = useInspectionStore((s) => s.entries[order.id]);
  const cited = entry?.inspection ? itemsNotAsDescribed(entry.inspection, entry.marks) : [];
  const [saveError, setSaveError] = useState<string | null>(null);
  const busy = runner.pending === 'dispute' || Boolean(entry?.saving);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!field.accept()) return;
    setSaveError(null);
    // The checklist goes first, so the dispute and the marks the escrow team reads agree.
    if (hasUnsavedMarks(entry) && !(await saveMarks(order.id))) {
      setSaveError(useInspectionStore.getState().entries[order.id]?.error ?? 'Your checklist could not be saved.');
      return;
    }
    const items = cited.map((item) => item.itemId);
    if (await runner.run('dispute', { reason: field.reason.trim(), ...(items.length > 0 ? { items } : {}) })) onDone();
  }

  return (
    <DialogForm
      onSubmit={submit}
      error={saveError ?? error}
      submitLabel="Open Dispute"
      busyLabel="Opening dispute..."
      busy={busy}
      cancelLabel="Not Now"
      onCancel={onDone}
      danger
    >
      {cited.length > 0 ? (
        <div className="dispute-cited" data-testid="dispute-cited">
          <p className="field__label">
            The dispute cites {cited.length === 1 ? 'the item' : `the ${cited.length} items`} you found not as described:
          </p>
          <ul>
            {cited.map((item) => (
              <li key={item.itemId}>
                {item.text}
                {entry?.marks[item.itemId]?.note.trim() && <span className="dispute-cited__note">{entry.marks[item.itemId]!.note.trim()}</span>}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        entry?.inspection &&
        entry.inspection.items.length > 0 && (
          <p className="muted" data-testid="dispute-no-items">
            No item of the checklist is marked not as described. Mark the items in the checklist to cite them.
          </p>
        )
      )}
      <TextAreaField
        id={field.id}
        label="What is wrong with the car?"
        aside={<CharCounter count={field.count} max={DISPUTE_REASON_MAX} over={field.count > DISPUTE_REASON_MAX} />}
        error={field.problem}
        value={field.reason}
        data-autofocus
        disabled={busy}
        required
        onChange={field.change}
      />
    </DialogForm>
  );
}

export function CancelForm({ runner, error, onDone }: ActionFormProps) {
  const field = useReason(cancelReasonError);
  const busy = runner.pending === 'cancel';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!field.accept()) return;
    if (await runner.run('cancel', cancelBody(field.reason))) onDone();
  }

  return (
    <DialogForm onSubmit={submit} error={error} submitLabel="Cancel Order" busyLabel="Cancelling..." busy={busy} cancelLabel="Keep Order" onCancel={onDone} danger>
      <TextAreaField
        id={field.id}
        label={
          <>
            Reason <span className="field__optional">(optional)</span>
          </>
        }
        aside={<CharCounter count={field.count} max={CANCEL_REASON_MAX} />}
        error={field.problem}
        value={field.reason}
        data-autofocus
        disabled={busy}
        onChange={field.change}
      />
    </DialogForm>
  );
}
