/**
 * `npm run bench:fanout`: what a bid costs the product to fan out, against a bare Socket.IO
 * server doing nothing but rooms and broadcasts with the same payloads.
 *
 *   npm run bench:fanout -- [--viewers 1000,5000] [--rounds 3] [--duration 20] [--bid-rate 2]
 *                           [--postgres] [--redis URL] [--workers 1[,2]] [--generators N]
 *
 * The servers run side by side as child processes and one load generator (several processes
 * of viewers, see fanout-viewers.ts) gives each the same traffic. In each round every server
 * gets its own viewers in one car's room (its heap read after a full GC before and after they
 * join); then bids go to the servers in turn, one at a time and evenly spaced, the order
 * reversed every tick, so whatever else the machine does at that moment falls on all of them
 * alike. Fan-out latency is the time from just before the bid's POST (the product's REST bid, sent
 * like the web app's with an Idempotency-Key, or the bare server's trigger) to each viewer
 * receiving `bid:placed`, on the machine's monotonic clock. Every figure comes with the
 * generator's own event-loop delay: when it is high, the generator, not the server, is part of
 * the latency.
 *
 * The product gets a fresh database: embedded (a temporary folder) by default, or with
 * --postgres a new database on BENCH_DATABASE_URL's server (dropped at the end). --workers 1,2
 * runs the product twice, with WEB_CONCURRENCY=1 and 2 (needs --postgres and --redis).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { minimumBid } from '@common/bid-rules.ts';
import { prepareDatabase } from '../../server/src/lib/prepare-database.ts';
import { hashPassword } from '../../server/src/lib/passwords.ts';
import { HEAP_PROBE, HEAP_REPORT, type HeapReport } from '../../server/src/lib/heap-probe.ts';
import { boundedArg, nextMessage } from '../helpers/bench.ts';
import { createPostgresDatabase } from '../helpers/database.ts';
import { askGenerator, monotonicMs, type TargetFigures, type ViewerCommand, type ViewerReply } from './fanout-viewers.ts';

const HELP = `Usage: npm run bench:fanout -- [options]

  --viewers LIST     viewer counts, one car room each (default 1000,5000; each at most 20000)
  --rounds N         rounds per count, servers interleaved (default 3, at most 10)
  --duration S       seconds of bidding per round (default 20, at most 300)
  --bid-rate R       bids per second to each server (default 2, at most 20); the servers take
                     turns, one bid at a time
  --generators N     load-generator processes sharing the viewers (default ${Math.max(2, availableParallelism())})
  --postgres         the product on a fresh PostgreSQL database (BENCH_DATABASE_URL's server,
                     default postgres://postgres@127.0.0.1:5432/postgres) instead of the embedded one
  --redis URL        the product with REDIS_URL (a key prefix of its own)
  --workers LIST     product processes (WEB_CONCURRENCY), e.g. 1,2 runs both side by side (default 1)
  --compare DIR      also run the product from DIR, another copy of this repository (an earlier
                     commit: git archive <commit> | tar -x -C DIR, then link node_modules), as
                     one more server in the same interleaved rounds: before/after on equal terms
  --max-minutes M    stop after this long, reporting what was measured (default 30)
  --json FILE        also write every round's figures to FILE`;

const { values } = parseArgs({
  options: {
    viewers: { type: 'string', default: '1000,5000' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    'bid-rate': { type: 'string', default: '2' },
    generators: { type: 'string', default: String(Math.max(2, availableParallelism())) },
    postgres: { type: 'boolean', default: false },
    redis: { type: 'string' },
    workers: { type: 'string', default: '1' },
    compare: { type: 'string' },
    'max-minutes': { type: 'string', default: '30' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const viewerCounts = values.viewers.split(',').map((v) => boundedArg(v, 'viewers', 1, 20_000));
const rounds = boundedArg(values.rounds, 'rounds', 1, 10);
const durationMs = boundedArg(values.duration, 'duration', 1, 300) * 1000;
const bidRate = boundedArg(values['bid-rate'], 'bid-rate', 0.2, 20);
const generatorCount = boundedArg(values.generators, 'generators', 1, 16);
const workerCounts = values.workers.split(',').map((v) => boundedArg(v, 'workers', 1, 16));
const deadline = Date.now() + boundedArg(values['max-minutes'], 'max-minutes', 1, 240) * 60_000;
if (workerCounts.some((n) => n > 1) && !(values.postgres && values.redis)) {
  console.error('--workers above 1 needs --postgres and --redis (several processes share state through Redis)');
  process.exit(2);
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Bench#Fanout2026';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => Promise<void> | void)[] = [];
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
// Interrupted: stop the servers and drop the databases before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    void (async () => {
      for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
      process.exit(130);
    })();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}


let probes = 0;
async function heapAfterGc(server: ChildProcess): Promise<HeapReport> {
  const id = probes++;
  const answer = nextMessage(server, (m) => ((m as HeapReport).type === HEAP_REPORT && (m as HeapReport).id === id ? (m as HeapReport) : undefined), 60_000, 'a heap report');
  server.send({ type: HEAP_PROBE, id });
  return answer;
}

interface Target {
  name: string;
  process: ChildProcess;
  url: string;
  carId: number;
  price: number;
  highest: number | null;
  /** Places one bid of `amount`; true when accepted. */
  bid(amount: number, turn: number): Promise<{ accepted: boolean; highestBid?: number | null }>;
}

