import type { FastifyBaseLogger } from 'fastify';

/**
 * Logs a dependency's failures when they start, then at most once a minute with how many were
 * left out, and once when it answers again: a Redis outage retried every second must not
 * bury everything else in the log.
 */
export class OutageLog {
  private down = false;
  private lastLoggedAt = 0;
  private unlogged = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
    private readonly everyMs = 60_000,
  ) {}

  failed(err: unknown): void {
    const now = Date.now();
    if (this.down && now - this.lastLoggedAt < this.everyMs) {
      this.unlogged += 1;
      return;
    }
    this.log.warn({ err, failuresSinceLastLog: this.unlogged }, `${this.what} unavailable`);
    this.down = true;
    this.lastLoggedAt = now;
    this.unlogged = 0;
  }

  recovered(): void {
    if (!this.down) return;
    this.log.info({ failuresSinceLastLog: this.unlogged }, `${this.what} available again`);
    this.down = false;
    this.unlogged = 0;
  }
}
