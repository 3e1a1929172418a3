import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Database, Executor } from '../../../db/client.ts';
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
}

declare module '../jobs/job-runner.ts' {
  interface JobPayloads {
    'mail.send': QueuedMail;
  }
}

/**
 * Outgoing mail goes through an outbox: a job written with (or right after) the change that
 * causes the mail, sent by the job runner with retries and backoff, so a mail server that is
 * down, or a process that dies, loses nothing. A mail can go out twice at worst (a process
 * killed after the server took it but before the job was marked done); it keeps one Message-ID,
 * so mail clients show it once. Without SMTP_URL the message and its links go to the log.
 */
export class Mailer {
  private readonly domain: string;

  constructor(
    private readonly jobs: JobRunner,
    private readonly db: Database,
    private readonly transport: Transporter | null,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    retrySeconds = 5,
  ) {
    this.domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'luxemotors.local';
    jobs.define({
      name: 'mail.send',
      // Doubling delays: with the default 5 s first delay, a mail server away for hours.
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
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
      ...(mail.headers ? { headers: mail.headers } : {}),
    });
    this.log.info({ to: mail.to, subject: mail.subject }, 'email sent');
  }
}

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
