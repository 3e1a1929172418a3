/**
 * `npm run bench:capacity`: how many Socket.IO viewers ONE server process holds while bid-to-push
 * p99 stays at or under 250 ms, under a stated mix.
 *
 *   npm run bench:capacity -- [--viewers 1000,2000,4000,6000,8000] [--duration 20]
 *                             [--bid-rate 20] [--chat-rate 20] [--cars 100] [--generators 2]
 *                             [--postgres] [--queue-limit MS]
 *
 * The mix: viewers spread over `--cars` cars by a Zipf-like law (s = 1: the car of rank r gets a
 * share proportional to 1/r, so with 100 cars the hottest holds about 19 % of the viewers and
 * the coldest 0.2 %); bids and chat messages go to the same cars with the same weights, at a
 * steady total rate (default 20 bids/s + 20 chat messages/s), a bid never sent to a car whose
 * previous bid is still in flight. The viewer count steps up until p99 exceeds the budget, a
 * step loses viewers (joins failing) or the generator itself is the bottleneck (its event-loop
 * p99 above 100 ms): then the machine, not the server, is the limit and the step says so.
 *
 * The server is the compiled production build started by `startServerProcess` (one process,
 * WEB_CONCURRENCY=1, no Redis) on a fresh embedded database, or with `--postgres` on a fresh
 * PostgreSQL database (BENCH_DATABASE_URL's server, dropped at the end). Past the rate the
 * database keeps up with, writes are shed (503 with Retry-After, DB_QUEUE_LIMIT_MS): each step
 * counts the answers by status and checks that no other 5xx was answered. Chat messages come
 * from many users in turn, so the per-user message limit is not what refuses them. Viewers come from the processes
 * of `npm run bench:fanout`'s generator (fanout-viewers.ts), each from its own loopback
 * address, each under the 20,000 open-file limit. Bid→push latency is the time from just before
 * the bid's POST to each viewer receiving `bid:placed`, on the machine's monotonic clock. The
 * server's resident memory and event-loop delay are read from its /metrics (prom-client's
 * default metrics; the event-loop histogram is reset by each read, so the step's figure covers
 * the step's bidding window).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../db/client.ts';
import { cars as carsTable, users } from '../../db/schema/index.ts';
import { minimumBid } from '@common/bid-rules.ts';
import { prepareDatabase } from '../../server/src/lib/prepare-database.ts';
import { hashPassword } from '../../server/src/lib/passwords.ts';
import { settingSchema } from '../../server/src/settings.ts';
import { benchArgs, boundedArg, percentile } from '../helpers/bench.ts';
import { createPostgresDatabase } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { askGenerator, monotonicMs, type ViewerCommand, type ViewerReply } from './fanout-viewers.ts';

const USAGE = `Usage: npm run bench:capacity -- [options]

  --viewers LIST     viewer counts to step through (default 1000,2000,4000,6000,8000)
  --duration S       seconds of bids and chat per step (default 20, at most 300)
  --bid-rate R       bids per second in total, across the cars (default 20)
  --chat-rate R      chat messages per second in total (default 20)
  --cars N           cars the viewers, bids and chat are spread over, Zipf-like (default 100)
  --generators N     viewer processes, each under 20,000 open files (default 2)
  --budget MS        bid-to-push p99 budget (default 250)
  --max-minutes M    stop after this long, reporting what was measured (default 20)
  --postgres         a fresh PostgreSQL database (BENCH_DATABASE_URL's server, default
                     postgres://postgres@127.0.0.1:5432/postgres) instead of the embedded one
  --queue-limit MS   the server's DB_QUEUE_LIMIT_MS (default: the server's own, 500)
  --json FILE        also write every step's figures to FILE`;

const values = benchArgs(USAGE, {
  viewers: { type: 'string', default: '1000,2000,4000,6000,8000' },
  duration: { type: 'string', default: '20' },
  'bid-rate': { type: 'string', default: '20' },
  'chat-rate': { type: 'string', default: '20' },
  cars: { type: 'string', default: '100' },
  generators: { type: 'string', default: '2' },
  budget: { type: 'string', default: '250' },
  'max-minutes': { type: 'string', default: '20' },
  postgres: { type: 'boolean', default: false },
  'queue-limit': { type: 'string' },
  json: { type: 'string' },
});

const generatorCount = boundedArg(values.generators, 'generators', 1, 16);
// Each generator holds one socket per viewer plus a few files: keep each well under 20,000.
const viewerCounts = values.viewers.split(',').map((v) => boundedArg(v, 'viewers', 1, 18_000 * generatorCount));
const durationMs = boundedArg(values.duration, 'duration', 1, 300) * 1000;
const bidRate = boundedArg(values['bid-rate'], 'bid-rate', 0, 200);
const chatRate = boundedArg(values['chat-rate'], 'chat-rate', 0, 200);
const carCount = boundedArg(values.cars, 'cars', 1, 500);
const budgetMs = boundedArg(values.budget, 'budget', 1, 60_000);
const deadline = Date.now() + boundedArg(values['max-minutes'], 'max-minutes', 1, 240) * 60_000;

const root = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Bench#Capacity2026';
const BIDDERS = 8;
// Chat is limited per user and car (5 messages in 30 s): at 120 messages/s the hottest car (19 %)
// takes 23 a second, which 200 users in turn send well within the limit.
const CHATTERS = 200;
const queueLimit = values['queue-limit'] === undefined ? undefined : boundedArg(values['queue-limit'], 'queue-limit', 1, 60_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children: ChildProcess[] = [];
let server: ServerProcess | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'lm-capacity-bench-'));
let dropDatabase: (() => Promise<void>) | null = null;
const cleanup = async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase?.().catch((error: unknown) => console.error('could not drop the bench database:', error));
  dropDatabase = null;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().then(() => process.exit(130)));

/** Zipf-like weights (s = 1) for `n` ranks, summing to 1. */
const zipf = (n: number) => {
  const raw = Array.from({ length: n }, (_, r) => 1 / (r + 1));
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / sum);
};
/** Integer shares of `total` by `weights`, summing exactly to `total`. */
const shares = (total: number, weights: number[]) => {
  const out = weights.map((w) => Math.floor(w * total));
  for (let i = 0, left = total - out.reduce((a, b) => a + b, 0); left > 0; i = (i + 1) % out.length, left--) out[i]! += 1;
  return out;
};

