import { afterAll } from 'vitest';
import { PrivatePostgres, privatePostgresAvailable } from './helpers/private-postgres.ts';

/**
 * Redis stopped and started again under one process and under two processes sharing it. The
 * scenarios are tests/faults/redis-outage.test.ts, which `npm test` runs too: there the one-process case
 * runs on every pass and the two-process case only when DATABASE_URL is set (CI's PostgreSQL
 * pass). Here both always run, on a PostgreSQL cluster of this run's own, and print their figures.
 */
const pg = privatePostgresAvailable() ? await PrivatePostgres.start() : null;
if (pg) process.env.DATABASE_URL = pg.url;
else console.log('[fault:redis-outage] no initdb/pg_ctl here: the two-process case needs DATABASE_URL to run.');

afterAll(async () => {
  await pg?.destroy();
});

// Imported once DATABASE_URL is set: the scenarios decide at load time what they can run.
await import('../redis-outage.test.ts');
