import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { seedIfEmpty } from '../../db/seed/seed.ts';

export interface TestDatabase extends DatabaseHandle {
  /** The URL of the database created for this test file (PostgreSQL only). */
  url: string | null;
}

/**
 * A migrated, seeded database for one test file: embedded PGlite in memory by default, or a
 * fresh PostgreSQL database created on the server in DATABASE_URL and dropped on close.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  let url: string | null = null;
  let drop = async () => {};
  if (serverUrl) ({ url, drop } = await createPostgresDatabase(serverUrl, `lm_test_${process.pid}_${randomBytes(4).toString('hex')}`));
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 10 });
  await handle.migrate();
  if (options.seed !== false) await seedIfEmpty(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}

/** Creates the empty database `name` on the PostgreSQL server at `serverUrl`; `drop` removes it again. */
export async function createPostgresDatabase(serverUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
