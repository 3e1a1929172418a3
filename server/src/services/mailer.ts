import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { eq, lt, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Database, Executor } from '../../../db/client.ts';
import { mailDeliveries } from '../../../db/schema/index.ts';
import type { AppConfig } from '../config.ts';
import type { JobRunner } from '../jobs/job-runner.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (an alert's `List-Unsubscribe`). */
  headers?: Record<string, string>;
  /**
   * Names the mail for good (an alert: its search, car and price), so the Message-ID is the same
   * however often the change that causes it is retried; without it each queued mail gets its own.
   */
  stableId?: string;
}

/** A mail in the outbox, with the Message-ID it keeps through every attempt. */
export interface QueuedMail extends OutgoingMail {
  messageId: string;
  /** Attempts the mail server refused or could not be reached for, and when the first was. */
  failures?: { count: number; since: string };
}

declare module '../jobs/job-runner.ts' {
  interface JobPayloads {
    'mail.send': QueuedMail;
  }
}

/**
 * Outgoing mail goes through an outbox: a job written with (or right after) the change that
 * causes the mail, sent by the job runner, so a mail server that is down, or a process that
 * dies, loses nothing. A mail the server cannot take is tried again on a schedule of its own
 * (doubling delays capped at MAIL_RETRY_MAX_DELAY_MS, for up to MAIL_GIVE_UP_MS, as an MTA
 * would), so a mail server back after hours gets its mail within minutes. Each delivery is
 * recorded by Message-ID, so a job run again after its process died does not send again; only a
 * process killed in the moment between the server's answer and that record can repeat a mail,
 * with the same Message-ID. Without SMTP_URL the message and its links go to the log.
 */
export class Mailer {
  private readonly domain: string;

  constructor(
    private readonly jobs: JobRunner,
    private readonly db: Database,
    private readonly transport: Transporter | null,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly retrySeconds = 5,
  ) {
    this.domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'luxemotors.local';
    jobs.define({
      name: 'mail.send',
      // The mail server's refusals are retried by `deliver` itself; this covers anything else
      // that fails a run (the database away for a moment).
      retry: { limit: 12, delaySeconds: retrySeconds, backoff: true },
      expireInSeconds: 90,
      concurrency: MAIL_CONNECTIONS,
      handle: (mail) => this.deliver(mail),
    });
  }

  /**
   * Queues `mail`. Pass the transaction that causes it so the mail exists exactly when that
   * change commits, then call `wake()` after the commit; without one it is queued and sent now.
   */
  async send(mail: OutgoingMail, executor?: Executor): Promise<void> {
    await this.jobs.enqueue(executor ?? this.db, 'mail.send', this.queued(mail));
    if (!executor) this.wake();
  }

  /** Queues many mails in the transaction that causes them, in one statement; `wake()` after the commit. */
  async sendMany(mails: OutgoingMail[], executor: Executor): Promise<void> {
    await this.jobs.enqueueMany(executor, 'mail.send', mails.map((mail) => this.queued(mail)));
  }

  private queued({ stableId, ...mail }: OutgoingMail): QueuedMail {
    return { ...mail, messageId: `<${stableId ?? randomUUID()}@${this.domain}>` };
  }

  /** Sends what committed transactions queued without waiting for the next poll. */
  wake(): void {
    this.jobs.wake('mail.send');
  }

  private async deliver(mail: QueuedMail): Promise<void> {
    if (!this.transport) {
      this.log.info({ to: mail.to, subject: mail.subject }, `email (no SMTP_URL set, not sent):\n${mail.text}`);
      return;
    }
    const [delivered] = await this.db.select({ at: mailDeliveries.deliveredAt }).from(mailDeliveries).where(eq(mailDeliveries.messageId, mail.messageId));
    if (delivered) {
      this.log.info({ to: mail.to, messageId: mail.messageId }, 'email already sent; not sent again');
      return;
    }
    const { failures, ...message } = mail;
    try {
      await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        ...(message.headers ? { headers: message.headers } : {}),
      });
    } catch (error) {
      await this.tryAgainLater(mail, error);
      return;
    }
    await this.db
      .insert(mailDeliveries)
      .values({ messageId: mail.messageId })
      .onConflictDoNothing()
      .catch((error: unknown) => this.log.warn({ err: error, messageId: mail.messageId }, 'could not record a sent email; a rerun of its job would send it again'));
    this.log.info({ to: mail.to, subject: mail.subject, ...(failures ? { afterFailures: failures.count } : {}) }, 'email sent');
    await this.pruneDeliveries();
  }

  /**
   * Queues the mail again after a refusal or an unreachable server: the same Message-ID, after a
   * delay that doubles up to a cap. A permanent refusal (an SMTP 5xx: no such mailbox) or a mail
   * failing for longer than MAIL_GIVE_UP_MS is dropped with an error in the log.
   */
  private async tryAgainLater(mail: QueuedMail, error: unknown): Promise<void> {
    const responseCode = (error as { responseCode?: unknown }).responseCode;
    const since = mail.failures?.since ?? new Date().toISOString();
    const count = (mail.failures?.count ?? 0) + 1;
    if (typeof responseCode === 'number' && responseCode >= 500) {
      this.log.error({ err: error, to: mail.to, messageId: mail.messageId }, 'email refused for good by the mail server; not retried');
      return;
    }
    if (Date.now() - Date.parse(since) > MAIL_GIVE_UP_MS) {
      this.log.error({ err: error, to: mail.to, messageId: mail.messageId, failures: count, since }, 'email undeliverable for days; given up');
      return;
    }
    const delayMs = Math.min(this.retrySeconds * 1000 * 2 ** (count - 1), MAIL_RETRY_MAX_DELAY_MS) * (1 + Math.random() / 4);
    await this.jobs.enqueue(this.db, 'mail.send', { ...mail, failures: { count, since } }, { startAfter: new Date(Date.now() + delayMs) });
    this.log.warn({ err: error, to: mail.to, messageId: mail.messageId, failures: count, retryInSeconds: Math.round(delayMs / 1000) }, 'email not sent; it will be tried again');
  }

  private lastPrune = 0;

  /** At most hourly per process: deliveries older than any retry of their mail are forgotten. */
  private async pruneDeliveries(): Promise<void> {
    if (Date.now() - this.lastPrune < 3_600_000) return;
    this.lastPrune = Date.now();
    await this.db
      .delete(mailDeliveries)
      .where(lt(mailDeliveries.deliveredAt, sql`now() - make_interval(secs => ${(MAIL_GIVE_UP_MS * 2) / 1000})`))
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not prune the record of sent emails'));
  }
}

/** The longest wait between two attempts at one mail, so a mail server back after hours gets it within minutes. */
const MAIL_RETRY_MAX_DELAY_MS = 10 * 60_000;
/** How long a mail is tried before it is given up: the four to five days RFC 5321 asks of a sender. */
const MAIL_GIVE_UP_MS = 5 * 24 * 3_600_000;

/** Mails sent at once by one process, each over a kept-open connection of the pool. */
const MAIL_CONNECTIONS = 4;

/** The SMTP pool, or null without SMTP_URL (mail is then logged, and nodemailer never loaded). */
export async function createTransport(config: Pick<AppConfig, 'smtpUrl'>): Promise<Transporter | null> {
  if (!config.smtpUrl) return null;
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport(config.smtpUrl, {
    pool: true,
    maxConnections: MAIL_CONNECTIONS,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[1]);
}
