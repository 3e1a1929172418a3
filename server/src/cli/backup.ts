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
import { createConnection } from 'node:net';
import { resolve } from 'node:path';
import { describeBackup, writeBackup } from '../../../db/backup.ts';
import { openDatabase } from '../../../db/client.ts';
import { configOrExit } from '../config.ts';
import { operatorSocketPath } from '../plugins/operator-channel.ts';
import type { OperatorCommand, OperatorReply } from '../services/operator-commands.ts';

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

/** Asks the server running on this data folder; null when none runs. */
function viaRunningServer(dataDir: string, command: OperatorCommand): Promise<OperatorReply | null> {
  return new Promise((done, fail) => {
    const socket = createConnection(operatorSocketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('end', () => {
      try {
        done(JSON.parse(answer) as OperatorReply);
      } catch {
        fail(new Error('the server gave an unreadable answer'));
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') && answer === '') done(null);
      else fail(error);
    });
  });
}
