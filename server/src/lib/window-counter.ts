import type { RedisClient } from './redis-connection.ts';
import type { Clock } from './clock.ts';

export interface WindowCount {
  count: number;
  /** Milliseconds until the window, and so the count, resets. */
  resetInMs: number;
}

/**
 * Counts events per key in a fixed window that starts with the first event. Shared through
 * Redis when several processes serve the app, so a limit holds whichever process is hit.
 */
export interface WindowCounter {
  increment(key: string, windowMs: number): Promise<WindowCount>;
  peek(key: string): Promise<WindowCount>;
  reset(key: string): Promise<void>;
}

export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { count: 0, resetInMs: 0 };
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

export class RedisWindowCounter implements WindowCounter {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count, resetInMs: Math.max(0, ttl) };
  }

  async peek(key: string): Promise<WindowCount> {
    const [count, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
    return count === null ? { count: 0, resetInMs: 0 } : { count: Number(count), resetInMs: Math.max(0, ttl) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * Counts in Redis, and in this process's memory while Redis cannot be reached: limits keep
 * holding per process through an outage instead of failing the requests they guard.
 */
export class FallbackWindowCounter implements WindowCounter {
  constructor(
    private readonly primary: WindowCounter,
    private readonly fallback: WindowCounter,
    private readonly onError: (error: unknown) => void,
  ) {}

  increment(key: string, windowMs: number): Promise<WindowCount> {
    return this.either((counter) => counter.increment(key, windowMs));
  }

  peek(key: string): Promise<WindowCount> {
    return this.either((counter) => counter.peek(key));
  }

  reset(key: string): Promise<void> {
    return this.either((counter) => counter.reset(key));
  }

  private async either<T>(operation: (counter: WindowCounter) => Promise<T>): Promise<T> {
    try {
      return await operation(this.primary);
    } catch (error) {
      this.onError(error);
      return operation(this.fallback);
    }
  }
}
