import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { supportTicketReplies, supportTickets, users } from '../../../db/schema/index.ts';
import type { SupportCategory, SupportPriority } from '@common/enums.ts';
import type { TicketStatus } from '@common/back-office.ts';
import type { AdminTicket } from '@common/schemas/admin.ts';
import type { SupportTicket, SupportTicketWithMessage } from '@common/schemas/support.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import { recordAudit } from './audit.ts';
import { auditActor, type Staff } from './back-office/staff.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { ticketReplyEmail } from './mail-templates.ts';
import type { NewTicket } from '@common/schemas/commerce.ts';

const DESK_LIMIT = 200;


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
    input: NewTicket & Required<Pick<NewTicket, 'category' | 'priority'>>,
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
  async getFor(userId: number, reference: string): Promise<SupportTicketWithMessage> {
    const [row] = await this.db.select().from(supportTickets).where(and(eq(supportTickets.reference, reference), eq(supportTickets.userId, userId)));
    if (!row) throw notFound('Ticket not found');
    return { ...toTicket(row), message: row.message };
  }
}

/**
 * The support desk in the console: every ticket (by status, the oldest waiting first) with its
 * replies; a reply is emailed to the requester, marks the ticket answered and is audited, all in
 * one transaction.
 */
export class SupportDesk {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
  ) {}

  list(status: TicketStatus | undefined): Promise<AdminTicket[]> {
    return this.read(status ? eq(supportTickets.status, status) : undefined);
  }

  private async read(where: SQL | undefined): Promise<AdminTicket[]> {
    const rows = await this.db
      .select()
      .from(supportTickets)
      .where(where)
      .orderBy(asc(supportTickets.createdAt), asc(supportTickets.id))
      .limit(DESK_LIMIT);
    const replies = rows.length
      ? await this.db
          .select()
          .from(supportTicketReplies)
          .where(inArray(supportTicketReplies.ticketId, rows.map((r) => r.id)))
          .orderBy(asc(supportTicketReplies.id))
      : [];
    return rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      email: row.email,
      subject: row.subject,
      category: row.category,
      priority: row.priority,
      message: row.message,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      replies: replies.filter((r) => r.ticketId === row.id).map((r) => ({ message: r.message, by: r.authorLabel, at: r.createdAt.toISOString() })),
    }));
  }

  async reply(staff: Staff, ticketId: number, message: string): Promise<AdminTicket> {
    const text = message.trim();
    await this.db.transaction(async (tx) => {
      const [ticket] = await tx.select().from(supportTickets).where(eq(supportTickets.id, ticketId)).for('no key update');
      if (!ticket) throw notFound('Ticket not found');
      await tx.insert(supportTicketReplies).values({ ticketId, authorUserId: staff.userId, authorLabel: staff.email, message: text });
      await tx.update(supportTickets).set({ status: 'answered' }).where(eq(supportTickets.id, ticketId));
      await this.mailer.send(ticketReplyEmail(ticket.email, ticket.reference, ticket.subject, text), tx);
      await recordAudit(tx, {
        actor: auditActor(staff),
        action: 'ticket.reply',
        targetType: 'ticket',
        targetId: ticketId,
        reason: text,
        before: { status: ticket.status },
        after: { status: 'answered' },
      });
    });
    this.mailer.wake();
    const [answered] = await this.read(eq(supportTickets.id, ticketId));
    return answered!;
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