const ask = <R extends ViewerReply['reply']>(child: ChildProcess, command: ViewerCommand, reply: R) => askGenerator(child, command, reply, 300_000);

/** The figures prom-client exposes by default that matter here. */
async function serverFigures(url: string): Promise<{ rssMb: number; loopP99Ms: number; loopMaxMs: number }> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMb: read('process_resident_memory_bytes') / 1e6, loopP99Ms: read('nodejs_eventloop_lag_p99_seconds') * 1000, loopMaxMs: read('nodejs_eventloop_lag_max_seconds') * 1000 };
}

interface Car {
  id: number;
  price: number;
  highest: number | null;
  busy: boolean;
}

interface Step {
  viewers: number;
  joined: number;
  failed: number;
  bids: number;
  bidsRefused: number;
  chats: number;
  chatsFailed: number;
  /** Answers to the writes by status ("503+RA": 503 with Retry-After; "err": no answer). */
  statuses: Record<string, number>;
  /** 5xx answers other than 503 with Retry-After, and writes that got no answer. */
  bad5xx: number;
  bidPushesPerSecond: number;
  chatPushesPerSecond: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
  httpBidP50: number;
  httpBidP99: number;
  rssMb: number;
  loopP99Ms: number;
  loopMaxMs: number;
  generatorLoopP99Ms: number;
  load1: number;
  stop?: string;
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

async function main(): Promise<void> {
  const started = Date.now();
  // A fresh database, migrated and seeded, with bidders, before the server owns it.
  let databaseUrl: string | null = null;
  if (values.postgres) {
    const fresh = await createPostgresDatabase(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', `lm_capacity_bench_${process.pid}`);
    databaseUrl = fresh.url;
    dropDatabase = fresh.drop;
  }
  const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2 });
  await prepareDatabase(database, { info: () => {} });
  const passwordHash = await hashPassword(PASSWORD);
  const bidders = Array.from({ length: BIDDERS }, (_, n) => ({ email: `capacity-${n}@bench.invalid`, name: `Capacity Bidder ${n}`, passwordHash, emailVerified: true }));
  const chatters = Array.from({ length: CHATTERS }, (_, n) => ({ email: `capacity-chat-${n}@bench.invalid`, name: `Capacity Chatter ${n}`, passwordHash, emailVerified: true }));
  await database.db.insert(users).values([...bidders, ...chatters]);
  // The seed lists a dozen cars: copies of them (new ids, the same sellers) make up the count.
  const seeded = await database.db.select().from(carsTable);
  const copies = Array.from({ length: Math.max(0, carCount - seeded.length) }, (_, i) => {
    const { id: _id, ...car } = seeded[i % seeded.length]!;
    return car;
  });
  if (copies.length > 0) await database.db.insert(carsTable).values(copies);
  await database.close();

