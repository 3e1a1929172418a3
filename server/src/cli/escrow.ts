/**
 * The escrow operator's command: `npm run escrow -- show <orderId>` prints an order's timeline;
 * `npm run escrow -- resolve <orderId> refund|release --note "..."` decides a dispute.
 *
 * A running server on this data folder takes the command over its operator socket; without one
 * the command opens the database itself and runs the same order service.
 */
import { createConnection } from 'node:net';
import pino from 'pino';
import { openDatabase } from '../../../db/client.ts';
// From config.ts, not server.ts: the command then loads no web server, routes or sockets.
import { configOrExit } from '../config.ts';
import { EventBus } from '../lib/events.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { Mailer, createTransport } from '../services/mailer.ts';
import { operatorSocketPath } from '../plugins/operator-channel.ts';
import { formatTimeline, parseOperatorCommand, runOperatorCommand, type OperatorCommand, type OperatorReply } from '../services/orders/operator-commands.ts';
import { createOrdersService } from '../services/orders/orders-service.ts';

const parsed = parseOperatorCommand(process.argv.slice(2));
if ('error' in parsed) {
  console.error(parsed.error);
  process.exit(2);
}
const config = configOrExit();
const reply = (await viaRunningServer(parsed)) ?? (await directly(parsed));
if (!reply.ok) {
  console.error(`${reply.error} (${reply.code})`);
  process.exit(1);
}
console.log(formatTimeline(reply.order));
if (parsed.command === 'resolve') console.log(`\nResolved: ${parsed.decision}. Both parties have been notified.`);
process.exit(0);

/** Sends the command to the server running on this data folder; null when none is running. */
function viaRunningServer(command: OperatorCommand): Promise<OperatorReply | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(operatorSocketPath(config.dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('end', () => {
      try {
        resolve(JSON.parse(answer) as OperatorReply);
      } catch {
        reject(new Error('The server gave an unreadable answer'));
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED'].includes(error.code ?? '') && answer === '') resolve(null);
      else reject(error);
    });
  });
}

/** Runs the command in this process. Jobs it queues (the payout or refund) run in the server. */
async function directly(command: OperatorCommand): Promise<OperatorReply> {
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await database.migrate();
    const jobs = new JobRunner(database, { log, pollSeconds: config.jobs.pollSeconds, runWorkers: false });
    const orders = createOrdersService({
      db: database.db,
      jobs,
      mailer: new Mailer(jobs, database.db, await createTransport(config), config.mailFrom, log),
      events: new EventBus(),
      log,
      escrowDaySeconds: config.escrow.daySeconds,
      appUrl: config.appUrl,
    });
    await jobs.start();
    try {
      return await runOperatorCommand(orders, command);
    } finally {
      await jobs.stop();
    }
  } finally {
    await database.close();
  }
}
