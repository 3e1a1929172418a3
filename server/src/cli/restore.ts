/**
 * `npm run restore -- <file>`: restores a backup (db/backup.ts) into the database DATABASE_URL
 * names, or the embedded one in DATA_DIR, which must be EMPTY: a new PostgreSQL database
 * (createdb) or a new data folder, with no server started on it yet. A backup from an older
 * schema is loaded at its own level and then migrated forward; one from a newer schema is refused.
 *
 * Exits 0 with a summary, 1 when refused or failed (the reason on stderr), 2 on bad arguments.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupRefused, restoreBackup } from '../../../db/backup.ts';
import { openDatabase } from '../../../db/client.ts';
import { configOrExit } from '../config.ts';
import { isServed, operatorSocketPath } from '../plugins/operator-channel.ts';
import { installJobSchema } from './job-schema.ts';

const USAGE = 'Usage: npm run restore -- <file>   (into an empty database: set DATABASE_URL or DATA_DIR to a new one)';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
const file = resolve(args[0]!);
if (!existsSync(file)) {
  console.error(`There is no file ${file}`);
  process.exit(2);
}
const config = configOrExit();

try {
  if (!config.databaseUrl && (await isServed(operatorSocketPath(config.dataDir)))) {
    throw new BackupRefused(`A server is running on ${config.dataDir}: its database is not empty. Restore into a new DATA_DIR, then start the server on it.`);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const summary = await restoreBackup(database, file, { installJobSchema });
    const { header } = summary;
    const lines = [
      `Restored ${file} (snapshot of ${header.createdAt}, schema at ${header.migration.tag}) into ${config.databaseUrl ? 'the PostgreSQL database' : `the embedded database in ${config.dataDir}`}:`,
      `  ${header.tables.length} tables, ${summary.rows} rows, ${summary.jobs} pending jobs, ${header.sequences.length} sequences set, in ${summary.milliseconds} ms.`,
    ];
    if (summary.migratedForward > 0) lines.push(`  Then migrated forward by ${summary.migratedForward} migration(s) to this code's schema.`);
    if (summary.jobsSkipped) lines.push(`  ${summary.jobsSkipped.count} pending jobs NOT restored: ${summary.jobsSkipped.reason}.`);
    lines.push('  Check it with `npm run audit:verify`, then start the server.');
    console.log(lines.join('\n'));
  } finally {
    await database.close();
  }
  process.exit(0);
} catch (error) {
  console.error(error instanceof BackupRefused ? `Refused: ${error.message}` : `The restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