  server = await startServerProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    REDIS_URL: '',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    LOG_LEVEL: 'error',
    // Said every time: the test settings the server process starts with raise it for slow test machines.
    DB_QUEUE_LIMIT_MS: String(queueLimit ?? settingSchema('DB_QUEUE_LIMIT_MS')!.default),
  });
  const url = server.url;
  const signIn = async (b: { email: string }) => {
    const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: b.email, password: PASSWORD }) });
    if (!res.ok) throw new Error(`could not sign in ${b.email}: ${res.status}`);
    return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
  };
  const tokens = await Promise.all(bidders.map(signIn));
  const chatTokens: string[] = [];
  for (let i = 0; i < chatters.length; i += 8) chatTokens.push(...(await Promise.all(chatters.slice(i, i + 8).map(signIn))));
  // The cars: the first `carCount` of the listing, cheapest first, as many pages as it takes.
  const cars: Car[] = [];
  for (let page = 1; cars.length < carCount && page <= 50; page++) {
    const body = (await (await fetch(`${url}/api/cars?sort=price-low&limit=50&page=${page}`)).json()) as { data: { cars: { id: number; price: number }[] } };
    if (body.data.cars.length === 0) break;
    for (const c of body.data.cars) if (cars.length < carCount) cars.push({ id: c.id, price: c.price, highest: null, busy: false });
  }
  const weights = zipf(cars.length);
  const cumulative: number[] = [];
  for (const w of weights) cumulative.push((cumulative.at(-1) ?? 0) + w);
  const pickCar = () => {
    const r = Math.random();
    const index = cumulative.findIndex((c) => r <= c);
    return index === -1 ? cars.length - 1 : index;
  };

  const generators = Array.from({ length: generatorCount }, () => {
    const child = fork(join(root, 'tests/load/fanout-viewers.ts'), [], { execArgv: ['--import', 'tsx'], cwd: root, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    return child;
  });

  console.log(
    `Capacity of one process: ${cars.length} cars, viewers Zipf-like (s = 1; hottest car ${fmt(weights[0]! * 100, 1)} % of viewers), ` +
      `${bidRate} bids/s + ${chatRate} chat/s in total on the same weights, ${durationMs / 1000} s per step, budget p99 ≤ ${budgetMs} ms; ` +
      `${values.postgres ? 'PostgreSQL' : 'embedded database'}; ${generatorCount} generator processes; ${availableParallelism()} cores shared by everything; load average at start ${loadavg()[0]!.toFixed(2)}\n`,
  );

  const steps: Step[] = [];
  // A warm-up step (JIT, pools, caches) of 200 viewers and 5 s, not reported.
  for (const [i, viewers] of [200, ...viewerCounts].entries()) {
    const warmUp = i === 0;
    if (Date.now() > deadline) {
      console.log(`(stopped at --max-minutes before ${viewers} viewers)`);
      break;
    }
    const stepStarted = Date.now();
    // Each car's viewers split between the generators; each generator connects car after car.
    const perCar = shares(viewers, weights);
    const connected = await Promise.all(
      generators.map(async (child, g) => {
        let joined = 0;
        let failed = 0;
        for (const [index, count] of perCar.entries()) {
          const mine = Math.floor(count / generatorCount) + (g < count % generatorCount ? 1 : 0);
          if (mine === 0) continue;
          const reply = await ask(
            child,
            { cmd: 'connect', target: index, url, carId: cars[index]!.id, count: mine, localAddress: `127.0.0.${2 + g}`, perSecond: 2_000 / generatorCount },
            'connected',
          );
          joined += reply.joined;
          failed += reply.failed;
        }
        return { joined, failed };
      }),
    );
    const joined = connected.reduce((n, c) => n + c.joined, 0);
    const failed = connected.reduce((n, c) => n + c.failed, 0);
    await sleep(1_000);

    await Promise.all(generators.map((child) => ask(child, { cmd: 'measure' }, 'measuring')));
    await serverFigures(url); // resets the server's event-loop histogram
    const end = Date.now() + (warmUp ? 5_000 : durationMs);
    let bids = 0;
    let bidsRefused = 0;
    let chats = 0;
    let chatsFailed = 0;
    let chatPushes = 0;
    const statuses: Record<string, number> = {};
    const count = (res: Response | null) => {
      const key = res === null ? 'err' : res.status === 503 && res.headers.get('retry-after') ? '503+RA' : String(res.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
    };
    const chatTurns = new Map<number, number>();
    const httpBid: number[] = [];
    const inFlight: Promise<void>[] = [];
    const placeBid = async (index: number, turn: number) => {
      const car = cars[index]!;
      car.busy = true;
      const amount = minimumBid(car.price, car.highest);
      const at = monotonicMs();
      try {
        const res = await fetch(`${url}/api/bids`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[turn % BIDDERS]!}`, 'idempotency-key': randomUUID() },
          body: JSON.stringify({ carId: car.id, amount }),
        });
        const body = (await res.json().catch(() => null)) as { details?: { highestBid?: number | null } } | null;
        httpBid.push(monotonicMs() - at);
        count(res);
        if (res.status === 201) {
          car.highest = amount;
          bids += 1;
          for (const child of generators) child.send({ cmd: 'sent', target: index, key: amount, at } satisfies ViewerCommand);
        } else {
          bidsRefused += 1;
          if (body?.details?.highestBid) car.highest = Math.max(car.highest ?? 0, body.details.highestBid);
        }
      } catch {
        bidsRefused += 1;
        count(null);
      } finally {
        car.busy = false;
      }
    };
    const postChat = async (index: number, turn: number) => {
      // Each car's messages come from the chatters in turn, starting at a different one per car.
      const carTurn = chatTurns.get(index) ?? 0;
      chatTurns.set(index, carTurn + 1);
      const token = chatTokens[(index * 37 + carTurn) % chatTokens.length]!;
      try {
        const res = await fetch(`${url}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ carId: cars[index]!.id, message: `Capacity bench message ${viewers} ${turn}` }),
        });
        await res.arrayBuffer();
        count(res);
        if (res.status === 201) {
          chats += 1;
          chatPushes += perCar[index]!;
        } else chatsFailed += 1;
      } catch {
        chatsFailed += 1;
        count(null);
      }
    };
    // One tick a 50 ms: the bids and chat messages that fall in it, fired without waiting.
    const tickMs = 50;
    let bidDebt = 0;
    let chatDebt = 0;
    let turn = 0;
    for (let next = Date.now(); Date.now() < end; ) {
      bidDebt += (bidRate * tickMs) / 1000;
      chatDebt += (chatRate * tickMs) / 1000;
      for (; bidDebt >= 1; bidDebt--) {
        let index = pickCar();
        for (let tries = 0; cars[index]!.busy && tries < 10; tries++) index = pickCar();
        if (!cars[index]!.busy) inFlight.push(placeBid(index, turn++));
      }
      for (; chatDebt >= 1; chatDebt--) inFlight.push(postChat(pickCar(), turn++));
      next += tickMs;
      await sleep(Math.max(0, next - Date.now()));
    }
    await Promise.all(inFlight);
    const figures = await serverFigures(url);
    // Late copies still count: a viewer that got a bid after 1.5 s has not lost it.
    await sleep(1_500);
    const collected = await Promise.all(generators.map((child) => ask(child, { cmd: 'collect' }, 'collected')));
    const latencies: number[] = [];
    let expected = 0;
    for (const c of collected)
      for (const f of Object.values(c.byTarget)) {
        expected += f.expected;
        for (const l of f.latencies) latencies.push(l);
      }
    await Promise.all(generators.map((child) => ask(child, { cmd: 'disconnect' }, 'disconnected')));
    await sleep(2_000);

    if (warmUp) continue;
    const seconds = durationMs / 1000;
    const step: Step = {
      viewers,
      joined,
      failed,
      bids,
      bidsRefused,
      chats,
      chatsFailed,
      statuses,
      bad5xx: Object.entries(statuses).reduce((n, [status, k]) => n + (status === 'err' || (status !== '503+RA' && Number(status) >= 500) ? k : 0), 0),
      bidPushesPerSecond: latencies.length / seconds,
      chatPushesPerSecond: chatPushes / seconds,
      delivered: expected > 0 ? latencies.length / expected : NaN,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.reduce((a, b) => Math.max(a, b), 0),
      httpBidP50: percentile(httpBid, 50),
      httpBidP99: percentile(httpBid, 99),
      ...figures,
      generatorLoopP99Ms: Math.max(...collected.map((c) => c.loopP99Ms)),
      load1: loadavg()[0]!,
    };
    if (step.bad5xx > 0) step.stop = `${step.bad5xx} writes answered 5xx other than 503 with Retry-After, or not at all`;
    else if (step.p99 > budgetMs) step.stop = `p99 ${fmt(step.p99)} ms > ${budgetMs} ms`;
    else if (failed > viewers * 0.02) step.stop = `${failed} viewers could not join (generator/machine limit)`;
    else if (step.generatorLoopP99Ms > 100) step.stop = `generator event-loop p99 ${fmt(step.generatorLoopP99Ms)} ms (generator limit)`;
    steps.push(step);
    console.log(
      `step ${viewers}: ${((Date.now() - stepStarted) / 1000).toFixed(0)} s; joined ${joined}, failed ${failed}; ${bids} bids (${bidsRefused} refused), ${chats} chat (${chatsFailed} failed); ` +
        `answers ${Object.entries(statuses).map(([k, n]) => `${k}×${n}`).join(' ')}; ` +
        `p50/p99/max ${fmt(step.p50)}/${fmt(step.p99)}/${fmt(step.max)} ms; delivered ${fmt(step.delivered * 100, 2)} %; rss ${fmt(step.rssMb)} MB; loop p99 ${fmt(step.loopP99Ms)} ms; load ${step.load1.toFixed(2)}` +
        (step.stop ? `; STOP: ${step.stop}` : ''),
    );
    if (step.stop) break;
  }

  console.log('\n| viewers (joined) | bids accepted / chat posted | write answers by status | bid pushes/s received | chat pushes/s (computed) | delivered | bid→push p50 / p99 / max ms | HTTP bid p50 / p99 ms | server RSS MB | server loop p99 / max ms | generator loop p99 ms | load (1 min) |');
  console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of steps)
    console.log(
      `| ${s.viewers} (${s.joined}) | ${s.bids} / ${s.chats} | ${Object.entries(s.statuses).map(([k, n]) => `${k}: ${n}`).join(', ')} | ${fmt(s.bidPushesPerSecond)} | ${fmt(s.chatPushesPerSecond)} | ${fmt(s.delivered * 100, 2)} % | ${fmt(s.p50)} / ${fmt(s.p99)} / ${fmt(s.max)} | ${fmt(s.httpBidP50)} / ${fmt(s.httpBidP99)} | ${fmt(s.rssMb)} | ${fmt(s.loopP99Ms)} / ${fmt(s.loopMaxMs)} | ${fmt(s.generatorLoopP99Ms)} | ${s.load1.toFixed(2)} |`,
    );
  const within = steps.filter((s) => !s.stop);
  const last = steps.at(-1);
  console.log(
    `\nHeld within budget: ${within.length ? `${within.at(-1)!.joined} viewers` : 'none'}` +
      (last?.stop ? `; stopped at ${last.viewers}: ${last.stop}` : '; the budget was never exceeded (raise --viewers)') +
      `. Total ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  );
  if (values.json) writeFileSync(values.json, JSON.stringify(steps, null, 2));
}

try {
  await main();
} finally {
  await cleanup();
}
process.exit(0);
