import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../lib/redis-connection.ts';
import type { ViewerCounts } from '../services/cars.ts';

export interface PresenceOptions {
  /** Shares counts with the other processes; without it this process's counts are the totals. */
  redis: RedisClient | null;
  keyPrefix: string;
  /** How often changed totals are reported to listeners; counts are shared through Redis twice as often. */
  tickMs?: number;
  /** How long a silent process's counts are still believed. */
  staleAfterMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each successful exchange through Redis. */
  onExchange?: () => void;
}

/** Takes the aggregator's lease, or renews it when this process holds it already. One key: works on a cluster. */
const LEASE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Viewer counts per car. Each process counts its own sockets exactly. With Redis, every
 * exchange (twice per tick), each process
 *
 * - writes its own counts to a hash of its own (expiring unless refreshed) and its heartbeat to
 *   a registry,
 * - reads one hash of totals;
 *
 * and one process, holding a short lease, also reads every live process's hash and writes the
 * totals. So the Redis commands per exchange grow with the number of processes, not with its
 * square (each process reading every other's hash), and every command names one key, so all of
 * it works on a Redis Cluster. A dead process's counts expire with its hash; a dead aggregator's
 * lease passes to another process within a few seconds.
 *
 * A process adds its own live counts to the others' (the totals less what it last wrote), so
 * its own viewers count at once and everybody else's within about two exchanges. Changes are
 * reported at most once per tick per car, whatever the churn.
 */
export class PresenceTracker implements ViewerCounts {
  readonly processId = randomUUID();
  private readonly local = new Map<number, number>();
  private remote = new Map<number, number>();
  private lastReported = new Map<number, number>();
  private lastExchangeAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private exchanges = 0;
  private exchanging = false;
  private listeners: ((changes: Map<number, number>) => void)[] = [];
  private readonly tickMs: number;
  private readonly staleAfterMs: number;

  constructor(private readonly options: PresenceOptions) {
    this.tickMs = options.tickMs ?? 1_000;
    this.staleAfterMs = options.staleAfterMs ?? 5_000;
  }

  start(): void {
    const interval = this.options.redis ? this.tickMs / 2 : this.tickMs;
    this.timer ??= setInterval(() => {
      const report = !this.options.redis || this.exchanges++ % 2 === 1;
      void this.share()
        .then(() => report && this.report())
        .catch((error) => this.options.onError?.(error));
    }, interval);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const redis = this.options.redis;
    if (redis) {
      await Promise.all([
        redis.del(this.processKey),
        redis.zrem(this.registryKey, this.processId),
        redis.eval(RELEASE_SCRIPT, 1, this.leaseKey, this.processId),
      ]).catch(() => {});
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
    await this.share();
    this.report();
  }

  private async share(): Promise<void> {
    const redis = this.options.redis;
    // A slow Redis must not pile exchanges up; before the first connection there is nothing to share.
    if (!redis || this.exchanging || (this.lastExchangeAt === 0 && redis.status !== 'ready')) return;
    this.exchanging = true;
    try {
      await this.exchange(redis);
      this.lastExchangeAt = Date.now();
      this.options.onExchange?.();
    } catch (error) {
      this.options.onError?.(error);
      if (Date.now() - this.lastExchangeAt > this.staleAfterMs) this.remote = new Map();
    } finally {
      this.exchanging = false;
    }
  }

  private report(): void {
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

  private processKeyOf(processId: string): string {
    return `${this.options.keyPrefix}:presence:p:${processId}`;
  }

  private get processKey(): string {
    return this.processKeyOf(this.processId);
  }

  private get registryKey(): string {
    return `${this.options.keyPrefix}:presence:processes`;
  }

  private get leaseKey(): string {
    return `${this.options.keyPrefix}:presence:aggregator`;
  }

  private get totalsKey(): string {
    return `${this.options.keyPrefix}:presence:totals`;
  }

  private async exchange(redis: RedisClient): Promise<void> {
    const now = Date.now();
    const written = new Map(this.local);
    // The whole hash is written every time, so counts lost with a restarted Redis come back by themselves.
    const publish = redis.multi().del(this.processKey);
    if (written.size > 0) publish.hset(this.processKey, Object.fromEntries(written));
    const [, , lease] = await Promise.all([
      publish.pexpire(this.processKey, this.staleAfterMs).exec(),
      redis.zadd(this.registryKey, now, this.processId),
      redis.eval(LEASE_SCRIPT, 1, this.leaseKey, this.processId, this.staleAfterMs / 2),
    ]);
    if (lease === 1) await this.aggregate(redis, now, written);

    const totals = await redis.hgetall(this.totalsKey);
    const remote = new Map<number, number>();
    for (const [field, value] of Object.entries(totals)) {
      const carId = Number(field);
      // The totals hold what this process wrote when they were summed; its live count replaces that.
      const others = Number(value) - (written.get(carId) ?? 0);
      if (others > 0) remote.set(carId, others);
    }
    this.remote = remote;
  }

  /** The aggregator's share: every live process's counts summed into the one hash of totals. */
  private async aggregate(redis: RedisClient, now: number, written: Map<number, number>): Promise<void> {
    await redis.zremrangebyscore(this.registryKey, 0, now - this.staleAfterMs);
    const ids = await redis.zrangebyscore(this.registryKey, now - this.staleAfterMs, '+inf');
    // One command per process, each on one key (a cluster may hold them on different shards).
    const hashes = await Promise.all(ids.map((id) => (id === this.processId ? Object.fromEntries(written) : redis.hgetall(this.processKeyOf(id)))));
    const sums = new Map<string, number>();
    for (const counts of hashes) for (const [carId, count] of Object.entries(counts)) sums.set(carId, (sums.get(carId) ?? 0) + Number(count));
    const write = redis.multi().del(this.totalsKey);
    if (sums.size > 0) write.hset(this.totalsKey, Object.fromEntries(sums));
    await write.pexpire(this.totalsKey, this.staleAfterMs).exec();
  }
}
