import { NewTicketSchema, type NewTicket } from '@common/schemas/commerce.ts';
import { issuesByField } from '@common/validation.ts';
import { detailsByField } from '../../../lib/field-errors.ts';

/** The Submit a Ticket form (spec §3, §5): fields, options, checks and the request body. */

export const TICKET_CATEGORIES = [
  { value: 'general', label: 'General' },
  { value: 'buying', label: 'Buying' },
  { value: 'selling', label: 'Selling' },
  { value: 'payments', label: 'Payments' },
  { value: 'technical', label: 'Technical' },
  { value: 'escrow', label: 'Escrow' },
] as const;

export const TICKET_PRIORITIES = [
  { value: 'low', label: 'Low' },
  { value: 'normal', label: 'Normal' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
] as const;

export type TicketCategory = (typeof TICKET_CATEGORIES)[number]['value'];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number]['value'];

export { SUBJECT_MAX, TICKET_MESSAGE_MAX as MESSAGE_MAX } from '@common/schemas/commerce.ts';
export { EMAIL_MAX_LENGTH as EMAIL_MAX } from '@common/schemas/auth.ts';

export interface TicketFormValues {
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  message: string;
  email: string;
}

export type TicketField = keyof TicketFormValues;
export type TicketErrors = Partial<Record<TicketField, string>>;

export const EMPTY_TICKET: TicketFormValues = { subject: '', category: 'general', priority: 'normal', message: '', email: '' };


/**
 * `needsEmail`: visitors give an address to be answered at; signed-in users file as themselves.
 * The body is checked against the schema `POST /api/support/tickets` is validated with.
 */
export function validateTicket(values: TicketFormValues, needsEmail: boolean): TicketErrors {
  const errors: TicketErrors = issuesByField(NewTicketSchema, ticketBody(values, needsEmail));
  if (needsEmail && !values.email.trim()) errors.email = 'Email is required';
  return errors;
}

export function ticketBody(values: TicketFormValues, needsEmail: boolean): NewTicket {
  const body: NewTicket = {
    subject: values.subject.trim(),
    message: values.message.trim(),
    category: values.category,
    priority: values.priority,
  };
  if (needsEmail) body.email = values.email.trim();
  return body;
}

const FIELDS: readonly TicketField[] = ['subject', 'category', 'priority', 'message', 'email'];

/** Maps a 400's `details` (`[{field, message}]`) onto the form; the rest is returned as text. */
export function ticketErrorsFromDetails(details: unknown): { fields: TicketErrors; other: string[] } {
  return detailsByField(details, FIELDS);
}
