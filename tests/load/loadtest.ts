/**
 * `npm run loadtest`: simulates many viewers (and some bidders) against a running server and
 * reports delivery, latency and the server's own figures. Bounded in count and time, and it
 * only ever targets the given URL (default http://127.0.0.1:3000).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword } from '../../server/src/lib/passwords.ts';
import { DEFAULT_OPTIONS, formatReport, runLoadTest } from './loadtest-core.ts';

const HELP = `Usage: npm run loadtest -- [options]

  --url URL            server to load (default http://127.0.0.1:3000); loopback addresses only
  --viewers N          Socket.IO viewers to connect (default ${DEFAULT_OPTIONS.viewers}, at most 60000)
  --cars N             cars the viewers spread over, cheapest first (default ${DEFAULT_OPTIONS.cars})
  --duration S         seconds of steady state after the ramp (default ${DEFAULT_OPTIONS.durationSeconds}, at most 900)
  --ramp S             seconds over which viewers arrive (default ${DEFAULT_OPTIONS.rampSeconds})
  --bid-rate R         bids per second across all bidders (default ${DEFAULT_OPTIONS.bidRate})
  --bid-concurrency N  instead of a rate, N bidders bid back to back on the first car (bid storm)
  --chat-rate R        chat messages per second (default ${DEFAULT_OPTIONS.chatRate})
  --bidders N          verified accounts to bid and chat with (default 5)
  --database-url URL   where to create those accounts (operator path, see below; default DATABASE_URL)
  --no-snapshot        viewers do not read the car's REST snapshot after joining
  --no-reconnect       viewers do not reconnect after a disconnect
  --sockets-per-address N   sockets per 127.0.0.x source address (default ${DEFAULT_OPTIONS.socketsPerAddress}; the
                       ephemeral port range holds about 28,000 per address)
  --metrics-token T    the server's METRICS_TOKEN, to read its figures from /metrics (default METRICS_TOKEN)
  --json FILE          also write the report as JSON to FILE ('-' for standard output)

Verified accounts: the generator needs signed-in, verified users to bid and chat. It creates
them directly in the server's database (--database-url), with one hashed password, named
loadtest-<run>-<n>@loadtest.invalid: an operator-only path that exists in no HTTP endpoint.
The server's per-address sign-in limit (RATE_LIMIT_LOGIN_PER_IP, default 100 an hour) must
allow --bidders sign-ins from 127.0.0.1.`;

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    viewers: { type: 'string' },
    cars: { type: 'string' },
    duration: { type: 'string' },
    ramp: { type: 'string' },
    'bid-rate': { type: 'string' },
    'bid-concurrency': { type: 'string' },
    'chat-rate': { type: 'string' },
    bidders: { type: 'string', default: '5' },
    'database-url': { type: 'string' },
    'no-snapshot': { type: 'boolean', default: false },
    'no-reconnect': { type: 'boolean', default: false },
    'sockets-per-address': { type: 'string' },
    'metrics-token': { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const number = (raw: string | undefined, fallback: number, min: number, max: number, name: string): number => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    console.error(`--${name} must be a number from ${min} to ${max}`);
    process.exit(2);
  }
  return value;
};

const url = new URL(values.url);
if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname)) {
  console.error('The load generator only targets this machine (127.0.0.0/8, localhost or [::1]).');
  process.exit(2);
}

const bidRate = number(values['bid-rate'], DEFAULT_OPTIONS.bidRate, 0, 1_000, 'bid-rate');
const bidConcurrency = number(values['bid-concurrency'], 0, 0, 500, 'bid-concurrency');
const chatRate = number(values['chat-rate'], DEFAULT_OPTIONS.chatRate, 0, 1_000, 'chat-rate');
const bidders = bidRate > 0 || bidConcurrency > 0 || chatRate > 0 ? number(values.bidders, 5, 1, 500, 'bidders') : 0;

async function createAccounts(count: number): Promise<{ email: string; password: string }[]> {
  if (count === 0) return [];
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('Bidding and chatting need verified accounts: pass --database-url (the server\'s database) or use --bid-rate 0 --chat-rate 0.');
    process.exit(2);
  }
  const password = `Load-${Date.now()}-Aa1!`;
  const passwordHash = await hashPassword(password);
  const run = Date.now().toString(36);
  const accounts = Array.from({ length: count }, (_, i) => ({ email: `loadtest-${run}-${i}@loadtest.invalid`, password }));
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 2 });
  try {
    await database.db.insert(users).values(accounts.map((a, i) => ({ email: a.email, name: `Load Bidder ${i + 1}`, passwordHash, emailVerified: true })));
  } finally {
    await database.close();
  }
  return accounts;
}

const report = await runLoadTest({
  url: values.url,
  viewers: number(values.viewers, DEFAULT_OPTIONS.viewers, 0, 60_000, 'viewers'),
  cars: number(values.cars, DEFAULT_OPTIONS.cars, 1, 50, 'cars'),
  durationSeconds: number(values.duration, DEFAULT_OPTIONS.durationSeconds, 1, 900, 'duration'),
  rampSeconds: number(values.ramp, DEFAULT_OPTIONS.rampSeconds, 0, 600, 'ramp'),
  bidRate,
  bidConcurrency,
  chatRate,
  accounts: await createAccounts(bidders),
  readSnapshot: !values['no-snapshot'],
  reconnect: !values['no-reconnect'],
  socketsPerAddress: number(values['sockets-per-address'], DEFAULT_OPTIONS.socketsPerAddress, 100, 28_000, 'sockets-per-address'),
  graceSeconds: DEFAULT_OPTIONS.graceSeconds,
  ...((values['metrics-token'] ?? process.env.METRICS_TOKEN) ? { metricsToken: values['metrics-token'] ?? process.env.METRICS_TOKEN } : {}),
  onProgress: (line) => console.log(line),
});

console.log(`\n${formatReport(report)}`);
if (values.json === '-') console.log(JSON.stringify(report, null, 2));
else if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2));
const failed = report.connections.failed > 0 || report.delivery.gaps > 0 || report.delivery.duplicates > 0 || report.invariants.violations.length > 0;
process.exit(failed ? 1 : 0);
