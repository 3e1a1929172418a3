/**
 * `npm run backup -- <file>`: a consistent snapshot of the database in one file (see db/backup.ts
 * for its format), taken while the server keeps serving.
 *
 * - PostgreSQL (DATABASE_URL): read here, in one repeatable-read transaction.
 * - The embedded database belongs to the server's process while it runs: the server writes the
 *   file, asked over its operator socket; with no server running, the data folder is opened here.
 *
 * Exits 0 with a summary, 1 when the backup failed (the reason on stderr), 2 on bad arguments.
 * A name ending in .gz is gzipped.
 */
import { resolve } from 'node:path';
import { describeBackup, writeBackup } from '../../../db/backup.ts';
import { openDatabase } from '../../../db/client.ts';
import { configOrExit } from '../config.ts';
import { viaRunningServer } from './operator-socket.ts';

const USAGE = 'Usage: npm run backup -- <file>   (a name ending in .gz is gzipped)';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
const file = resolve(args[0]!);
const config = configOrExit();

try {
  const reply = config.databaseUrl ? null : await viaRunningServer(config.dataDir, { command: 'backup', file });
  if (reply) {
    if (!reply.ok) {
      console.error(`${reply.error} (${reply.code})`);
      process.exit(1);
    }
    console.log(`${reply.text} (written by the running server)`);
  } else {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    try {
      console.log(describeBackup(await writeBackup(database.db, file)));
    } finally {
      await database.close();
    }
  }
  process.exit(0);
} catch (error) {
  console.error(`The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
