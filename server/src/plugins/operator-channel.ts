import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runOperatorCommand, type OperatorCommand } from '../services/operator-commands.ts';
import { ErrorCode } from '@common/error-codes.ts';

/** Where a running server takes operator commands: a socket only its own OS user may open. */
export const operatorSocketPath = (dataDir: string) => join(dataDir, 'operator.sock');

const MAX_COMMAND_BYTES = 16 * 1024;
// Unix socket paths longer than this cannot be bound.
const MAX_SOCKET_PATH = 100;

/**
 * The operator commands (`npm run escrow`, `npm run operator`, `npm run audit:verify`) must work while the server runs, and the embedded
 * database belongs to the server's process then. So the server takes those commands on a local
 * socket in its data folder (no HTTP endpoint exists for them) and runs them through the same
 * order service as everything else.
 */
export default fp(
  async function operatorChannel(app: FastifyInstance) {
    const path = operatorSocketPath(app.config.dataDir);
    if (path.length > MAX_SOCKET_PATH) {
      app.log.warn({ path }, 'data folder path too long for the operator socket; run operator commands with the server stopped');
      return;
    }
    const server = createServer((connection) => {
      let received = '';
      connection.setEncoding('utf8');
      connection.on('error', () => connection.destroy());
      connection.on('data', (chunk: string) => {
        received += chunk;
        if (received.length > MAX_COMMAND_BYTES) return void connection.destroy();
        const end = received.indexOf('\n');
        if (end < 0) return;
        void (async () => {
          let reply;
          try {
            reply = await runOperatorCommand({ db: app.db, orders: app.services.orders, accounts: app.services.accounts }, JSON.parse(received.slice(0, end)) as OperatorCommand);
          } catch (error) {
            app.log.error({ err: error }, 'operator command failed');
            reply = { ok: false, error: 'The command failed on the server; see its log.', code: ErrorCode.INTERNAL_ERROR };
          }
          connection.end(`${JSON.stringify(reply)}\n`);
        })();
      });
    });

    app.addHook('onReady', async () => {
      if (await isServed(path)) {
        // Another process of this deployment already takes the commands.
        return;
      }
      try {
        mkdirSync(app.config.dataDir, { recursive: true });
        rmSync(path, { force: true });
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(path, () => resolve());
        });
        chmodSync(path, 0o600);
      } catch (error) {
        // The site works without it; only the operator command then needs the server stopped.
        app.log.warn({ err: error, path }, 'could not open the operator socket');
      }
    });
    app.addHook('preClose', async () => {
      if (server.listening) await new Promise<void>((resolve) => (server as Server).close(() => resolve()));
    });
  },
  { name: 'operator-channel', dependencies: ['services'] },
);

/** True when a live process answers on the socket (a leftover file from a dead one does not). */
export function isServed(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
