import { useId, useState, type FormEvent } from 'react';
import { TICKET_REPLY_MAX_LENGTH, TICKET_STATUSES, type TicketStatus } from '@common/back-office.ts';
import { TicketReplySchema } from '@common/schemas/admin.ts';
import { issuesByField } from '@common/validation.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { CharCounter, TextAreaField } from '../../../components/ui/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { useSubmission } from '../../../lib/use-submission.ts';
import { getTickets, replyToTicket, type AdminTicket } from '../api/admin-api.ts';
import { useConsoleResource, useReportRefusal } from '../hooks/console-access.ts';
import { ConsoleSection, ConsoleStatus, FilterChips, LoadedList, type SectionProps } from './section-parts.tsx';
import './tickets-section.css';

type Filter = TicketStatus | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'answered', label: 'Answered' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
];
const STATUS_LABELS: Record<TicketStatus, string> = { open: 'Open', answered: 'Answered', closed: 'Closed' };
const STATUS_TONES: Record<TicketStatus, string> = { open: 'pending', answered: 'done', closed: 'closed' };

const words = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** Support tickets by status; each answered from here by email. */
export function TicketsSection({ titleId }: SectionProps) {
  const [filter, setFilter] = useState<Filter>('open');
  const status = filter === 'all' ? undefined : filter;
  const { resource, retry } = useConsoleResource(`admin:tickets:${filter}`, (signal) => getTickets(status, signal));
  const [done, setDone] = useState<string | null>(null);

  return (
    <ConsoleSection section="tickets" titleId={titleId}>

      <FilterChips
        label="Show tickets"
        options={FILTERS}
        value={filter}
        onChange={(next) => {
          setDone(null);
          setFilter(next);
        }}
      />

      <ConsoleStatus>{done}</ConsoleStatus>

      <LoadedList resource={resource} retry={retry} label="Loading tickets..." empty={{ title: filter === 'all' ? 'No tickets yet' : `No ${filter} tickets` }}>
        {(tickets) => (
          <ul className="tile-grid console-cards" aria-label={`${filter === 'all' ? 'All' : STATUS_LABELS[filter]} tickets`}>
            {tickets.map((ticket) => (
              <TicketCard
                key={ticket.id}
                ticket={ticket}
                onReplied={() => {
                  setDone(`Your reply to ${ticket.reference} was sent to ${ticket.email}.`);
                  retry();
                }}
              />
            ))}
          </ul>
        )}
      </LoadedList>
    </ConsoleSection>
  );
}

function TicketCard({ ticket, onReplied }: { ticket: AdminTicket; onReplied: () => void }) {
  const titleId = useId();
  const known = (TICKET_STATUSES as readonly string[]).includes(ticket.status);
  return (
    <li className="console-card ticket-card" aria-labelledby={titleId} data-testid="ticket" data-ticket-id={ticket.id}>
      <div className="split-row ticket-card__head">
        <div>
          <h3 id={titleId} className="console-card__title ticket-card__title">
            {ticket.subject}
          </h3>
          <p className="ticket-card__meta">
            <strong>{ticket.reference}</strong> · {ticket.email} · {words(ticket.category)} · {words(ticket.priority)} priority ·{' '}
            <time dateTime={ticket.createdAt}>{formatDateTime(ticket.createdAt)}</time>
          </p>
        </div>
        <span className={`status-badge status-badge--${known ? STATUS_TONES[ticket.status] : 'closed'}`}>{known ? STATUS_LABELS[ticket.status] : ticket.status}</span>
      </div>
      <p className="ticket-card__message">{ticket.message}</p>
      {ticket.replies.length > 0 && (
        <ol className="tile-grid ticket-replies" aria-label="Replies">
          {ticket.replies.map((reply, index) => (
            <li key={`${reply.at}-${index}`} className="ticket-reply">
              <p className="ticket-reply__meta">
                <strong>{reply.by}</strong> · <time dateTime={reply.at}>{formatDateTime(reply.at)}</time>
              </p>
              <p className="ticket-reply__message">{reply.message}</p>
            </li>
          ))}
        </ol>
      )}
      {ticket.status !== 'closed' && <ReplyForm ticket={ticket} onReplied={onReplied} />}
    </li>
  );
}

function ReplyForm({ ticket, onReplied }: { ticket: AdminTicket; onReplied: () => void }) {
  const id = useId();
  const report = useReportRefusal();
  const [message, setMessage] = useState('');
  const [live, setLive] = useState(false);
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const sending = useSubmission();
  const trimmed = message.trim();
  const check = () => issuesByField(TicketReplySchema, { message: trimmed }).message;
  const problem = (live ? check() : undefined) ?? serverProblem;
  const count = [...trimmed].length;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLive(true);
    if (check()) {
      document.getElementById(id)?.focus();
      return;
    }
    await sending.submit(async () => {
      try {
        await replyToTicket(ticket.id, trimmed);
      } catch (error) {
        report(error);
        const fromServer = error instanceof ApiError ? detailsByField(error.details, ['message'] as const).fields.message : undefined;
        if (fromServer) {
          setServerProblem(fromServer);
          return;
        }
        throw error;
      }
      setMessage('');
      setLive(false);
      onReplied();
    });
  }

  return (
    <form className="ticket-reply-form" onSubmit={submit} noValidate aria-label={`Reply to ${ticket.reference}`}>
      <TextAreaField
        id={id}
        label="Your reply"
        hint={`Emailed to ${ticket.email}; it also stands as the reason in the audit log.`}
        aside={<CharCounter count={count} max={TICKET_REPLY_MAX_LENGTH} over={count > TICKET_REPLY_MAX_LENGTH} format={(n) => n.toLocaleString('en-US')} />}
        error={problem}
        errorFirst
        rows={3}
        value={message}
        disabled={sending.submitting}
        onBlur={() => trimmed && setLive(true)}
        onChange={(value) => {
          setMessage(value);
          setServerProblem(null);
        }}
      />
      {sending.error && <Alert tone="error">{sending.error}</Alert>}
      <button type="submit" className="btn btn--dark btn--sm" disabled={sending.submitting}>
        {sending.submitting ? 'Sending...' : 'Send Reply'}
      </button>
    </form>
  );
}