// ---- The bare server -------------------------------------------------------------------------
async function startBare(): Promise<Target> {
  const child = fork(join(root, 'tests/load/fanout-bare-server.ts'), [], { execArgv: ['--expose-gc', '--import', 'tsx'], cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const port = await nextMessage(child, (m) => ((m as { type?: string }).type === 'listening' ? (m as { port: number }).port : undefined), 60_000, 'the bare server');
  const url = `http://127.0.0.1:${port}`;
  const target: Target = {
    name: 'bare Socket.IO',
    process: child,
    url,
    carId: 1,
    price: 60_000,
    highest: null,
    async bid(amount, turn) {
      const res = await fetch(`${url}/bench/bid`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ carId: target.carId, amount, userId: 1 + (turn % 2), userName: `Fanout Bidder ${1 + (turn % 2)}` }),
      });
      await res.arrayBuffer();
      return { accepted: res.status === 201 };
    },
  };
  return target;
}

// ---- The product -----------------------------------------------------------------------------
async function freshDatabase(): Promise<{ databaseUrl: string | null; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lm-fanout-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!values.postgres) return { databaseUrl: null, dataDir };
  const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const { url, drop } = await createPostgresDatabase(server, `lm_fanout_bench_${process.pid}_${cleanups.length}`);
  cleanups.push(drop);
  return { databaseUrl: url, dataDir };
}

