/**
 * For `npm run restore`: creates the job queue's schema (pg-boss installs its own tables when it
 * starts, as the server's job runner does), so the backup's pending jobs can be loaded into it.
 */
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { rowsOf, type DatabaseHandle } from '../../../db/client.ts';

/** Installs pg-boss's schema (nothing runs: no workers, no schedules); answers its version. */
export async function installJobSchema(handle: DatabaseHandle): Promise<number> {
  const boss = new PgBoss({ db: handle.sql, supervise: false, schedule: false });
  boss.on('error', () => {});
  await handle.exclusive(async () => {
    await boss.start();
  });
  await boss.stop({ graceful: false, wait: true, close: false });
  const [row] = rowsOf(await handle.db.execute(sql`select version from pgboss.version limit 1`));
  return Number(row!.version);
}
