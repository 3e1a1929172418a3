import { once } from 'node:events';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import * as schema from './schema/index.ts';
import { fromProjectRoot } from './project-root.ts';
import type { EngineMessage, EngineOptions } from './embedded-engine.ts';

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
  const client = postgres(url, { ...CONNECTION_OPTIONS, max: poolSize });
  return handleFor(client, 'postgres', {
    // Statements handed to a connection run there, in parallel with the other connections'.
    queueMs: (pending) => pending.oldestWaitingMs(),
    exclusive: async (work, db) => {
      // A session-level advisory lock belongs to one connection. It is held on a connection of
      // its own, outside the pool, so the work can never wait for the slot the lock occupies.
      const lockHolder = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'luxemotors-lock' } });
      try {
        await lockHolder`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        return await work(db);
      } finally {
        await lockHolder.end({ timeout: 5 });
      }
    },
    afterClose: async () => {},
  });
}

/** What every connection to a database of this app is opened with, embedded or not. */
const CONNECTION_OPTIONS = {
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
} satisfies postgres.Options<Record<string, never>>;

/**
 * The embedded engine runs in a worker thread (db/embedded-engine.ts) and serves the wire
 * protocol on a Unix socket, so this process reaches it through the same driver as PostgreSQL,
 * and a burst of statements occupies that thread instead of the event loop.
 */
async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  let releaseLock = () => {};
  let location = dataDir;
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataFolder(dataDir);
    location = join(dataDir, 'pglite');
  }
  // A folder of its own, readable by this user only: the socket is the database, without a password.
  const socketFolder = mkdtempSync(join(tmpdir(), 'luxemotors-db-'));
  const socketPath = join(socketFolder, '.s.PGSQL.5432');
  let engine: Worker;
  try {
    engine = await startEngine({ location, socketPath, settings: SESSION_SETTINGS });
  } catch (error) {
    rmSync(socketFolder, { recursive: true, force: true });
    releaseLock();
    throw error;
  }
  let closing = false;
  // Made now, so a close after the thread has already ended does not wait for an exit to come.
  const exited = once(engine, 'exit');
  engine.on('exit', (code) => {
    if (!closing) console.error(`The embedded database's thread ended (exit code ${code}); every statement fails until the server is restarted.`);
  });
  const client = postgres({
    ...CONNECTION_OPTIONS,
    path: socketPath,
    username: 'postgres',
    database: 'postgres',
    // The engine is one session: one connection, whose statements the engine answers in order.
    max: 1,
  });
  return handleFor(client, 'pglite', {
    queueMs: (pending) => Math.max(pending.oldestWaitingMs(), pending.oldestQueuedBehindAnotherMs()),
    // One process owns the folder (see lockDataFolder) and the engine runs one statement at a time.
    exclusive: (work, db) => work(db),
    afterClose: async () => {
      closing = true;
      try {
        engine.postMessage({ type: 'close' });
        await exited;
      } finally {
        rmSync(socketFolder, { recursive: true, force: true });
        releaseLock();
      }
    },
  });
}

