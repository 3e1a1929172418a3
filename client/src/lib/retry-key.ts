import { ApiError } from './api-client.ts';
import { newIdempotencyKey } from './idempotency-key.ts';

/** True when the server answered (any status); false for a network failure, after which the request may or may not have been applied. */
export function isAnswered(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status !== 0;
}

/**
 * Sends one request at a time, each with an Idempotency-Key: sending the same request again
 * after it went unanswered reuses its key, so the server applies it at most once; after an
 * answer the next attempt gets a new key. `same` says whether two requests are the same.
 */
export class RetrySafeSender<R> {
  private held: { request: R; key: string } | null = null;
  private inFlight = false;

  constructor(private readonly same: (a: R, b: R) => boolean = Object.is) {}

  /** While a request is on its way (a double click must not send a second one). */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Sends `request` by `attempt` with its key; the attempt's result or error passes through. */
  async send<T>(request: R, attempt: (key: string) => Promise<T>): Promise<T> {
    const key = this.held && this.same(this.held.request, request) ? this.held.key : newIdempotencyKey();
    this.inFlight = true;
    try {
      const result = await attempt(key);
      this.held = null;
      return result;
    } catch (error) {
      this.held = isAnswered(error) ? null : { request, key };
      throw error;
    } finally {
      this.inFlight = false;
    }
  }
}
