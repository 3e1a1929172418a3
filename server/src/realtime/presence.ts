import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ViewerCounts } from '../services/cars.ts';

export interface PresenceOptions {
  /** Shares counts with the other processes; without it this process's counts are the totals. */
  redis: Redis | null;
  keyPrefix: string;
  tickMs?: number;
  /** How long a silent process's counts are still believed. */
  staleAfterMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each successful exchange through Redis. */
  onExchange?: () => void;
}

/**
 * Viewer counts per car. Each process counts its own sockets exactly; with Redis it publishes
 * its counts under its own key (expiring unless refreshed) and sums everybody's, so totals are
 * never double-counted and recover by themselves when a process dies.
 *
 * Changes are reported at most once per tick per car, whatever the churn.
 */
export class PresenceTracker implements ViewerCounts {
  readonly processId = randomUUID();
  private readonly local = new Map<number, number>();
  private remote = new Map<number, number>();
  private lastReported = new Map<number, number>();
  private lastExchangeAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private listeners: ((changes: Map<number, number>) => void)[] = [];
  private readonly tickMs: number;
  private readonly staleAfterMs: number;

  constructor(private readonly options: PresenceOptions) {
    this.tickMs = options.tickMs ?? 1_000;
    this.staleAfterMs = options.staleAfterMs ?? 5_000;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick().catch((error) => this.options.onError?.(error)), this.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const redis = this.options.redis;
    if (redis) {
      await redis.multi().del(this.processKey).zrem(this.registryKey, this.processId).exec().catch(() => {});
    }
  }

  join(carId: number): void {
    this.local.set(carId, (this.local.get(carId) ?? 0) + 1);
  }

  leave(carId: number): void {
    const next = (this.local.get(carId) ?? 0) - 1;
    if (next > 0) this.local.set(carId, next);
    else this.local.delete(carId);
  }

  countFor(carId: number): number {
    return (this.local.get(carId) ?? 0) + (this.remote.get(carId) ?? 0);
  }

  /** Cars with at least one viewer, most viewed first. */
  ranking(): { carId: number; viewers: number }[] {
    const ids = new Set([...this.local.keys(), ...this.remote.keys()]);
    return [...ids]
      .map((carId) => ({ carId, viewers: this.countFor(carId) }))
      .filter((entry) => entry.viewers > 0)
      .sort((a, b) => b.viewers - a.viewers || a.carId - b.carId);
  }

  /** Called once per tick with every car whose total changed since the last call. */
  onChange(listener: (changes: Map<number, number>) => void): void {
    this.listeners.push(listener);
  }

  /**
   * One round of sharing and reporting; normally driven by the timer, callable by tests. When
   * Redis cannot be reached this process goes on reporting its own viewers (other processes'
   * counts age out), and shares them again as soon as Redis answers.
   */
  async tick(): Promise<void> {
    const redis = this.options.redis;
    if (redis) {
      try {
        await this.exchange(redis);
        this.lastExchangeAt = Date.now();
        this.options.onExchange?.();
      } catch (error) {
        this.options.onError?.(error);
        if (Date.now() - this.lastExchangeAt > this.staleAfterMs) this.remote = new Map();
      }
    }
    const changes = new Map<number, number>();
    const ids = new Set([...this.local.keys(), ...this.remote.keys(), ...this.lastReported.keys()]);
    for (const carId of ids) {
      const total = this.countFor(carId);
      if ((this.lastReported.get(carId) ?? 0) !== total) changes.set(carId, total);
      if (total > 0) this.lastReported.set(carId, total);
      else this.lastReported.delete(carId);
    }
    if (changes.size > 0) for (const listener of this.listeners) listener(changes);
  }

  private get processKey(): string {
    return `${this.options.keyPrefix}:presence:${this.processId}`;
  }

  private get registryKey(): string {
    return `${this.options.keyPrefix}:presence:processes`;
  }

  private async exchange(redis: Redis): Promise<void> {
    const now = Date.now();
    // The whole hash is written every time, so counts lost with a restarted Redis come back by themselves.
    const publish = redis.multi().del(this.processKey);
    if (this.local.size > 0) publish.hset(this.processKey, Object.fromEntries(this.local));
    await publish
      .pexpire(this.processKey, this.staleAfterMs)
      .zadd(this.registryKey, now, this.processId)
      .zremrangebyscore(this.registryKey, 0, now - this.staleAfterMs)
      .exec();

    const others = (await redis.zrangebyscore(this.registryKey, now - this.staleAfterMs, '+inf')).filter((id) => id !== this.processId);
    const remote = new Map<number, number>();
    if (others.length > 0) {
      const read = redis.multi();
      for (const id of others) read.hgetall(`${this.options.keyPrefix}:presence:${id}`);
      for (const [error, counts] of (await read.exec()) ?? []) {
        if (error) continue;
        for (const [carId, count] of Object.entries(counts as Record<string, string>)) {
          remote.set(Number(carId), (remote.get(Number(carId)) ?? 0) + Number(count));
        }
      }
    }
    this.remote = remote;
  }
}
