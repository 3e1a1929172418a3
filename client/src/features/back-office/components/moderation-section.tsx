import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { MUTE_HOURS, type ChatAuthorTag, type ChatQueueFilter, type ChatReportReason } from '@common/discussion.ts';
import { carPath } from '@common/paths.ts';
import { MuteUserSchema } from '@common/schemas/chat.ts';
import { issuesByField } from '@common/validation.ts';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { SelectField } from '../../../components/ui/form-field.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { countLabel } from '../../../lib/quantities.ts';
import {
  getAudit,
  getCarDiscussion,
  getChatQueue,
  moderateMessage,
  muteUser,
  unmuteUser,
  type AuditEntry,
  type ChatMessage,
  type ModerationMove,
  type QueuedChatMessage,
} from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { AUDIT_ACTION_LABELS } from '../lib/format.ts';
import { ReasonDialog, type MoveWords } from './reason-dialog.tsx';
import { ConsoleSection, ConsoleStatus, FilterChips, LoadedList, MoveButton, useStatusFocusAfterMove, type SectionProps } from './section-parts.tsx';
import './moderation-section.css';

type Filter = ChatQueueFilter | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'held', label: 'Held' },
  { value: 'reported', label: 'Reported' },
];

export const REPORT_REASON_LABELS: Record<ChatReportReason, string> = {
  spam: 'Spam',
  off_platform: 'Deal outside escrow',
  abuse: 'Abuse',
  other: 'Something else',
};

const TAG_LABELS: Record<ChatAuthorTag, string> = { seller: 'Seller', bidder: 'Bidder', buyer: 'Buyer', staff: 'Staff' };

/** Mute lengths offered, in hours, within what the server takes. */
const MUTE_CHOICES = [1, 6, 24, 72, 168, 720].filter((h) => h >= MUTE_HOURS.min && h <= MUTE_HOURS.max);
const muteLabel = (hours: number) => (hours % 24 === 0 ? countLabel(hours / 24, 'day') : countLabel(hours, 'hour'));
const MUTE_OPTIONS = MUTE_CHOICES.map((hours) => ({ value: String(hours), label: muteLabel(hours) }));

const MOVES: Record<ModerationMove, MoveWords & { description: (m: QueuedChatMessage) => string; done: (m: QueuedChatMessage) => string }> = {
  approve: {
    button: 'Approve',
    title: 'Approve this message?',
    confirm: 'Approve Message',
    busy: 'Approving...',
    description: (m) =>
      m.status === 'held'
        ? `It is shown to everyone on the car’s page at once, and the seller and the people it replies to are notified as for a new message.`
        : 'It stays on the car’s page and leaves the queue; its reports are kept in the audit log.',
    done: (m) => `Message #${m.id} is approved and shown to everyone.`,
  },
  remove: {
    button: 'Remove',
    title: 'Remove this message?',
    confirm: 'Remove Message',
    busy: 'Removing...',
    danger: true,
    description: (m) => `It disappears for everyone at once. ${m.userName} is notified with your reason.`,
    done: (m) => `Message #${m.id} is removed.`,
  },
};

const MUTE_MOVE: MoveWords = { button: 'Mute Author', title: 'Mute this author?', confirm: 'Mute Author', busy: 'Muting...', danger: true };
const UNMUTE_MOVE: MoveWords = { button: 'Unmute', title: 'Unmute this author?', confirm: 'Unmute Author', busy: 'Unmuting...' };

type Acting = { message: QueuedChatMessage; move: ModerationMove | 'mute' | 'unmute' };

/** When the account's latest mute ends, from the audit log (newest first); null when it is not muted. */
function mutedUntilIn(entries: readonly AuditEntry[], now = Date.now()): string | null {
  const latest = entries.find((e) => e.action === 'user.mute' || e.action === 'user.unmute');
  if (latest?.action !== 'user.mute') return null;
  const after = latest.after as { mutedUntil?: unknown } | null;
  const until = typeof after?.mutedUntil === 'string' ? after.mutedUntil : null;
  return until !== null && Date.parse(until) <= now ? null : (until ?? '');
}

/** Why a message is in the queue, as its badge says. */
function queueState(message: QueuedChatMessage): { label: string; tone: string } {
  if (message.heldBy === 'guard') return { label: 'Held: contact or payment details', tone: 'pending' };
  if (message.heldBy === 'reports') return { label: 'Held after reports', tone: 'problem' };
  return { label: 'Reported, still shown', tone: 'active' };
}

/**
 * The moderation queue (contract v4): messages held by the contact guard or by readers' reports,
 * and visible ones that were reported, oldest first, each with its reports, its car and its
 * author's record. Approve, remove and mute each take a reason, kept in the audit log.
 */
