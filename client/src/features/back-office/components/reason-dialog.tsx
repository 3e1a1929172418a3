import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { REASON_MAX_LENGTH } from '@common/back-office.ts';
import { ReasonSchema } from '@common/schemas/admin.ts';
import { issuesByField } from '@common/validation.ts';
import { CharCounter, TextAreaField } from '../../../components/ui/form-field.tsx';
import { ModalDialog, ModalFormFooter } from '../../../components/ui/modal-dialog.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { useReportRefusal } from '../hooks/console-access.ts';

/** The reason as the schema sees it: trimmed, as it is sent. */
const defaultCheck = (reason: string) => issuesByField(ReasonSchema, { reason }).reason;

/** A console move's words: the button that opens its dialog, the dialog's title, its confirm button at rest and while busy. */
export interface MoveWords {
  button: string;
  title: string;
  confirm: string;
  busy: string;
  /** A move that is hard to undo: the confirm button says so in red. */
  danger?: boolean;
}

export interface ReasonDialogProps {
  move: MoveWords;
  onClose: () => void;
  subtitle?: string;
  /** What the move does, in a sentence (the dialog is described by it). */
  description: ReactNode;
  /** The reason's problem under the request's schema (the server's words); ReasonSchema's unless told. */
  check?: (reason: string) => string | undefined;
  /** More fields above the reason (a role to choose). */
  extra?: ReactNode;
  /** Sends the move with the (trimmed) reason; a rejection is shown in the dialog. */
  onConfirm: (reason: string) => Promise<void>;
  testId?: string;
}

/**
 * A console move confirmed with a reason (the dialog is shown while it is rendered): every write in the back office says why, and the
 * reason goes to the audit log. The reason is checked as it is typed (after the first attempt
 * to send, or once the field is left), with the messages the server would answer.
 */
export function ReasonDialog(props: ReasonDialogProps) {
  const { move, onClose, subtitle, description, testId } = props;
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog open busy={busy} onClose={onClose} title={move.title} subtitle={subtitle} description={description} testId={testId}>
      <ReasonForm {...props} busy={busy} setBusy={setBusy} />
    </ModalDialog>
  );
}

function ReasonForm({
  onClose,
  move: { confirm, busy: busyLabel, danger = false },
  check = defaultCheck,
  extra,
  onConfirm,
  busy,
  setBusy,
}: ReasonDialogProps & { busy: boolean; setBusy: (busy: boolean) => void }) {
  const id = useId();
  const report = useReportRefusal();
  const [reason, setReason] = useState('');
  const [live, setLive] = useState(false);
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const trimmed = reason.trim();
  const problem = live ? (check(trimmed) ?? serverProblem) : serverProblem;
  const count = [...trimmed].length;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setLive(true);
    setError(null);
    if (check(trimmed)) {
      document.getElementById(id)?.focus();
      return;
    }
    setBusy(true);
    try {
      await onConfirm(trimmed);
      setBusy(false);
      onClose();
    } catch (err) {
      setBusy(false);
      report(err);
      const fromServer = err instanceof ApiError ? detailsByField(err.details, ['reason'] as const).fields.reason : undefined;
      if (fromServer) {
        setServerProblem(fromServer);
        document.getElementById(id)?.focus();
      } else {
        setError(errorMessage(err));
      }
    }
  }

  return (
    <form className="modal-dialog__form" onSubmit={submit} noValidate>
      {extra}
      <TextAreaField
        id={id}
        label="Reason"
        hint="Kept in the audit log with your name."
        aside={<CharCounter count={count} max={REASON_MAX_LENGTH} over={count > REASON_MAX_LENGTH} />}
        error={problem}
        errorFirst
        value={reason}
        rows={4}
        data-autofocus
        disabled={busy}
        required
        onBlur={() => trimmed && setLive(true)}
        onChange={(value) => {
          setReason(value);
          setServerProblem(null);
        }}
      />
      <ModalFormFooter error={error} errorTestId="console-action-error" busy={busy} onCancel={onClose} submitLabel={confirm} busyLabel={busyLabel} danger={danger} />
    </form>
  );
}
