import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../config.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delays before each retry; after the last one the message is given up and logged. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/**
 * Sends mail in the background so a slow or unreachable mail server never delays or fails the
 * request that caused it. Without SMTP_URL the message, with its links, goes to the log.
 */
export class Mailer {
  private readonly queue: { mail: OutgoingMail; attempt: number }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private sending = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly transport: Transporter | null,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly retryDelaysMs: number[] = RETRY_DELAYS_MS,
  ) {}

  send(mail: OutgoingMail): void {
    if (this.closed) return;
    if (!this.transport) {
      this.log.info({ to: mail.to, subject: mail.subject }, `email (no SMTP_URL set, not sent):\n${mail.text}`);
      return;
    }
    this.queue.push({ mail, attempt: 0 });
    void this.drain();
  }

  /** Resolves once nothing is queued or being sent (retries still waiting do not count). */
  idle(): Promise<void> {
    if (!this.sending && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // Give mail already in hand a moment to go out before the process exits.
    await Promise.race([this.idle(), new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
    this.transport?.close();
  }

  private async drain(): Promise<void> {
    if (this.sending || !this.transport) return;
    this.sending = true;
    try {
      for (let job = this.queue.shift(); job; job = this.queue.shift()) {
        try {
          await this.transport.sendMail({ from: this.from, ...job.mail });
          this.log.info({ to: job.mail.to, subject: job.mail.subject }, 'email sent');
        } catch (error) {
          this.retryLater(job, error);
        }
      }
    } finally {
      this.sending = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private retryLater(job: { mail: OutgoingMail; attempt: number }, error: unknown): void {
    const delay = this.retryDelaysMs[job.attempt];
    if (delay === undefined || this.closed) {
      this.log.error({ err: error, to: job.mail.to, subject: job.mail.subject }, 'email could not be sent; giving up');
      return;
    }
    this.log.warn({ err: error, to: job.mail.to, attempt: job.attempt + 1, retryInMs: delay }, 'email failed; will retry');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.queue.push({ mail: job.mail, attempt: job.attempt + 1 });
      void this.drain();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}

export function createTransport(config: AppConfig): Transporter | null {
  if (!config.smtpUrl) return null;
  return nodemailer.createTransport(config.smtpUrl, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[1]);
}

export default fp<{ retryDelaysMs?: number[] }>(
  async function mailer(app: FastifyInstance, options) {
    const instance = new Mailer(createTransport(app.config), app.config.mailFrom, app.log.child({ module: 'mailer' }), options.retryDelaysMs);
    app.decorate('mailer', instance);
    app.addHook('onClose', () => instance.close());
  },
  { name: 'mailer' },
);

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}
