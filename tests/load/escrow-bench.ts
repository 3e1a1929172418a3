/**
 * `npm run bench:escrow`: how fast orders move through escrow, and how long due work waits.
 *
 *   npm run bench:escrow -- [--orders 40] [--day-seconds 2] [--poll 1] [--postgres]
 *
 * Starts a server process of its own (embedded database in a temporary folder, or with
 * --postgres a fresh database on BENCH_DATABASE_URL's server), creates accounts and listings in
 * its database before it starts, then measures over HTTP and Socket.IO:
 * - each party move (pay, ship, confirm-delivery, accept): request to answer;
 * - accept → released: the answer to the `order:updated` that says released (the payout job);
 * - a deadline to its move: paymentDueAt → the system's `cancelled` event, and inspectionEndsAt
 *   → `accepted`, by the database's own timestamps (how long a due job waits).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { benchArgs, chooseBenchDatabase, LATENCY_TABLE_HEAD, latencyRow, endWithBench } from '../helpers/bench.ts';
import { insertListing } from '../helpers/escrow.ts';
import { insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { sleep } from '../helpers/sockets.ts';

const values = benchArgs('Usage: npm run bench:escrow -- [--orders 40] [--day-seconds 2] [--poll 1] [--postgres]', {
  orders: { type: 'string', default: '40' },
  'day-seconds': { type: 'string', default: '2' },
  poll: { type: 'string', default: '1' },
  postgres: { type: 'boolean', default: false },
});

const ORDERS = Number(values.orders);
const DAY_SECONDS = Number(values['day-seconds']);

chooseBenchDatabase(values.postgres);
const dataDir = mkdtempSync(join(tmpdir(), 'lm-escrow-bench-'));
// Accounts and listings, written before the server owns the database.
const database = await serverDatabase(dataDir, async (db) => {
  const [buyer, seller] = await insertAccounts(db, ['Bench Buyer', 'Bench Seller']);
  const listings = [];
  for (let i = 0; i < ORDERS * 2; i++) listings.push(await insertListing(db, seller!, { price: 50_000 + i * 100 }));
  return { buyer: buyer!, seller: seller!, listings };
});
const { buyer, seller, listings } = database.prepared;

const server = await startServerProcess({
  DATA_DIR: dataDir,
  DATABASE_URL: database.url,
  ESCROW_DAY_SECONDS: String(DAY_SECONDS),
  JOB_POLL_SECONDS: values.poll!,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
});
endWithBench(server);

async function call<T>(token: string | null, method: string, path: string, body?: object): Promise<{ ms: number; status: number; data: T }> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: T };
  return { ms: performance.now() - started, status: res.status, data: json.data };
}
const [buyerToken, sellerToken] = [await signIn(server.url, buyer), await signIn(server.url, seller)];

const timings: Record<string, number[]> = { pay: [], ship: [], 'confirm-delivery': [], accept: [], 'accept → released': [] };
const released = new Map<number, () => void>();
const socket = io(server.url, { auth: { token: sellerToken }, transports: ['websocket'] });
socket.on('order:updated', ({ order }: { order: OrderWithEvents }) => {
  if (order.status === 'released') released.get(order.id)?.();
});
await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

// 1. Moves, one order at a time (a quiet server: latency, not throughput).
for (const car of listings.slice(0, ORDERS)) {
  const order = (await call<OrderWithEvents>(buyerToken, 'POST', '/api/orders', { carId: car.id, amount: car.price })).data;
  for (const [action, who, body] of [
    ['pay', buyerToken, {}],
    ['ship', sellerToken, { carrier: 'Bench Carriers', trackingNumber: `B-${order.id}` }],
    ['confirm-delivery', buyerToken, {}],
  ] as const) {
    const res = await call(who, 'POST', `/api/orders/${order.id}/${action}`, body);
    if (res.status !== 200) throw new Error(`${action} answered ${res.status}`);
    timings[action]!.push(res.ms);
  }
  const done = new Promise<void>((resolve) => released.set(order.id, resolve));
  const accepted = await call(buyerToken, 'POST', `/api/orders/${order.id}/accept`, {});
  timings.accept!.push(accepted.ms);
  const startedAt = performance.now() - accepted.ms;
  await done;
  timings['accept → released']!.push(performance.now() - startedAt);
}

// 2. Deadlines: unpaid orders and inspections left to run out, all at once.
const unpaid: OrderWithEvents[] = [];
const inspecting: OrderWithEvents[] = [];
for (const [i, car] of listings.slice(ORDERS).entries()) {
  const order = (await call<OrderWithEvents>(buyerToken, 'POST', '/api/orders', { carId: car.id, amount: car.price, plan: 'basic' })).data;
  if (i % 2 === 0) {
    unpaid.push(order);
    continue;
  }
  await call(buyerToken, 'POST', `/api/orders/${order.id}/pay`, {});
  await call(sellerToken, 'POST', `/api/orders/${order.id}/ship`, { carrier: 'Bench', trackingNumber: 'B' });
  inspecting.push((await call<OrderWithEvents>(buyerToken, 'POST', `/api/orders/${order.id}/confirm-delivery`, {})).data);
}
await sleep(3 * DAY_SECONDS * 1000 + 3_000 + ORDERS * 50);
const waits = { 'payment window → cancelled': [] as number[], 'inspection end → accepted': [] as number[] };
for (const order of unpaid) {
  const now = (await call<OrderWithEvents>(buyerToken, 'GET', `/api/orders/${order.id}`)).data;
  const moved = now.events.find((e) => e.to === 'cancelled');
  if (!moved) throw new Error(`order ${order.id} was not cancelled in time: ${JSON.stringify(now)}`);
  waits['payment window → cancelled'].push(Date.parse(moved.at) - Date.parse(order.paymentDueAt));
}
for (const order of inspecting) {
  const now = (await call<OrderWithEvents>(buyerToken, 'GET', `/api/orders/${order.id}`)).data;
  const moved = now.events.find((e) => e.to === 'accepted');
  if (!moved) throw new Error(`order ${order.id} was not accepted in time`);
  waits['inspection end → accepted'].push(Date.parse(moved.at) - Date.parse(order.inspectionEndsAt!));
}

socket.close();
await server.kill();
await database.drop();

console.log(`\nEscrow on ${database.url ? 'PostgreSQL' : 'the embedded database'}, JOB_POLL_SECONDS=${values.poll}, ESCROW_DAY_SECONDS=${DAY_SECONDS}\n`);
console.log(LATENCY_TABLE_HEAD);
for (const [name, list] of Object.entries({ ...timings, ...waits })) console.log(latencyRow(name, list));
process.exit(0);
