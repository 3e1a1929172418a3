import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { idempotencyKeys } from '../../../db/schema/index.ts';
import { AppError } from '../lib/errors.ts';
import { ErrorCode } from '@common/error-codes.ts';

/** A request sent with an `Idempotency-Key`: who sent it, the key, and what was asked. */
export interface IdempotencyClaim {
  userId: number;
  key: string;
  /** Hash of method, path and body: the same key with a different request is refused. */
  fingerprint: string;
}

/** Keys are kept at least this long (the contract promises 24 hours). */
export const IDEMPOTENCY_KEY_RETENTION_HOURS = 48;

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`).digest('base64url');
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Thrown inside the transaction when the key turned out to be taken; rolls the write back. */
class KeyTaken extends Error {}

/** What a write does with its key inside its own transaction. */
export interface KeyInTransaction {
  /** First statement of the write: takes the key (a concurrent request with it waits here). */
  take(tx: Executor): Promise<void>;
  /** Last statement: stores the answer that repeats of this request get. */
  record(tx: Executor, data: unknown): Promise<void>;
}

const NO_KEY: KeyInTransaction = { take: async () => {}, record: async () => {} };

/**
 * `Idempotency-Key` for writes: the key and the first answer are stored in the same transaction
 * as the write itself, so a write happens at most once per key whatever crashes or races, and
 * a repeat gets the first answer. A key reused for a different request is a 422.
 */
export class IdempotencyKeys {
  constructor(private readonly db: Database) {}

  /** Runs `write` once per key. `write` calls `key.take(tx)` first and `key.record(tx, data)` last. */
  async once<T>(claim: IdempotencyClaim | undefined, write: (key: KeyInTransaction) => Promise<T>): Promise<T> {
    if (!claim) return write(NO_KEY);
    // No lookup first: a key is new far more often than repeated, and a repeat is caught by
    // `take` (the write's first statement), which rolls it back before anything else runs.
    try {
      return await write(this.inTransaction(claim));
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      const first = await this.find(claim);
      if (first === undefined) throw new AppError(ErrorCode.IDEMPOTENCY_KEY_IN_USE);
      return first as T;
    }
  }

  /** Forgets keys past their retention. */
  async prune(): Promise<number> {
    const removed = await this.db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_KEY_RETENTION_HOURS})`))
      .returning({ key: idempotencyKeys.key });
    return removed.length;
  }

  private inTransaction(claim: IdempotencyClaim): KeyInTransaction {
    return {
      take: async (tx) => {
        const [taken] = await tx
          .insert(idempotencyKeys)
          .values({ userId: claim.userId, key: claim.key, fingerprint: claim.fingerprint, body: null })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (!taken) throw new KeyTaken();
      },
      record: async (tx, data) => {
        await tx
          .update(idempotencyKeys)
          .set({ body: data ?? {} })
          .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)));
      },
    };
  }

  /** The first answer given for this key, or undefined when it is unused. */
  private async find(claim: IdempotencyClaim): Promise<unknown> {
    const [row] = await this.db
      .select({ fingerprint: idempotencyKeys.fingerprint, body: idempotencyKeys.body })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)));
    if (!row || row.body === null) return undefined;
    if (row.fingerprint !== claim.fingerprint) {
      throw new AppError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
    }
    return row.body;
  }
}