export function ModerationSection({ titleId }: SectionProps) {
  const [filter, setFilter] = useState<Filter>('all');
  const { resource, retry, mutate } = useConsoleResource(`admin:chat-queue:${filter}`, (signal) => getChatQueue(filter === 'all' ? undefined : filter, signal));
  const [acting, setActing] = useState<Acting | null>(null);
  const [refused, setRefused] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  // An approved or removed message leaves the queue with its buttons.
  const { status, focusStatusAfterClose } = useStatusFocusAfterMove(acting !== null);
  const muteId = useId();
  const [hours, setHours] = useState(String(MUTE_CHOICES.includes(24) ? 24 : MUTE_CHOICES[0]));
  // Bumped after a mute or an unmute, so an open author's record reads itself again.
  const [recordGeneration, setRecordGeneration] = useState(0);

  function close() {
    setActing(null);
    // Refused (another operator acted first, say): show the queue as it is now.
    if (refused) retry();
    setRefused(false);
  }

  async function refusable<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      setRefused(true);
      throw error;
    }
  }

  return (
    <ConsoleSection section="moderation" titleId={titleId} onRefresh={retry}>
      <FilterChips
        label="Show messages"
        options={FILTERS}
        value={filter}
        onChange={(next) => {
          setDone(null);
          setFilter(next);
        }}
      />

      <ConsoleStatus ref={status} testId="moderation-done">
        {done}
      </ConsoleStatus>

      <LoadedList
        resource={resource}
        retry={retry}
        label="Loading the queue..."
        empty={{ title: 'Nothing to review', text: 'No message is held or reported right now.' }}
      >
        {(messages) => (
          <ol className="tile-grid console-cards" aria-label="Messages to review, oldest first">
            {messages.map((message) => (
              <QueuedCard key={message.id} message={message} generation={recordGeneration} onAct={(move) => setActing({ message, move })} />
            ))}
          </ol>
        )}
      </LoadedList>

      {acting && (acting.move === 'approve' || acting.move === 'remove') && (
        <ReasonDialog
          move={MOVES[acting.move]}
          onClose={close}
          subtitle={`Message #${acting.message.id} by ${acting.message.userName}`}
          description={MOVES[acting.move].description(acting.message)}
          testId="moderation-dialog"
          onConfirm={async (reason) => {
            const { message, move } = acting;
            if (move !== 'approve' && move !== 'remove') return;
            await refusable(() => moderateMessage(message.id, move, reason));
            mutate((list) => list.filter((m) => m.id !== message.id));
            focusStatusAfterClose();
            setDone(MOVES[move].done(message));
          }}
        />
      )}

      {acting?.move === 'mute' && acting.message.userId !== null && (
        <ReasonDialog
          move={MUTE_MOVE}
          onClose={close}
          subtitle={acting.message.userName}
          description="They can still read, but cannot post, reply, vote or report in any discussion until the mute ends. Their messages stay as they are."
          check={(reason) => issuesByField(MuteUserSchema, { reason, hours: Number(hours) }).reason}
          extra={<SelectField id={muteId} label="Mute for" value={hours} options={MUTE_OPTIONS} onChange={setHours} />}
          testId="mute-dialog"
          onConfirm={async (reason) => {
            const { message } = acting;
            const mute = await refusable(() => muteUser(message.userId!, Number(hours), reason));
            setRecordGeneration((n) => n + 1);
            setDone(mute.mutedUntil ? `${message.userName} is muted until ${formatDateTime(mute.mutedUntil)}.` : `${message.userName} is muted.`);
          }}
        />
      )}

      {acting?.move === 'unmute' && acting.message.userId !== null && (
        <ReasonDialog
          move={UNMUTE_MOVE}
          onClose={close}
          subtitle={acting.message.userName}
          description="They can post, reply, vote and report again at once."
          testId="unmute-dialog"
          onConfirm={async (reason) => {
            const { message } = acting;
            await refusable(() => unmuteUser(message.userId!, reason));
            setRecordGeneration((n) => n + 1);
            setDone(`${message.userName} can take part in discussions again.`);
          }}
        />
      )}
    </ConsoleSection>
  );
}

