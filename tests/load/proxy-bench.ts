/**
 * `npm run bench:proxy`: what proxy (maximum) bids cost on one hot car, next to manual bids in
 * the same run.
 *
 *   npm run bench:proxy -- [--bidders 20] [--seconds 10] [--viewers 200] [--postgres]
 *
 * Starts a server process of its own (embedded database, or with --postgres a fresh database on
 * BENCH_DATABASE_URL's server) and lists one fresh fixed-price car per phase. In each phase
 * --viewers Socket.IO viewers are joined to the car and --bidders bidders post bids at it
 * concurrently for --seconds, each at the minimum it last heard of (a 409 BID_TOO_LOW answer's
 * `details.minimumAmount`, or the increment over a 201 answer's highest bid):
 * - phase A, manual: `{carId, amount}`;
 * - phase B, maxima: `{carId, amount, maxAmount}` with a random maximum one to five increments
 *   above the amount, so rivals' standing maxima answer with automatic bids in the same
 *   transaction.
 * Reported per phase: accepted requests/s, recorded bids/s (the car's `currentBids`, automatic
 * bids included), the share of 409 answers, request latency, and from sending a POST to each
 * viewer receiving `bid:placed` for its bids (matched by the bid id in the 201 answer; the last
 * bid a request recorded by the `currentBids` it answers). Then the same push latency on a quiet
 * car, one bid at a time, with and without maxima.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { PlacedBid } from '@common/schemas/bids.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { ServerEventPayload } from '@common/socket-events.ts';
import { bidIncrement, minimumBid } from '@common/bid-rules.ts';
import { benchArgs, chooseBenchDatabase, LATENCY_TABLE_HEAD, latencyRow, percentile, endWithBench } from '../helpers/bench.ts';
import { http, insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const USAGE = 'Usage: npm run bench:proxy -- [--bidders 20] [--seconds 10] [--viewers 200] [--postgres]';
const values = benchArgs(USAGE, {
  bidders: { type: 'string', default: '20' },
  seconds: { type: 'string', default: '10' },
  viewers: { type: 'string', default: '200' },
  postgres: { type: 'boolean', default: false },
});
const BIDDERS = Number(values.bidders);
const SECONDS = Number(values.seconds);
const VIEWERS = Number(values.viewers);
// Bounded: a run stays a few minutes and a few thousand sockets at most.
if (!(Number.isInteger(BIDDERS) && BIDDERS >= 2 && BIDDERS <= 200) || !(SECONDS > 0 && SECONDS <= 120) || !(Number.isInteger(VIEWERS) && VIEWERS >= 1 && VIEWERS <= 2_000)) {
  console.error(`${USAGE}\n--bidders 2–200, --seconds up to 120, --viewers 1–2000`);
  process.exit(2);
}
/** Bids per mode in the quiet push measurement (one at a time). */
const QUIET_BIDS = 40;
const ASKING_PRICE = 50_000;

chooseBenchDatabase(values.postgres);
const dataDir = mkdtempSync(join(tmpdir(), 'lm-proxy-bench-'));
const database = await serverDatabase(dataDir, (db) => insertAccounts(db, ['Bench Seller', ...Array.from({ length: BIDDERS }, (_, i) => `Bench Bidder ${i}`)]));
const server = await startServerProcess({
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
  // The bench signs every bidder in from one address.
  RATE_LIMIT_LOGIN_PER_IP: '10000',
  LOG_LEVEL: 'error',
});
endWithBench(server);
const [sellerToken, ...bidderTokens] = await Promise.all(database.prepared.map((account) => signIn(server.url, account)));
const bidderIds = database.prepared.slice(1).map((account) => account.id);

