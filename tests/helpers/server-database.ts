import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database, type DatabaseHandle } from '../../db/client.ts';
import { seedIfEmpty } from '../../db/seed/seed.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword } from '../../server/src/lib/passwords.ts';
import { copyMigratedEmbeddedDatabase, createTestDatabase } from './database.ts';
import { TEST_PASSWORD } from './users.ts';

/**
 * Databases for tests that run the server in processes of their own. The embedded database has
 * one owner at a time, so anything a test needs in it is written before a server starts, and it
 * is read again only after the servers have stopped.
 */

export interface Account {
  id: number;
  email: string;
  name: string;
}

export interface ServerDatabase<T> {
  /** DATABASE_URL for the servers ('' for the embedded database in the test's DATA_DIR). */
  url: string;
  prepared: T;
  /** Opens the database again (the embedded one only once no server holds it). */
  reopen(): Promise<Pick<DatabaseHandle, 'db' | 'close'>>;
  /** Drops the PostgreSQL database at the end. */
  drop(): Promise<void>;
}

/** A migrated, seeded database for servers on `dataDir`, prepared by `prepare` before any starts. */
export async function serverDatabase<T>(dataDir: string, prepare: (db: Database) => Promise<T>): Promise<ServerDatabase<T>> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    return { url: database.url!, prepared: await prepare(database.db), reopen: async () => ({ db: database.db, close: async () => {} }), drop: () => database.close() };
  }
  const open = () => openDatabase({ databaseUrl: null, dataDir });
  // The migrated starting point is copied in, rather than created (initdb) and migrated here.
  if (!existsSync(join(dataDir, 'pglite'))) await copyMigratedEmbeddedDatabase(dataDir);
  const database = await open();
  await database.migrate();
  await seedIfEmpty(database.db);
  const prepared = await prepare(database.db);
  await database.close();
  return { url: '', prepared, reopen: open, drop: async () => {} };
}

/** Verified accounts with the test password, one per name. */
export async function insertAccounts(db: Database, names: string[]): Promise<Account[]> {
  const passwordHash = await hashPassword(TEST_PASSWORD);
  const stamp = `${process.pid}-${Date.now()}`;
  return db
    .insert(users)
    .values(names.map((name, i) => ({ email: `account-${i}-${stamp}@example.com`, name, passwordHash, emailVerified: true })))
    .returning({ id: users.id, email: users.email, name: users.name });
}

/** A JSON request to a server process; answers the status and the parsed body. */
export async function http<T = unknown>(base: string, token: string | null, method: string, path: string, body?: object): Promise<{ status: number; body: { data: T; code?: string; details?: Record<string, unknown> } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: T; code?: string; details?: Record<string, unknown> } };
}

/** Signs `account` in on the server at `base`; answers its access token. */
export async function signIn(base: string, account: Account): Promise<string> {
  return (await http<{ accessToken: string }>(base, null, 'POST', '/api/auth/login', { email: account.email, password: TEST_PASSWORD })).body.data.accessToken;
}