function newEngineThread(options: EngineOptions): Worker {
  const workerData = { luxemotorsEngine: options };
  // In the compiled server (server/dist) this code is part of a bundle, and so is the engine.
  if (!import.meta.url.endsWith('.ts')) return new Worker(fromProjectRoot('server/dist/embedded-engine.mjs'), { workerData });
  // Run from the TypeScript sources (tests, `npm run dev`): the thread registers the same loader
  // first (a worker's --import is not honoured on Node 20).
  const source = new URL('./embedded-engine.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

async function startEngine(options: EngineOptions): Promise<Worker> {
  const engine = newEngineThread(options);
  // Without a listener an error in the thread would end this process. The thread then exits, its
  // socket closes, and statements fail as with a PostgreSQL server gone.
  engine.on('error', (error) => {
    console.error(`The embedded database stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  });
  try {
    const message = await Promise.race([
      once(engine, 'message').then(([first]) => first as EngineMessage),
      once(engine, 'exit').then(([code]) => ({ type: 'failed', message: `the engine's thread exited (${String(code)})` }) as EngineMessage),
    ]);
    if (message.type === 'failed') throw new Error(`The embedded database could not start: ${message.message}`);
    return engine;
  } catch (error) {
    await engine.terminate();
    throw error;
  }
}

interface DriverSpecifics {
  queueMs: (pending: PendingStatements) => number;
  exclusive: <T>(work: (db: Database) => Promise<T>, db: Database) => Promise<T>;
  /** After the client's connections are closed. */
  afterClose: () => Promise<void>;
}

function handleFor(rawClient: PostgresClient, driver: DatabaseHandle['driver'], specifics: DriverSpecifics): DatabaseHandle {
  const pending = new PendingStatements();
  const client = trackedPostgres(rawClient, pending);
  const db = drizzlePostgres(client, { schema, casing: 'snake_case' }) as unknown as Database;
  const exclusive = <T>(work: (db: Database) => Promise<T>) => specifics.exclusive(work, db);

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

  let closed = false;
  return {
    db,
    driver,
    sql: sqlRunner,
    exclusive,
    migrate: () => exclusive(() => migratePostgres(drizzlePostgres(client, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER })),
    ping: async () => {
      await client.unsafe('select 1');
    },
    queueMs: () => specifics.queueMs(pending),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await rawClient.end({ timeout: 5 });
      } finally {
        pending.clear();
        await specifics.afterClose();
      }
    },
  };
}

/**
 * Statements not yet answered, oldest first (a Map keeps insertion order): those still waiting
 * for a connection, and those handed to one and not yet answered.
 */
class PendingStatements {
  #next = 0;
  readonly #waiting = new Map<number, number>();
  readonly #handedOver = new Map<number, number>();

  start(): { handedOver(): void; done(): void } {
    const id = this.#next++;
    this.#waiting.set(id, performance.now());
    return {
      handedOver: () => {
        if (this.#waiting.delete(id)) this.#handedOver.set(id, performance.now());
      },
      done: () => {
        this.#waiting.delete(id);
        this.#handedOver.delete(id);
      },
    };
  }

  /** The database is closed: what was still waiting will never be answered. */
  clear(): void {
    this.#waiting.clear();
    this.#handedOver.clear();
  }

  /** How long the oldest statement still waiting for a connection has waited. */
  oldestWaitingMs(): number {
    const oldest = this.#waiting.values().next();
    return oldest.done ? 0 : Math.max(0, performance.now() - oldest.value);
  }

  /**
   * On a connection that pipelines to an engine running one statement at a time, in order: the
   * oldest statement handed over is running, the next has been waiting its turn since it was
   * handed over.
   */
  oldestQueuedBehindAnotherMs(): number {
    const handedOver = this.#handedOver.values();
    handedOver.next();
    const second = handedOver.next();
    return second.done ? 0 : Math.max(0, performance.now() - second.value);
  }
}

type PostgresClient = ReturnType<typeof postgres>;
type PendingQuery = { state: unknown; resolve: (value: unknown) => unknown; reject: (error: unknown) => unknown };

/**
 * The pool's client with its statements tracked: each from its call until the pool hands it to a
 * connection (postgres.js then sets its `state`), and from then until it settles; a transaction
 * or a reserved connection until it has its connection. drizzle sees the same client otherwise.
 */
function trackedPostgres(client: PostgresClient, pending: PendingStatements): PostgresClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (...args: unknown[]) => {
          const query = (target.unsafe as unknown as (...a: unknown[]) => PendingQuery)(...args);
          // Not awaited here: that would start the query before drizzle picks its row format.
          const { handedOver, done } = pending.start();
          let state = query.state;
          Object.defineProperty(query, 'state', {
            configurable: true,
            enumerable: true,
            get: () => state,
            set: (value: unknown) => {
              state = value;
              handedOver();
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
          const { done } = pending.start();
          const begun = (target.begin as unknown as (...a: unknown[]) => Promise<unknown>)(...args, (sql: postgres.TransactionSql) => {
            done();
            return work(sql);
          });
          return Promise.resolve(begun).finally(done);
        };
      }
      if (property === 'reserve') {
        return () => {
          const { done } = pending.start();
          return target.reserve().finally(done);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' && property !== 'constructor' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

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

/** The rows of a statement's answer: postgres.js answers an array (both databases go through it). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return [...(result as Record<string, unknown>[])];
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
