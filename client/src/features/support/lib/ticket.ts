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

export const SUBJECT_MAX = 150;
export const MESSAGE_MAX = 5000;
export const EMAIL_MAX = 254;

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

export interface TicketBody {
  subject: string;
  message: string;
  category: TicketCategory;
  priority: TicketPriority;
  email?: string;
}

const length = (text: string) => [...text].length;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `needsEmail`: visitors give an address to be answered at; signed-in users file as themselves. */
export function validateTicket(values: TicketFormValues, needsEmail: boolean): TicketErrors {
  const errors: TicketErrors = {};
  const subject = values.subject.trim();
  const message = values.message.trim();
  if (!subject) errors.subject = 'Subject is required';
  else if (length(subject) > SUBJECT_MAX) errors.subject = `Subject must be at most ${SUBJECT_MAX} characters`;
  if (!message) errors.message = 'Message is required';
  else if (length(message) > MESSAGE_MAX) errors.message = `Message must be at most ${MESSAGE_MAX} characters`;
  if (needsEmail) {
    const email = values.email.trim();
    if (!email) errors.email = 'Email is required';
    else if (!EMAIL_PATTERN.test(email) || length(email) > EMAIL_MAX) errors.email = 'Please enter a valid email address';
  }
  return errors;
}

export function ticketBody(values: TicketFormValues, needsEmail: boolean): TicketBody {
  const body: TicketBody = {
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