async function startProduct(workers: number, from = root, label = ''): Promise<Target> {
  const { databaseUrl, dataDir } = await freshDatabase();
  // Migrated, seeded and given two bidders before the server owns the database.
  const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2 });
  await prepareDatabase(database, { info: () => {} });
  const passwordHash = await hashPassword(PASSWORD);
  const bidders = [1, 2].map((n) => ({ email: `fanout-bidder-${n}@bench.invalid`, name: `Fanout Bidder ${n}`, passwordHash, emailVerified: true }));
  await database.db.insert(users).values(bidders);
  await database.close();

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = fork(join(from, 'server/src/server.ts'), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    cwd: from,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      REDIS_URL: values.redis ?? '',
      REDIS_PREFIX: `lm-fanout-${process.pid}-${port}`,
      WEB_CONCURRENCY: String(workers),
      SERVE_CLIENT: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
      RATE_LIMIT_LOGIN_PER_IP: '100000',
    },
  });
  children.push(child);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('the product server exited while starting');
    if (Date.now() - started > 120_000) throw new Error('the product server did not start within 2 minutes');
    const text = await fetch(`${url}/metrics`).then((r) => (r.ok ? r.text() : ''), () => '');
    const ready = workers === 1 ? text !== '' : (text.match(/^cluster_worker_info\{/gm)?.length ?? 0) === workers;
    if (ready) break;
    await sleep(250);
  }
  const tokens = await Promise.all(
    bidders.map(async (b) => {
      const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: b.email, password: PASSWORD }) });
      if (!res.ok) throw new Error(`could not sign in ${b.email}: ${res.status}`);
      return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
    }),
  );
  const car = ((await (await fetch(`${url}/api/cars?sort=price-low&limit=1`)).json()) as { data: { cars: { id: number; price: number }[] } }).data.cars[0]!;
  const target: Target = {
    name: (workers === 1 ? 'product' : `product ×${workers}`) + label,
    process: child,
    url,
    carId: car.id,
    price: car.price,
    highest: null,
    async bid(amount, turn) {
      const res = await fetch(`${url}/api/bids`, {
        method: 'POST',
        // With a fresh Idempotency-Key, as the web app sends every bid.
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[turn % 2]!}`, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ carId: target.carId, amount }),
      });
      const body = (await res.json().catch(() => null)) as { details?: { highestBid?: number | null } } | null;
      return { accepted: res.status === 201, highestBid: body?.details?.highestBid };
    },
  };
  return target;
}

// ---- The load generator -----------------------------------------------------------------------
const generators: ChildProcess[] = [];
for (let i = 0; i < generatorCount; i++) {
  const child = fork(join(root, 'tests/load/fanout-viewers.ts'), [], { execArgv: ['--import', 'tsx'], cwd: root, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  generators.push(child);
}
const ask = <R extends ViewerReply['reply']>(child: ChildProcess, command: ViewerCommand, reply: R) => askGenerator(child, command, reply, 180_000);
const orchestratorLoop = monitorEventLoopDelay({ resolution: 5 });
orchestratorLoop.enable();

interface RoundResult {
  server: string;
  viewers: number;
  round: number;
  joined: number;
  bids: number;
  expected: number;
  received: number;
  p50: number;
  p99: number;
  max: number;
  heapPerViewerKb: number;
  heapBaseMb: number;
  processes: number;
  generatorLoopP99Ms: number;
  generatorLoopMaxMs: number;
  orchestratorLoopP99Ms: number;
}

const percentile = (sorted: Float64Array, q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/**
 * One round: every server gets its viewers (its heap read after GC before and after they
 * join), then bids go to the servers in turn, one at a time and evenly spaced, so that whatever
 * else the machine does in that time falls on all of them alike.
 */
async function runRound(targets: Target[], viewers: number, round: number, durationOfRun = durationMs): Promise<RoundResult[]> {
  // Shares of the viewers, each generator process from its own loopback address (its own port range).
  const shares = generators.map((_, i) => Math.floor(viewers / generators.length) + (i < viewers % generators.length ? 1 : 0));
  const memory: { base: HeapReport; loaded: HeapReport; joined: number }[] = [];
  for (const [index, target] of targets.entries()) {
    const base = await heapAfterGc(target.process);
    const connected = await Promise.all(
      generators.map((child, i) =>
        ask(child, { cmd: 'connect', target: index, url: target.url, carId: target.carId, count: shares[i]!, localAddress: `127.0.0.${2 + i}`, perSecond: 1_500 / generators.length }, 'connected'),
      ),
    );
    await sleep(1_000);
    memory.push({ base, loaded: await heapAfterGc(target.process), joined: connected.reduce((sum, c) => sum + c.joined, 0) });
  }

  await Promise.all(generators.map((child) => ask(child, { cmd: 'measure' }, 'measuring')));
  orchestratorLoop.reset();
  // Each server gets bidRate bids a second; the slots between bids are shared out in turn.
  const slot = 1000 / bidRate / targets.length;
  const end = Date.now() + durationOfRun;
  const bids = targets.map(() => 0);
  let turn = 0;
  for (let next = Date.now(); Date.now() < end; turn++) {
    // Alternate the order each tick, so no server always follows the same one.
    const tick = Math.floor(turn / targets.length);
    const position = turn % targets.length;
    const index = tick % 2 === 0 ? position : targets.length - 1 - position;
    const target = targets[index]!;
    const amount = minimumBid(target.price, target.highest);
    const at = monotonicMs();
    const outcome = await target.bid(amount, tick);
    if (outcome.accepted) {
      target.highest = amount;
      bids[index]! += 1;
      for (const child of generators) child.send({ cmd: 'sent', target: index, key: amount, at } satisfies ViewerCommand);
    } else if (outcome.highestBid) {
      target.highest = Math.max(target.highest ?? 0, outcome.highestBid);
    }
    next += slot;
    await sleep(Math.max(0, next - Date.now()));
  }
  const orchestratorLoopP99Ms = orchestratorLoop.percentile(99) / 1e6;
  // Late copies still count: a viewer that got a bid after 1.5 s has not lost it.
  await sleep(1_500);
  const collected = await Promise.all(generators.map((child) => ask(child, { cmd: 'collect' }, 'collected')));
  await Promise.all(generators.map((child) => ask(child, { cmd: 'disconnect' }, 'disconnected')));
  await sleep(2_000);

  return targets.map((target, index) => {
    const parts = collected.map((c) => c.byTarget[index]).filter((f): f is TargetFigures => f !== undefined);
    const all = new Float64Array(parts.reduce((n, f) => n + f.latencies.length, 0));
    let offset = 0;
    for (const f of parts) {
      all.set(f.latencies, offset);
      offset += f.latencies.length;
    }
    all.sort();
    const { base, loaded, joined } = memory[index]!;
    return {
      server: target.name,
      viewers,
      round,
      joined,
      bids: bids[index]!,
      expected: parts.reduce((n, f) => n + f.expected, 0),
      received: parts.reduce((n, f) => n + f.received, 0),
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      max: all.length ? all[all.length - 1]! : NaN,
      heapPerViewerKb: joined > 0 ? (loaded.heapUsed - base.heapUsed) / joined / 1024 : NaN,
      heapBaseMb: base.heapUsed / 1e6,
      processes: loaded.processes,
      generatorLoopP99Ms: Math.max(...collected.map((c) => c.loopP99Ms)),
      generatorLoopMaxMs: Math.max(...collected.map((c) => c.loopMaxMs)),
      orchestratorLoopP99Ms,
    };
  });
}

// ---- The run -----------------------------------------------------------------------------------
const results: RoundResult[] = [];
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const median = (list: number[]) => {
  const sorted = [...list].filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const line = (r: RoundResult) =>
  `| ${r.viewers} | ${r.round} | ${r.server} | ${r.joined} | ${r.bids} | ${((r.received / Math.max(1, r.expected)) * 100).toFixed(2)} % | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${fmt(r.heapPerViewerKb)} | ${fmt(r.generatorLoopP99Ms)} / ${fmt(r.generatorLoopMaxMs)} | ${fmt(r.orchestratorLoopP99Ms)} |`;

let interrupted = false;
try {
  const targets: Target[] = [await startBare()];
  for (const workers of workerCounts) targets.push(await startProduct(workers));
  if (values.compare) for (const workers of workerCounts) targets.push(await startProduct(workers, resolve(values.compare), ` (${basename(resolve(values.compare))})`));
  console.log(
    `Fan-out: ${targets.map((t) => t.name).join(' vs ')}; product on ${values.postgres ? 'PostgreSQL' : 'the embedded database'}${values.redis ? ' + Redis' : ''}; ` +
      `${generatorCount} generator processes; ${bidRate} bids/s to each server, in turn, for ${durationMs / 1000} s per round; ${rounds} rounds; ${availableParallelism()} cores shared by everything\n`,
  );
  // Warm-up (JIT, pools, caches), not reported.
  await runRound(targets, Math.min(200, viewerCounts[0]!), 0, 3_000);

  console.log('| viewers | round | server | joined | bids | delivered | p50 ms | p99 ms | max ms | heap KB/viewer | generator loop p99 / max ms | bidder loop p99 ms |');
  console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  outer: for (const viewers of viewerCounts) {
    for (let round = 1; round <= rounds; round++) {
      if (Date.now() > deadline) {
        interrupted = true;
        break outer;
      }
      // Who connects first (and so waits longest with viewers) alternates between rounds.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      const roundResults = await runRound(order, viewers, round);
      for (const result of roundResults.sort((a, b) => targets.findIndex((t) => t.name === a.server) - targets.findIndex((t) => t.name === b.server))) {
        results.push(result);
        console.log(line(result));
      }
    }
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sleep(500);
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
}

console.log(`\nSummary (median over rounds${interrupted ? '; stopped early at --max-minutes' : ''})\n`);
console.log('| viewers | server | p50 ms | p99 ms | heap KB/viewer | p99 × bare | heap × bare | generator loop p99 ms (worst round) |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
for (const viewers of viewerCounts) {
  const of = (server: string) => results.filter((r) => r.viewers === viewers && r.server === server);
  const bare = of('bare Socket.IO');
  const bareP99 = median(bare.map((r) => r.p99));
  const bareHeap = median(bare.map((r) => r.heapPerViewerKb));
  for (const server of [...new Set(results.map((r) => r.server))]) {
    const rows = of(server);
    if (rows.length === 0) continue;
    const p99 = median(rows.map((r) => r.p99));
    const heap = median(rows.map((r) => r.heapPerViewerKb));
    // Each round's ratio too: the servers ran back to back in it, so drift cancels.
    const paired = rows.map((r) => r.p99 / (bare.find((b) => b.round === r.round)?.p99 ?? NaN)).filter(Number.isFinite);
    const range = server === 'bare Socket.IO' || paired.length === 0 ? '' : ` (rounds ${fmt(Math.min(...paired), 2)}–${fmt(Math.max(...paired), 2)})`;
    console.log(
      `| ${viewers} | ${server} | ${fmt(median(rows.map((r) => r.p50)))} | ${fmt(p99)} | ${fmt(heap)} | ${fmt(p99 / bareP99, 2)}${range} | ${fmt(heap / bareHeap, 2)} | ${fmt(Math.max(...rows.map((r) => r.generatorLoopP99Ms)))} |`,
    );
  }
}
if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
process.exit(0);