function QueuedCard({ message, generation, onAct }: { message: QueuedChatMessage; generation: number; onAct: (move: Acting['move']) => void }) {
  const titleId = useId();
  const state = queueState(message);
  return (
    <li className="console-card moderation-card" aria-labelledby={titleId} data-testid="queued-message" data-message-id={message.id}>
      <div className="split-row moderation-card__head">
        <h3 id={titleId} className="moderation-card__title">
          Message #{message.id}
        </h3>
        <span className={`status-badge status-badge--${state.tone}`}>{state.label}</span>
      </div>

      <figure className="moderation-card__quote">
        <blockquote data-testid="queued-text">{message.message}</blockquote>
        <figcaption>
          {message.userName}
          {message.authorTags.length > 0 && ` (${message.authorTags.map((tag) => TAG_LABELS[tag]).join(', ')})`}
          {message.parentId !== null ? `, replying to message #${message.parentId}` : message.type === 'question' ? ', a question' : ''}
        </figcaption>
      </figure>

      <Facts className="console-facts moderation-card__facts">
        <Fact label="Car">
          <Link to={carPath(message.carId)} className="text-link">
            {message.carTitle}
          </Link>
          <span className="console-table__sub">Car #{message.carId}</span>
        </Fact>
        <Fact label="Author">
          {message.userName}
          {message.userId !== null && <span className="console-table__sub">Account #{message.userId}</span>}
        </Fact>
        <Fact label="Posted">
          <time dateTime={message.timestamp}>{formatDateTime(message.timestamp)}</time>
        </Fact>
        <Fact label="Upvotes">{message.upvotes}</Fact>
      </Facts>

      <div className="moderation-card__reports">
        <h4 className="caps-label">{message.reports.length === 0 ? 'No reports' : countLabel(message.reports.length, 'report')}</h4>
        {message.reports.length > 0 && (
          <ol className="moderation-reports" data-testid="queued-reports">
            {message.reports.map((report, index) => (
              <li key={`${report.at}-${index}`}>
                <strong>{REPORT_REASON_LABELS[report.reason] ?? report.reason}</strong>
                <span className="moderation-reports__when">
                  {' '}
                  · <time dateTime={report.at}>{formatDateTime(report.at)}</time>
                </span>
                {report.note && <p className="moderation-reports__note">{report.note}</p>}
              </li>
            ))}
          </ol>
        )}
      </div>

      {message.userId !== null && (
        <AuthorHistory carId={message.carId} userId={message.userId} current={message.id} generation={generation} onUnmute={() => onAct('unmute')} />
      )}

      <div className="cluster moderation-card__actions">
        <MoveButton label={MOVES.approve.button} onClick={() => onAct('approve')} />
        <MoveButton label={MOVES.remove.button} tone="danger" onClick={() => onAct('remove')} />
        {message.userId !== null && <MoveButton label={MUTE_MOVE.button} tone="dark" onClick={() => onAct('mute')} />}
      </div>
    </li>
  );
}

const STATUS_WORDS: Record<ChatMessage['status'], string> = { visible: 'Shown', held: 'Held', removed: 'Removed' };

/**
 * The author's record, read when opened: what they wrote on this car (staff read held and removed
 * messages too) and the moves made on their account (mutes, suspensions) from the audit log.
 */
interface RecordProps {
  carId: number;
  userId: number;
  current: number;
  generation: number;
  onUnmute: () => void;
}

function AuthorHistory(props: RecordProps) {
  const [open, setOpen] = useState(false);
  return (
    <details className="moderation-history" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="author-history">
      <summary>Author’s history</summary>
      {open && <AuthorRecord {...props} />}
    </details>
  );
}

function AuthorRecord({ carId, userId, current, generation, onUnmute }: RecordProps) {
  const { resource, retry } = useConsoleResource(`admin:author:${carId}:${userId}:${generation}`, (signal) =>
    Promise.all([getCarDiscussion(carId, signal), getAudit({ targetType: 'user', targetId: userId }, { limit: 20 }, signal)]).then(([messages, entries]) => ({
      messages: messages.filter((m) => m.userId === userId),
      entries,
    })),
  );
  return (
    <Loaded resource={resource} retry={retry} label="Loading the author’s history...">
      {({ messages, entries }) => {
        const counts = { visible: 0, held: 0, removed: 0 };
        for (const m of messages) counts[m.status] += 1;
        const others = messages.filter((m) => m.id !== current).slice(-5);
        const mutedUntil = mutedUntilIn(entries);
        return (
          <div className="moderation-history__body">
            {mutedUntil !== null && (
              <div className="split-row moderation-history__muted">
                <strong data-testid="author-muted">{mutedUntil ? `Muted until ${formatDateTime(mutedUntil)}` : 'Muted'}</strong>
                <MoveButton label={UNMUTE_MOVE.button} onClick={onUnmute} />
              </div>
            )}
            <p>
              On this car: {countLabel(messages.length, 'message')} ({counts.visible} shown, {counts.held} held, {counts.removed} removed).
            </p>
            {others.length > 0 && (
              <ol className="moderation-history__messages">
                {others.map((m) => (
                  <li key={m.id}>
                    <span className={`status-badge status-badge--${m.status === 'visible' ? 'done' : m.status === 'held' ? 'pending' : 'problem'}`}>{STATUS_WORDS[m.status]}</span>{' '}
                    <span className="moderation-history__text">{m.message}</span>
                  </li>
                ))}
              </ol>
            )}
            {entries.length === 0 ? (
              <p className="muted">No move on this account in the audit log.</p>
            ) : (
              <ol className="moderation-history__moves">
                {entries.map((entry) => (
                  <li key={entry.id}>
                    <strong>{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</strong> · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    {entry.reason && <span className="moderation-history__reason"> — {entry.reason}</span>}
                  </li>
                ))}
              </ol>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}
