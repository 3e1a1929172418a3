import { openDatabase, type Database, type DatabaseHandle } from '../../../../db/client.ts';
import { seedIfEmpty } from '../../../../db/seed/seed.ts';

/**
 * Migrates and seeds the database a server process will use, and writes what the fault needs
 * (accounts) before the server starts: on PostgreSQL at `databaseUrl`, or the embedded database
 * in `dataDir` (which one process may hold at a time, so it is closed again before any server
 * opens it).
 */
export async function prepareServerDatabase<T>(where: { databaseUrl: string | null; dataDir: string }, prepare: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openServerDatabase(where);
  try {
    await handle.migrate();
    await seedIfEmpty(handle.db);
    return await prepare(handle.db);
  } finally {
    await handle.close();
  }
}

/** Opens the server's database from the test (the embedded one only while no server holds it). */
export function openServerDatabase(where: { databaseUrl: string | null; dataDir: string }): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: where.databaseUrl, dataDir: where.dataDir, poolSize: 2 });
}
