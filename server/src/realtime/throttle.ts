/**
 * A token bucket per connection: bursts up to `capacity` events, then `refillPerSecond`.
 * Connections that keep pushing past the limit are reported as abusive.
 */
export class EventThrottle {
  private tokens: number;
  private updatedAt = Date.now();
  private rejected = 0;

  constructor(
    private readonly capacity = 20,
    private readonly refillPerSecond = 10,
    private readonly abusiveAfterRejections = 50,
  ) {
    this.tokens = capacity;
  }

  /** 'ok' to handle the event, 'limited' to refuse it, 'abusive' to drop the connection. */
  take(now = Date.now()): 'ok' | 'limited' | 'abusive' {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) / 1000) * this.refillPerSecond);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.rejected = Math.max(0, this.rejected - 1);
      return 'ok';
    }
    this.rejected += 1;
    return this.rejected >= this.abusiveAfterRejections ? 'abusive' : 'limited';
  }
}
