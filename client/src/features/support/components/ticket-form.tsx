import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { submitTicket, type SupportTicket } from '../api/support.ts';
import {
  EMAIL_MAX,
  EMPTY_TICKET,
  MESSAGE_MAX,
  SUBJECT_MAX,
  TICKET_CATEGORIES,
  TICKET_PRIORITIES,
  ticketBody,
  ticketErrorsFromDetails,
  validateTicket,
  type TicketErrors,
  type TicketField,
  type TicketFormValues,
} from '../lib/ticket.ts';

/** Fields in the order the form shows them (the first invalid one takes focus). */
const ORDER: readonly TicketField[] = ['email', 'subject', 'category', 'priority', 'message'];

/** Submit a Ticket: sent to the server; success shows the ticket number it gives. */
export function TicketForm() {
  const idBase = useId();
  const id = (field: TicketField) => `${idBase}-${field}`;
  const errorId = (field: TicketField) => `${idBase}-${field}-error`;
  const user = useSessionStore((s) => (s.isAuthenticated ? s.user : null));
  const needsEmail = user === null;
  const [values, setValues] = useState<TicketFormValues>(EMPTY_TICKET);
  const [errors, setErrors] = useState<TicketErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [ticket, setTicket] = useState<SupportTicket | null>(null);

  const set = (field: TicketField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found = validateTicket(values, needsEmail);
    setErrors(found);
    setFormError(null);
    const first = ORDER.find((f) => found[f]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }
    setSubmitting(true);
    try {
      setTicket(await submitTicket(ticketBody(values, needsEmail)));
      setValues(EMPTY_TICKET);
    } catch (err) {
      const { fields, other } = err instanceof ApiError ? ticketErrorsFromDetails(err.details) : { fields: {}, other: [] };
      setErrors(fields);
      setFormError([errorMessage(err), ...other].join(' '));
    } finally {
      setSubmitting(false);
    }
  }

  if (ticket) {
    return (
      <div className="ticket-success" data-testid="ticket-success">
        <Alert tone="success" title="Ticket submitted">
          <p>
            Your ticket number is{' '}
            <strong className="ticket-success__id" data-testid="ticket-id">
              {ticket.id}
            </strong>
            . We will reply to <strong>{ticket.email}</strong> within 4 hours.
          </p>
        </Alert>
        <button type="button" className="btn btn--outline" onClick={() => setTicket(null)}>
          Submit Another Ticket
        </button>
      </div>
    );
  }

  const errorText = (field: TicketField) =>
    errors[field] ? (
      <p id={errorId(field)} className="field__hint field__hint--error">
        {errors[field]}
      </p>
    ) : null;
  const invalid = (field: TicketField) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? errorId(field) : undefined,
  });

  return (
    <form className="ticket-form" onSubmit={handleSubmit} noValidate aria-label="Submit a ticket">
      <p className="muted ticket-form__intro">
        {user ? (
          <>
            Filing as <strong>{user.email}</strong>. Our team replies within 4 hours.
          </>
        ) : (
          'Tell us what you need and where we can reach you. Our team replies within 4 hours.'
        )}
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}

      {needsEmail && (
        <div className="field">
          <label htmlFor={id('email')} className="field__label">
            Email
          </label>
          <input
            id={id('email')}
            className="input"
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={EMAIL_MAX}
            value={values.email}
            required
            {...invalid('email')}
            onChange={(e) => set('email')(e.target.value)}
          />
          {errorText('email')}
        </div>
      )}

      <div className="field">
        <label htmlFor={id('subject')} className="field__label">
          Subject
        </label>
        <input
          id={id('subject')}
          className="input"
          type="text"
          maxLength={SUBJECT_MAX}
          value={values.subject}
          required
          {...invalid('subject')}
          onChange={(e) => set('subject')(e.target.value)}
        />
        {errorText('subject')}
      </div>

      <div className="ticket-form__row">
        <div className="field">
          <label htmlFor={id('category')} className="field__label">
            Category
          </label>
          <select
            id={id('category')}
            className="input select"
            value={values.category}
            {...invalid('category')}
            onChange={(e) => set('category')(e.target.value)}
          >
            {TICKET_CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          {errorText('category')}
        </div>
        <div className="field">
          <label htmlFor={id('priority')} className="field__label">
            Priority
          </label>
          <select
            id={id('priority')}
            className="input select"
            value={values.priority}
            {...invalid('priority')}
            onChange={(e) => set('priority')(e.target.value)}
          >
            {TICKET_PRIORITIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          {errorText('priority')}
        </div>
      </div>

      <div className="field">
        <div className="field__label-row">
          <label htmlFor={id('message')} className="field__label">
            Message
          </label>
          <span className="field__counter" aria-hidden="true">
            {[...values.message].length}/{MESSAGE_MAX}
          </span>
        </div>
        <textarea
          id={id('message')}
          className="input input--textarea"
          rows={6}
          maxLength={MESSAGE_MAX}
          value={values.message}
          required
          {...invalid('message')}
          onChange={(e) => set('message')(e.target.value)}
        />
        {errorText('message')}
      </div>

      <button type="submit" className="btn btn--primary btn--lg ticket-form__submit" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Submit Ticket'}
      </button>
    </form>
  );
}