async function listCar(label: string): Promise<CarDetail> {
  const res = await http<CarDetail>(server.url, sellerToken!, 'POST', '/api/cars', {
    make: 'Bench',
    model: `Proxy ${label} ${Date.now()}`,
    year: 2020,
    price: ASKING_PRICE,
    mileage: 1_000,
    condition: 'Excellent',
    location: 'Bench',
    description: 'Benchmark listing for proxy bids.',
    features: [],
    bodyStyle: 'coupe',
  });
  if (res.status !== 201) throw new Error(`listing answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

// Viewers, connected once and joined to each phase's car. Every `bid:placed` is noted by bid id
// with its arrival time at each viewer.
let watched = 0;
const arrivals = new Map<number, number[]>();
const emittedAt = new Map<number, number>();
/** The id of the bid that made the watched car's `currentBids` this number. */
const bidAtCount = new Map<number, number>();
/** The automatic bids pushed for the watched car. */
const autoBids = new Set<number>();
/**
 * The watched car as the bidders know it, from the pushes and their answers (the newer wins): its
 * bid count, highest bid and leader (-1: someone else than the bidder who was answered).
 */
let standing = { count: 0, highest: 0, leaderId: 0 };
let wake: (() => void)[] = [];
function note(count: number, highest: number, leaderId: number): void {
  if (count <= standing.count) return;
  standing = { count, highest, leaderId };
  const waiting = wake;
  wake = [];
  for (const resolve of waiting) resolve();
}
/** Resolves at the next change of `standing`, or at `end` (performance.now() ms) at the latest. */
function changed(end: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, end - performance.now()));
    wake.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
const viewers: Socket[] = [];
for (let i = 0; i < VIEWERS; i++) {
  const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('bid:placed', (event: ServerEventPayload<'bid:placed'>) => {
    const at = performance.now();
    if (event.carId !== watched) return;
    let list = arrivals.get(event.bid.id);
    if (!list) {
      list = [];
      arrivals.set(event.bid.id, list);
      emittedAt.set(event.bid.id, event.emittedAt);
      bidAtCount.set(event.currentBids, event.bid.id);
      if (event.bid.auto) autoBids.add(event.bid.id);
      note(event.currentBids, event.highestBid, event.bid.userId);
    }
    list.push(at);
  });
  viewers.push(socket);
}
await Promise.all(viewers.map((s) => (s.connected ? Promise.resolve() : new Promise<void>((resolve) => s.once('connect', () => resolve())))));

async function watch(carId: number): Promise<void> {
  if (watched) await Promise.all(viewers.map((s) => s.timeout(10_000).emitWithAck('car:leave', { carId: watched })));
  arrivals.clear();
  emittedAt.clear();
  bidAtCount.clear();
  autoBids.clear();
  watched = carId;
  await Promise.all(viewers.map((s) => s.timeout(10_000).emitWithAck('car:join', { carId })));
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/** CPU seconds the server process has used so far (Linux /proc; NaN elsewhere). */
function serverCpuSeconds(): number {
  try {
    const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** One POST's send times and answer. */
interface Sent {
  at: number;
  wallAt: number;
  placed: PlacedBid;
}

/** A bid body: at `amount`, with a random maximum one to five increments above it when `proxy`. */
function bidBody(carId: number, amount: number, proxy: boolean) {
  if (!proxy) return { carId, amount };
  let maxAmount = amount;
  for (let steps = 1 + Math.floor(Math.random() * 5); steps > 0; steps--) maxAmount += bidIncrement(maxAmount);
  return { carId, amount, maxAmount };
}

async function post(token: string, body: object): Promise<{ ms: number; status: number; sent: Sent | null; minimumAmount?: number; code?: string }> {
  const at = performance.now();
  const wallAt = Date.now();
  const res = await http<PlacedBid>(server.url, token, 'POST', '/api/bids', body);
  const ms = performance.now() - at;
  if (res.status === 201) return { ms, status: 201, sent: { at, wallAt, placed: res.body.data } };
  return { ms, status: res.status, sent: null, code: res.body.code, minimumAmount: res.body.details?.minimumAmount as number | undefined };
}

/** Push latencies of the answered POSTs in `sent`: server emit, own bid at each viewer, the request's last bid at each viewer. */
function pushLatencies(sent: Sent[]) {
  const emitted: number[] = [];
  const own: number[] = [];
  const last: number[] = [];
  let missing = 0;
  for (const s of sent) {
    const ownArrivals = arrivals.get(s.placed.bid.id) ?? [];
    missing += VIEWERS - ownArrivals.length;
    for (const at of ownArrivals) own.push(at - s.at);
    const serverAt = emittedAt.get(s.placed.bid.id);
    if (serverAt !== undefined) emitted.push(serverAt - s.wallAt);
    const lastId = bidAtCount.get(s.placed.car.currentBids);
    for (const at of (lastId !== undefined ? arrivals.get(lastId) : undefined) ?? []) last.push(at - s.at);
  }
  return { emitted, own, last, missing };
}

interface PhaseResult {
  name: string;
  requests: number;
  accepted: number;
  tooLow: number;
  other: Map<string, number>;
  recorded: number;
  pushed: number;
  automatic: number;
  seconds: number;
  /** CPU cores busy on average during the phase: the server process's (not PostgreSQL's) and this one's. */
  cpu: { server: number; generator: number };
  latency: number[];
  push: ReturnType<typeof pushLatencies>;
}

/** Phase: every bidder posts at one fresh car, back to back, for SECONDS. */
async function throughputPhase(name: string, proxy: boolean): Promise<PhaseResult> {
  const car = await listCar(name);
  await watch(car.id);
  const latency: number[] = [];
  const sent: Sent[] = [];
  const other = new Map<string, number>();
  let requests = 0;
  let tooLow = 0;
  standing = { count: 0, highest: 0, leaderId: 0 };
  const opening = minimumBid(car.price, null);
  const started = performance.now();
  const cpuBefore = { server: serverCpuSeconds(), generator: process.cpuUsage() };
  const end = started + SECONDS * 1000;
  await Promise.all(
    bidderTokens.map(async (token, i) => {
      const userId = bidderIds[i]!;
      let next = opening;
      while (performance.now() < end) {
        // A bidder who leads sits out until someone outbids them (they watch the room too).
        if (standing.leaderId === userId) {
          await changed(end);
          continue;
        }
        next = Math.max(next, standing.highest + bidIncrement(standing.highest));
        const res = await post(token, bidBody(car.id, next, proxy));
        if (res.sent) note(res.sent.placed.car.currentBids, res.sent.placed.car.highestBid, res.sent.placed.leading ? userId : -1);
        requests++;
        latency.push(res.ms);
        if (res.sent) {
          sent.push(res.sent);
          next = Math.max(next, res.sent.placed.car.highestBid + bidIncrement(res.sent.placed.car.highestBid));
        } else if (res.code === 'BID_TOO_LOW' && res.minimumAmount !== undefined) {
          tooLow++;
          next = res.minimumAmount;
        } else {
          const key = `${res.status} ${res.code ?? ''}`.trim();
          other.set(key, (other.get(key) ?? 0) + 1);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = { server: (serverCpuSeconds() - cpuBefore.server) / seconds, generator: cpuSeconds(process.cpuUsage(cpuBefore.generator)) / seconds };
  // Let the last pushes arrive before reading them.
  await settle(sent);
  // Recorded bids, automatic ones included: the car's counter in the last answer (the last
  // commit), checked against the pushes; the automatic ones by the pushes' `auto`.
  const recorded = Math.max(0, ...sent.map((s) => s.placed.car.currentBids));
  if (recorded !== arrivals.size) console.error(`${name}: ${recorded} bids recorded but ${arrivals.size} pushed`);
  return { name, requests, accepted: sent.length, tooLow, other, recorded, pushed: arrivals.size, automatic: autoBids.size, seconds, cpu, latency, push: pushLatencies(sent) };
}

/** Waits (up to 10 s) until every viewer has every bid the answers in `sent` recorded. */
async function settle(sent: Sent[]): Promise<void> {
  const until = performance.now() + 10_000;
  const complete = () =>
    sent.every((s) => {
      const lastId = bidAtCount.get(s.placed.car.currentBids);
      return (arrivals.get(s.placed.bid.id)?.length ?? 0) >= VIEWERS && lastId !== undefined && (arrivals.get(lastId)?.length ?? 0) >= VIEWERS;
    });
  while (!complete() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Quiet: one bid at a time at a fresh car, waiting for every viewer to have it before the next. */
async function quietPhase(proxy: boolean) {
  const car = await listCar(proxy ? 'quiet maxima' : 'quiet manual');
  await watch(car.id);
  const sent: Sent[] = [];
  let next = minimumBid(car.price, null);
  for (let i = 0; i < QUIET_BIDS; i++) {
    const res = await post(bidderTokens[i % bidderTokens.length]!, bidBody(car.id, next, proxy));
    if (!res.sent) throw new Error(`quiet bid answered ${res.status} ${res.code ?? ''}`);
    sent.push(res.sent);
    next = res.sent.placed.car.highestBid + bidIncrement(res.sent.placed.car.highestBid);
    await settle([res.sent]);
  }
  return pushLatencies(sent);
}

const manual = await throughputPhase('A manual', false);
const maxima = await throughputPhase('B maxima', true);
const quietManual = await quietPhase(false);
const quietMaxima = await quietPhase(true);

for (const socket of viewers) socket.close();
await server.kill();
await database.drop();
loop.disable();

const rate = (n: number, seconds: number) => (n / seconds).toFixed(0);
console.log(`\nProxy bids on one hot fixed-price car, ${database.url ? 'PostgreSQL' : 'the embedded database'}: ${BIDDERS} bidders, ${SECONDS} s per phase, ${VIEWERS} viewers in the room`);
console.log('\n| Phase | requests | requests/s | accepted/s | recorded bids/s (automatic) | 409 share | other answers | request p50 ms | request p99 ms | server / bench CPU |');
console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|---:|');
for (const p of [manual, maxima]) {
  const others = [...p.other].map(([key, n]) => `${key}: ${n}`).join(', ') || '—';
  console.log(
    `| ${p.name} | ${p.requests} | ${rate(p.requests, p.seconds)} | ${rate(p.accepted, p.seconds)} | ${rate(p.recorded, p.seconds)} (${rate(p.automatic, p.seconds)}) | ${((100 * p.tooLow) / p.requests).toFixed(0)} % | ${others} | ${percentile(p.latency, 50).toFixed(0)} | ${percentile(p.latency, 99).toFixed(0)} | ${p.cpu.server.toFixed(2)} / ${p.cpu.generator.toFixed(2)} |`,
  );
}
console.log(`\n${LATENCY_TABLE_HEAD}`);
const rows: [string, ReturnType<typeof pushLatencies>][] = [
  ['A manual, under load', manual.push],
  ['B maxima, under load', maxima.push],
  ['manual, one at a time', quietManual],
  ['maxima, one at a time', quietMaxima],
];
for (const [name, push] of rows) {
  console.log(latencyRow(`${name}: POST → bid:placed sent by the server`, push.emitted));
  console.log(latencyRow(`${name}: POST → own bid at a viewer`, push.own));
  console.log(latencyRow(`${name}: POST → the request's last bid at a viewer`, push.last));
}
const missing = rows.reduce((n, [, push]) => n + push.missing, 0);
console.log(`\nPushes missing at a viewer: ${missing}`);
console.log(`Generator event-loop delay: p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
const consistent = [manual, maxima].every((p) => p.other.size === 0 && p.recorded === p.pushed);
process.exit(missing === 0 && consistent ? 0 : 1);
