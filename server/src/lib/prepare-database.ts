import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../../db/client.ts';
import { seedIfEmpty } from '../../../db/seed/seed.ts';

/** Brings the schema up to date and seeds the sample catalogue into an empty database. */
export async function prepareDatabase(database: DatabaseHandle, log: Pick<FastifyBaseLogger, 'info'>): Promise<void> {
  const started = Date.now();
  await database.migrate();
  const seeded = await database.exclusive(() => seedIfEmpty(database.db));
  log.info({ ms: Date.now() - started, seeded }, seeded ? 'database migrated and sample data seeded' : 'database migrated');
}
