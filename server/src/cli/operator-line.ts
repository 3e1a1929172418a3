/**
 * How the operator commands reach the data: a running server on this data folder takes them over
 * its operator socket (the embedded database belongs to its process then); without one the
 * command opens the database itself and runs the same services. Prints the answer and exits:
 * 0 done, 1 refused (the reason on stderr), 2 bad arguments.
 */
import pino from 'pino';
import { openDatabase } from '../../../db/client.ts';
// From config.ts, not server.ts: the command then loads no web server, routes or sockets.
import { configOrExit } from '../config.ts';
import { systemClock } from '../lib/clock.ts';
import { EventBus } from '../lib/events.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { Mailer, createTransport } from '../services/mailer.ts';
import { viaRunningServer } from './operator-socket.ts';
import { AccountsAdmin } from '../services/back-office/accounts.ts';
import { runOperatorCommand, type OperatorCommand, type OperatorReply } from '../services/operator-commands.ts';
import { createOrdersService } from '../services/orders/orders-service.ts';

export async function runCommandLine(parsed: OperatorCommand | { error: string }): Promise<never> {
  if ('error' in parsed) {
    console.error(parsed.error);
    process.exit(2);
  }
  const config = configOrExit();
  const reply = (await viaRunningServer(config.dataDir, parsed)) ?? (await directly(config, parsed));
  if (!reply.ok) {
    console.error(`${reply.error} (${reply.code})`);
    process.exit(1);
  }
  console.log(reply.text);
  process.exit(0);
}

/** Runs the command in this process. Jobs it queues (a payout or refund) run in the server. */
async function directly(config: ReturnType<typeof configOrExit>, command: OperatorCommand): Promise<OperatorReply> {
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await database.migrate();
    const jobs = new JobRunner(database, { log, pollSeconds: config.jobs.pollSeconds, runWorkers: false });
    const events = new EventBus();
    const orders = createOrdersService({
      db: database.db,
      jobs,
      mailer: new Mailer(jobs, database.db, await createTransport(config), config.mailFrom, log),
      events,
      log,
      escrowDaySeconds: config.escrow.daySeconds,
      appUrl: config.appUrl,
    });
    await jobs.start();
    try {
      return await runOperatorCommand({ db: database.db, orders, accounts: new AccountsAdmin(database.db, events, systemClock) }, command);
    } finally {
      await jobs.stop();
    }
  } finally {
    await database.close();
  }
}
