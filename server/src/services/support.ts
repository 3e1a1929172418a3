import { randomInt } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { supportTickets, users } from '../../../db/schema/index.ts';
import type { SupportCategory, SupportPriority } from '@common/enums.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export interface SupportTicket {
  id: string;
  subject: string;
  category: SupportCategory;
  priority: SupportPriority;
  status: string;
  email: string;
  createdAt: string;
}

/** Without look-alike characters (0/O, 1/I/L), so a reference read out on the phone is unambiguous. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

export function ticketReference(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `LM-${code}`;
}

export class SupportService {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
  ) {}

  async file(
    requester: { userId: number } | null,
    input: { subject: string; message: string; category: SupportCategory; priority: SupportPriority; email?: string | undefined },
  ): Promise<SupportTicket> {
    const subject = input.subject.trim();
    const message = input.message.trim();
    const issues = [
      ...(subject ? [] : [{ field: 'subject', message: 'Subject is required' }]),
      ...(message ? [] : [{ field: 'message', message: 'Message is required' }]),
    ];
    let email = input.email?.trim().toLowerCase();
    if (requester) {
      const [user] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, requester.userId));
      email = user?.email;
    } else if (!email) {
      issues.push({ field: 'email', message: 'An email address is required so we can answer you' });
    }
    if (issues.length > 0) throw validationFailed(issues);

    for (let attempt = 0; ; attempt++) {
      // The ticket and its confirmation mail are written together.
      const row = await this.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(supportTickets)
          .values({ reference: ticketReference(), userId: requester?.userId ?? null, email: email!, subject, message, category: input.category, priority: input.priority })
          .onConflictDoNothing({ target: supportTickets.reference })
          .returning();
        if (created) await this.mailer.send(ticketReceivedEmail(created), tx);
        return created;
      });
      if (!row) {
        if (attempt < 5) continue;
        throw new Error('could not allocate a unique ticket reference');
      }
      this.mailer.wake();
      return toTicket(row);
    }
  }

  /** The signed-in user's tickets, newest first. */
  async listFor(userId: number): Promise<SupportTicket[]> {
    const rows = await this.db.select().from(supportTickets).where(eq(supportTickets.userId, userId)).orderBy(desc(supportTickets.createdAt), desc(supportTickets.id));
    return rows.map(toTicket);
  }

  /** One of the user's tickets by its reference; anyone else's is not found. */
  async getFor(userId: number, reference: string): Promise<SupportTicket & { message: string }> {
    const [row] = await this.db.select().from(supportTickets).where(and(eq(supportTickets.reference, reference), eq(supportTickets.userId, userId)));
    if (!row) throw notFound('Ticket not found');
    return { ...toTicket(row), message: row.message };
  }
}

function toTicket(row: typeof supportTickets.$inferSelect): SupportTicket {
  return {
    id: row.reference,
    subject: row.subject,
    category: row.category as SupportCategory,
    priority: row.priority as SupportPriority,
    status: row.status,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
  };
}

function ticketReceivedEmail(ticket: { email: string; reference: string; subject: string; message: string }): OutgoingMail {
  return {
    to: ticket.email,
    subject: `We received your request ${ticket.reference}: ${ticket.subject}`,
    text: `Thank you for contacting LuxeMotors support.\n\nYour reference is ${ticket.reference}. We answer within 4 hours (Mon-Fri 8AM-8PM PST).\n\nYour message:\n${ticket.message}`,
    html: `<p>Thank you for contacting LuxeMotors support.</p><p>Your reference is <strong>${ticket.reference}</strong>. We answer within 4 hours (Mon-Fri 8AM-8PM PST).</p>`,
  };
}
