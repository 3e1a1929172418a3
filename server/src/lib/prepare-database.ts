import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../../db/client.ts';
import { DEMO_SELLER_PASSWORD, SAMPLE_SELLER_EMAILS, seedIfEmpty, type SeedDocumentStorage } from '../../../db/seed/seed.ts';
import { hashPassword } from './passwords.ts';

/**
 * Brings the schema up to date and seeds the sample catalogue into an empty database. Only the
 * embedded (local) database gives the sample sellers a known password, so someone trying the
 * app can sign in as a seller; a shared PostgreSQL never gets one. The sample service invoices
 * go to `documents`, the app's document storage.
 */
export async function prepareDatabase(database: DatabaseHandle, log: Pick<FastifyBaseLogger, 'info'>, documents?: SeedDocumentStorage): Promise<void> {
  const started = Date.now();
  await database.migrate();
  const local = database.driver === 'pglite';
  const seeded = await database.exclusive((db) => seedIfEmpty(db, { sellerPassword: local ? DEMO_SELLER_PASSWORD : null, hashPassword, ...(documents ? { documents } : {}) }));
  log.info({ ms: Date.now() - started, seeded }, seeded ? 'database migrated and sample data seeded' : 'database migrated');
  if (seeded && local) {
    log.info(`sample seller accounts (local only): ${SAMPLE_SELLER_EMAILS.join(', ')} with password ${DEMO_SELLER_PASSWORD}`);
  }
}
