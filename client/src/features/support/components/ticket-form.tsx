import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { CharCounter, SelectField, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useFormState } from '../../../lib/use-form-state.ts';
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
  type TicketField,
  type TicketFormValues,
} from '../lib/ticket.ts';

/** Fields in the order the form shows them (the first invalid one takes focus). */
const ORDER: readonly TicketField[] = ['email', 'subject', 'category', 'priority', 'message'];

/** Submit a Ticket: sent to the server; success shows the ticket number it gives. */
export function TicketForm() {
  const user = useSessionStore((s) => (s.isAuthenticated ? s.user : null));
  const needsEmail = user === null;
  const form = useFormState<TicketFormValues>(EMPTY_TICKET);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [ticket, setTicket] = useState<SupportTicket | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    if (!form.checked(validateTicket(form.values, needsEmail), ORDER)) return;
    setSubmitting(true);
    try {
      setTicket(await submitTicket(ticketBody(form.values, needsEmail)));
      form.setValues(EMPTY_TICKET);
    } catch (err) {
      const { fields, other } = err instanceof ApiError ? ticketErrorsFromDetails(err.details) : { fields: {}, other: [] };
      form.setErrors(fields);
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
        <TextField
          {...form.field('email')}
          label="Email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX}
          required
        />
      )}

      <TextField {...form.field('subject')} label="Subject" maxLength={SUBJECT_MAX} required />

      <div className="ticket-form__row">
        <SelectField {...form.field('category')} label="Category" options={TICKET_CATEGORIES} />
        <SelectField {...form.field('priority')} label="Priority" options={TICKET_PRIORITIES} />
      </div>

      <TextAreaField
        {...form.field('message')}
        label="Message"
        aside={<CharCounter count={[...form.values.message].length} max={MESSAGE_MAX} />}
        rows={6}
        maxLength={MESSAGE_MAX}
        required
      />

      <button type="submit" className="btn btn--primary btn--lg ticket-form__submit" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Submit Ticket'}
      </button>
    </form>
  );
}
