import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import * as schema from './schema/index.ts';
import { fromProjectRoot } from './project-root.ts';

export type Schema = typeof schema;
/** One drizzle handle type for both drivers; code above this layer never knows which it has. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

/** Read at run time (not bundled): from the project root, so the compiled server finds it too. */
export const MIGRATIONS_FOLDER = fromProjectRoot('db/migrations');

/**
 * Runs SQL text a library brings with it (the job queue), with `$n` parameters, answering
 * `{ rows }` like node-postgres. Objects are sent as JSON text, as node-postgres would send them.
 */
export interface SqlRunner {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle {
  db: Database;
  driver: 'postgres' | 'pglite';
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding a database-wide lock, so only one process seeds or migrates at a
   * time.
   */
  exclusive<T>(work: (db: Database) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * How long, in ms, the oldest statement still waiting for the database has waited (0 when
   * none waits): for a pooled connection on PostgreSQL, for its turn at the embedded engine.
   * Time executing, and lock waits inside a transaction, do not count. The measure of how far the
   * database has fallen behind, read without touching the database.
   */
  queueMs(): number;
  close(): Promise<void>;
  /**
   * Outside any transaction: several statements at once are allowed when there are no
   * parameters, including a `BEGIN; ...; COMMIT;` block, which runs on one connection.
   */
  sql: SqlRunner;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; without it the embedded database is used. */
  databaseUrl: string | null;
  /** Folder for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
}

/**
 * Set on every connection. Search forgives typos through pg_trgm's `<%` operator; its default
 * threshold (0.6) misses common slips such as "porshe" for "porsche".
 */
const SESSION_SETTINGS = { 'pg_trgm.word_similarity_threshold': '0.5' } as const;

// An arbitrary constant shared by every process of this app.
const MIGRATION_LOCK_ID = 7_341_002;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : openPglite(options.dataDir);
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pending = new PendingStatements();
  const rawClient = postgres(url, {
    max: poolSize,
    // An unreachable database must fail a request quickly (a 503), never hold it.
    connect_timeout: 2,
    // After a failed connection attempt postgres.js waits before the next, up to 20 s with its
    // default backoff, and queries queued meanwhile wait with it: with PostgreSQL stopped, most
    // requests hung for seconds instead of answering 503. A connection is only retried for a
    // waiting query (never on its own), so retrying at once fails each request fast while the
    // database is away and serves it as soon as the database is back.
    backoff: () => 0,
    onnotice: () => {},
    connection: { application_name: 'luxemotors', ...SESSION_SETTINGS },
  });
  const client = trackedPostgres(rawClient, pending);
  const db = drizzlePostgres(client, { schema, casing: 'snake_case' }) as unknown as Database;

  const exclusive = async <T>(work: (db: Database) => Promise<T>): Promise<T> => {
    // A session-level advisory lock belongs to one connection. It is held on a connection of its
    // own, outside the pool, so the work can never wait for the slot the lock occupies.
    const lockHolder = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'luxemotors-lock' } });
    try {
      await lockHolder`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
      return await work(db);
    } finally {
      await lockHolder.end({ timeout: 5 });
    }
  };

  const sqlRunner: SqlRunner = {
    async executeSql(text, values = []) {
      if (/^\s*BEGIN\b/i.test(text)) {
        // postgres.js allows transaction statements only on a connection of one's own.
        const connection = await client.reserve();
        try {
          return { rows: rowsOf(await connection.unsafe(text)) };
        } catch (error) {
          await connection.unsafe('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          connection.release();
        }
      }
      return { rows: rowsOf(await client.unsafe(text, values.map(toDriverValue) as never[])) };
    },
  };

  return {
    db,
    driver: 'postgres',
    sql: sqlRunner,
    exclusive,
    migrate: () => exclusive(() => migratePostgres(drizzlePostgres(client, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER })),
    ping: async () => {
      await client.unsafe('select 1');
    },
    queueMs: () => pending.oldestAgeMs(),
    close: async () => {
      await rawClient.end({ timeout: 5 });
      pending.clear();
    },
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  // Loaded only when used, so servers on PostgreSQL never pay for the embedded engine.
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const inMemory = dataDir.startsWith('memory://');
  let releaseLock = () => {};
  let location = dataDir;
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataFolder(dataDir);
    location = join(dataDir, 'pglite');
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(location, { extensions: { pg_trgm } });
  } catch (error) {
    releaseLock();
    throw error;
  }
  for (const [name, value] of Object.entries(SESSION_SETTINGS)) {
    await pglite.query('select set_config($1, $2, false)', [name, value]);
  }
  const pending = new PendingStatements();
  trackPglite(pglite, pending);
  const db = drizzlePglite(pglite, { schema, casing: 'snake_case' }) as unknown as Database;
  let closed = false;
  const sqlRunner: SqlRunner = {
    async executeSql(text, values = []) {
      if (values.length > 0) return { rows: (await pglite.query<Record<string, unknown>>(text, values.map(toDriverValue))).rows };
      try {
        const results = await pglite.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      } catch (error) {
        // A failed `BEGIN; ...` block would leave the one connection inside an aborted transaction.
        if (/^\s*BEGIN\b/i.test(text)) await pglite.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    },
  };
  return {
    db,
    driver: 'pglite',
    sql: sqlRunner,
    // One process owns the folder (see lockDataFolder) and PGlite runs one query at a time.
    exclusive: (work) => work(db),
    migrate: () => migratePglite(drizzlePglite(pglite, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    queueMs: () => pending.oldestAgeMs(),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await pglite.close();
      } finally {
        pending.clear();
        releaseLock();
      }
    },
  };
}

/** Statements sent and not yet answered, oldest first (a Map keeps insertion order). */
class PendingStatements {
  #next = 0;
  readonly #since = new Map<number, number>();

  start(): () => void {
    const id = this.#next++;
    this.#since.set(id, performance.now());
    return () => void this.#since.delete(id);
  }

  /** The database is closed: what was still waiting will never be answered. */
  clear(): void {
    this.#since.clear();
  }

  oldestAgeMs(): number {
    const oldest = this.#since.values().next();
    return oldest.done ? 0 : Math.max(0, performance.now() - oldest.value);
  }
}

type PostgresClient = ReturnType<typeof postgres>;
type PendingQuery = { state: unknown; resolve: (value: unknown) => unknown; reject: (error: unknown) => unknown };

/**
 * The pool's client with the wait for a connection counted: a statement from its call until
 * the pool hands it to a connection (postgres.js then sets its `state`), or until it settles
 * without one; a transaction or a reserved connection until it has its connection. Time spent
 * executing, and lock waits inside a transaction, are the statement's own work, not the queue.
 * drizzle sees the same client otherwise.
 */
function trackedPostgres(client: PostgresClient, pending: PendingStatements): PostgresClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (...args: unknown[]) => {
          const query = (target.unsafe as unknown as (...a: unknown[]) => PendingQuery)(...args);
          // Not awaited here: that would start the query before drizzle picks its row format.
          const done = pending.start();
          let state = query.state;
          Object.defineProperty(query, 'state', {
            configurable: true,
            enumerable: true,
            get: () => state,
            set: (value: unknown) => {
              state = value;
              done();
            },
          });
          const { resolve, reject } = query;
          query.resolve = (value) => (done(), resolve(value));
          query.reject = (error) => (done(), reject(error));
          return query;
        };
      }
      if (property === 'begin') {
        return (...args: unknown[]) => {
          const work = args.pop() as (sql: postgres.TransactionSql) => unknown;
          const done = pending.start();
          const begun = (target.begin as unknown as (...a: unknown[]) => Promise<unknown>)(...args, (sql: postgres.TransactionSql) => {
            done();
            return work(sql);
          });
          return Promise.resolve(begun).finally(done);
        };
      }
      if (property === 'reserve') {
        return () => {
          const done = pending.start();
          return target.reserve().finally(done);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' && property !== 'constructor' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * PGlite runs one statement at a time: every call (a statement, a script, a transaction) waits
 * for its turn at the engine, in the order of the calls. A call is pending from the call until
 * the engine takes it up, not while it runs.
 *
 * The engine runs on this thread, and a queue of calls would otherwise be answered in one
 * stretch of microtasks: no request read, no timer, no push until the whole queue is done (a
 * burst of writes froze the process for seconds). Each call first lets the event loop turn once,
 * so requests are read (and refused while the queue is old) and pushes go out between statements.
 */
function trackPglite(pglite: PGlite, pending: PendingStatements): void {
  // The calls waiting for their turn, in order: the engine takes them up in the same order.
  const waiting: (() => void)[] = [];
  const exclusive = pglite._runExclusiveTransaction.bind(pglite) as <T>(work: () => Promise<T>) => Promise<T>;
  (pglite as unknown as { _runExclusiveTransaction: typeof exclusive })._runExclusiveTransaction = (work) =>
    exclusive(() => {
      waiting.shift()?.();
      return work();
    });
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const original = (pglite[method] as (...a: unknown[]) => Promise<unknown>).bind(pglite);
    (pglite as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const done = pending.start();
      try {
        await turnOfTheEventLoop();
        // A closed engine may never answer a call made after it closed.
        if (pglite.closed) throw new Error('PGlite is closed');
        waiting.push(done);
        return await original(...args);
      } finally {
        done();
      }
    };
  }
}

const turnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite corrupts a data folder opened by two processes at once, so the folder is claimed with
 * a lock file holding the owner's pid. A lock left by a process that no longer runs is taken over.
 */
function lockDataFolder(dataDir: string): () => void {
  const lockFile = join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database folder ${dataDir}`);
}

/** Whether process `pid` is alive (a lock's owner), whoever runs it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A `SqlRunner` inside a drizzle transaction (or on the pool), so a library's statement commits or
 * rolls back with the caller's own writes. One statement per call.
 */
export function sqlRunnerFor(executor: Executor): SqlRunner {
  return {
    async executeSql(text, values = []) {
      // drizzle numbers parameters itself: rebuild the statement from text and values.
      const parts = text.split(/\$(\d+)/);
      const chunks = parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${toDriverValue(values[Number(part) - 1])}`));
      return { rows: rowsOf(await executor.execute(sql.join(chunks))) };
    },
  };
}

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return [...(result as Record<string, unknown>[])];
  return ((result as { rows?: Record<string, unknown>[] } | null)?.rows ?? []) as Record<string, unknown>[];
}

function toDriverValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || value instanceof Date || Array.isArray(value) || value instanceof Uint8Array) return value;
  return JSON.stringify(value);
}

/** The database's clock right now (not the transaction's start): the one clock every process agrees on. */
export async function databaseNow(executor: Executor): Promise<Date> {
  const [row] = rowsOf(await executor.execute(sql`select clock_timestamp() as now`));
  return new Date(row!.now as string | Date);
}
