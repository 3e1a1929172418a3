import type { SessionTokens } from '@common/schemas/auth.ts';

/**
 * The record of the last refresh-token rotation, shared by the tabs of one browser.
 *
 * Why not just localStorage: Chromium gives each tab (renderer process) its own cached copy of
 * localStorage and syncs the copies asynchronously, in no fixed order with Web Locks. A tab that
 * gets the refresh lock right after another tab rotated the pair can still read the old, spent
 * refresh token there — and spending it again revokes the whole session. IndexedDB is served by
 * one backend: a write that completed before the lock was released is seen by the next holder.
 */

/** A session's tokens, as `POST /api/auth/refresh-token` answers them. */
export type TokenPair = SessionTokens;

export interface RotationRecord extends TokenPair {
  /** Refresh tokens of this session already exchanged (newest first), bounded. */
  spent: string[];
}

export interface RefreshJournal {
  read(): Promise<RotationRecord | null>;
  write(record: RotationRecord): Promise<void>;
  clear(): Promise<void>;
}

export const MAX_SPENT_TOKENS = 20;

/** The record after exchanging `spentToken` for `pair`; a new session starts a new chain. */
export function recordRotation(previous: RotationRecord | null, spentToken: string, pair: TokenPair): RotationRecord {
  const sameSession = previous !== null && previous.refreshToken === spentToken;
  const earlier = sameSession ? previous.spent.filter((t) => t !== spentToken) : [];
  return { ...pair, spent: [spentToken, ...earlier].slice(0, MAX_SPENT_TOKENS) };
}

/** The current pair when `refreshToken` was already exchanged by some tab, else null. */
export function rotatedPair(record: RotationRecord | null, refreshToken: string): TokenPair | null {
  if (!record || !record.spent.includes(refreshToken)) return null;
  return { accessToken: record.accessToken, refreshToken: record.refreshToken };
}

function isRotationRecord(value: unknown): value is RotationRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.accessToken === 'string' &&
    typeof v.refreshToken === 'string' &&
    Array.isArray(v.spent) &&
    v.spent.every((t) => typeof t === 'string')
  );
}

const DB_NAME = 'luxemotors';
const STORE = 'session';
const KEY = 'token-rotation';
/** Never hold the refresh lock hostage to a stuck database. */
const OPERATION_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('IndexedDB timed out')), OPERATION_TIMEOUT_MS);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

function indexedDbJournal(factory: IDBFactory): RefreshJournal {
  let db: Promise<IDBDatabase> | null = null;
  const open = () =>
    (db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('IndexedDB blocked'));
    }).catch((error: unknown) => {
      db = null; // try again next time
      throw error;
    }));

  /** Runs one request in its own transaction and resolves once the transaction has committed. */
  const run = <T>(mode: IDBTransactionMode, make: (store: IDBObjectStore) => IDBRequest<T>) =>
    withTimeout(
      open().then(
        (database) =>
          new Promise<T>((resolve, reject) => {
            const tx = database.transaction(STORE, mode);
            const request = make(tx.objectStore(STORE));
            tx.oncomplete = () => resolve(request.result);
            tx.onerror = () => reject(tx.error);
            tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
          }),
      ),
    );

  return {
    async read() {
      const value: unknown = await run('readonly', (store) => store.get(KEY));
      return isRotationRecord(value) ? value : null;
    },
    async write(record) {
      await run('readwrite', (store) => store.put(record, KEY));
    },
    async clear() {
      await run('readwrite', (store) => store.delete(KEY));
    },
  };
}

let journal: RefreshJournal | null | undefined;

/** The browser's journal, or null where IndexedDB is unavailable (then localStorage alone is used). */
export function refreshJournal(): RefreshJournal | null {
  if (journal === undefined) {
    let factory: IDBFactory | undefined;
    try {
      factory = typeof indexedDB !== 'undefined' ? indexedDB : undefined;
    } catch {
      factory = undefined; // access can throw in sandboxed frames
    }
    journal = factory ? indexedDbJournal(factory) : null;
  }
  return journal;
}

/** Tests substitute an in-memory journal (or none). */
export function setRefreshJournal(next: RefreshJournal | null | undefined): void {
  journal = next;
}
