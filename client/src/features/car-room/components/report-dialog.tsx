import { useId, useState, type FormEvent } from 'react';
import { ReportChatSchema } from '@common/schemas/chat.ts';
import { issuesByField } from '@common/validation.ts';
import { CharCounter, TextAreaField } from '../../../components/ui/form-field.tsx';
import { ModalDialog, ModalFormFooter } from '../../../components/ui/modal-dialog.tsx';
import { CHAT_REPORT_NOTE_MAX_LENGTH, CHAT_REPORT_REASONS, type ChatMessage, type ChatReportReason } from '../api/car-room-api.ts';
import { discussionRefusal } from '../lib/discussion-errors.ts';
import { reportChatMessage } from '../stores/car-room-store.ts';

const REASONS: Record<ChatReportReason, { label: string; hint: string }> = {
  spam: { label: 'Spam', hint: 'Advertising, repeated or unrelated posts.' },
  off_platform: { label: 'Deal outside escrow', hint: 'Contact details, or asking to pay outside escrow.' },
  abuse: { label: 'Abuse', hint: 'Insults, threats or harassment.' },
  other: { label: 'Something else', hint: 'Tell our team in the note below.' },
};

/** An excerpt of the message for the dialog's subtitle. */
function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * "Report this message": why (one reason) and an optional note for the moderators. On the
 * native modal dialog, so focus stays inside and returns to the Report button after.
 * `onReported` hears of a report recorded (or one the server already had from this user).
 */
export function ReportDialog({ message, onClose, onReported }: { message: ChatMessage; onClose: () => void; onReported: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog
      open
      busy={busy}
      onClose={onClose}
      title="Report this message"
      subtitle={`${message.userName}: “${excerpt(message.message)}”`}
      description="Our moderators read every report. A message reported by several people is hidden until they have looked at it."
      testId="report-dialog"
    >
      <ReportForm message={message} busy={busy} setBusy={setBusy} onClose={onClose} onReported={onReported} />
    </ModalDialog>
  );
}

function ReportForm({
  message,
  busy,
  setBusy,
  onClose,
  onReported,
}: {
  message: ChatMessage;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onClose: () => void;
  onReported: () => void;
}) {
  const name = useId();
  const noteId = useId();
  const [reason, setReason] = useState<ChatReportReason | null>(null);
  const [note, setNote] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const trimmed = note.trim();
  const count = [...trimmed].length;
  const noteProblem = issuesByField(ReportChatSchema, { reason: reason ?? 'other', note: trimmed }).note ?? null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (!reason) {
      setReasonError('Choose why you are reporting it.');
      document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"]`)?.focus();
      return;
    }
    if (noteProblem) {
      document.getElementById(noteId)?.focus();
      return;
    }
    setBusy(true);
    try {
      await reportChatMessage(message.id, { reason, ...(trimmed ? { note: trimmed } : {}) });
      setBusy(false);
      onReported();
      onClose();
    } catch (error) {
      setBusy(false);
      setFailure(discussionRefusal(error));
    }
  }

  return (
    <form className="modal-dialog__form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="report-choice" aria-describedby={reasonError ? `${name}-error` : undefined}>
        <legend className="field__label">Why are you reporting it?</legend>
        {CHAT_REPORT_REASONS.map((value) => (
          <label key={value} className="report-choice__option">
            <input
              type="radio"
              name={name}
              value={value}
              checked={reason === value}
              disabled={busy}
              data-autofocus={value === CHAT_REPORT_REASONS[0] || undefined}
              onChange={() => {
                setReason(value);
                setReasonError(null);
              }}
            />
            <span>
              <span className="report-choice__label">{REASONS[value].label}</span>
              <span className="report-choice__hint">{REASONS[value].hint}</span>
            </span>
          </label>
        ))}
        {reasonError && (
          <p id={`${name}-error`} className="field__hint field__hint--error">
            {reasonError}
          </p>
        )}
      </fieldset>
      <TextAreaField
        id={noteId}
        label="Note for the moderators"
        optional
        hint={`Up to ${CHAT_REPORT_NOTE_MAX_LENGTH} characters.`}
        aside={<CharCounter count={count} max={CHAT_REPORT_NOTE_MAX_LENGTH} over={count > CHAT_REPORT_NOTE_MAX_LENGTH} />}
        error={noteProblem}
        value={note}
        rows={3}
        disabled={busy}
        onChange={setNote}
        data-testid="report-note"
      />
      <ModalFormFooter error={failure} errorTestId="report-error" busy={busy} onCancel={onClose} submitLabel="Send Report" busyLabel="Sending..." danger />
    </form>
  );
}
