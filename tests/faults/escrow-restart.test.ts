import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { notifications, orderEvents, orders, payments } from '../../db/schema/index.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { insertListing } from '../helpers/escrow.ts';
import { http, insertAccounts, serverDatabase, signIn } from '../helpers/server-database.ts';
import { ServerProcesses, canRunTwoProcesses, type ServerProcess } from '../helpers/server-process.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { clockPassed } from '../helpers/wait.ts';

/**
 * Due escrow work survives the server dying: orders whose deadlines pass while the server is
 * killed (kill -9) are moved exactly once after it starts again, and with two processes on one
 * PostgreSQL each due move still happens once.
 */

const DAY_SECONDS = 1;
const SECRET = 'restart-test-secret-0123456789abcdefghij';
const servers = new ServerProcesses();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await servers.killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A buyer, a seller and the seller's listings. */
async function prepare(db: Database, cars: number) {
  const [buyer, seller] = await insertAccounts(db, ['Restart Buyer', 'Restart Seller']);
  const listings = [];
  for (let i = 0; i < cars; i++) listings.push(await insertListing(db, seller!, { price: 60_000 + i * 1_000 }));
  return { buyer: buyer!, seller: seller!, listings };
}

/** Orders waiting to be cancelled (unpaid) and to be accepted (inspection, basic plan), all due within seconds. */
async function openOrders(base: string, buyerToken: string, sellerToken: string, listings: { id: number; price: number }[]) {
  const unpaid: number[] = [];
  const inspecting: number[] = [];
  for (const [i, car] of listings.entries()) {
    const placed = await http<OrderWithEvents>(base, buyerToken, 'POST', '/api/orders', { carId: car.id, amount: car.price, plan: 'basic' });
    expect(placed.status).toBe(201);
    const id = placed.body.data.id;
    if (i % 2 === 0) {
      unpaid.push(id);
      continue;
    }
    expect((await http(base, buyerToken, 'POST', `/api/orders/${id}/pay`, {})).status).toBe(200);
    expect((await http(base, sellerToken, 'POST', `/api/orders/${id}/ship`, { carrier: 'Carrier', trackingNumber: `T-${id}` })).status).toBe(200);
    expect((await http(base, buyerToken, 'POST', `/api/orders/${id}/confirm-delivery`, {})).status).toBe(200);
    inspecting.push(id);
  }
  return { unpaid, inspecting };
}

/** Waits until every order has reached its end. */
async function waitForEnds(base: string, buyerToken: string, unpaid: number[], released: number[]) {
  const read = async (id: number) => (await http<OrderWithEvents>(base, buyerToken, 'GET', `/api/orders/${id}`)).body.data;
  await waitUntil(
    async () => {
      const all = await Promise.all([...unpaid, ...released].map(read));
      return all.every((o) => (unpaid.includes(o.id) ? o.status === 'cancelled' : o.status === 'released' && o.payout?.status === 'settled'));
    },
    60_000,
    'every due order to reach its end',
  );
}

/**
 * Read from the database once the servers have stopped: each order entered each status once,
 * by the expected actor, told each party once, and moved its money once.
 */
async function expectEachMovedOnce(db: Database, buyerId: number, unpaid: number[], released: number[], acceptedBy: Record<number, string> = {}) {
  const ids = [...unpaid, ...released];
  const events = await db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(orderEvents.id);
  const ledger = await db.select().from(payments).where(inArray(payments.orderId, ids));
  const carOf = new Map((await db.select({ id: orders.id, carId: orders.carId }).from(orders).where(inArray(orders.id, ids))).map((o) => [o.id, o.carId]));
  const told = await db
    .select({ carId: notifications.carId, title: notifications.title })
    .from(notifications)
    .where(eq(notifications.userId, buyerId));
  const toldAbout = (id: number, title: string) => told.filter((n) => n.carId === carOf.get(id) && n.title === title).length;
  for (const id of unpaid) {
    expect(events.filter((e) => e.orderId === id).map((e) => `${e.toStatus}:${e.actor}`), `order ${id}`).toEqual(['awaiting_payment:buyer', 'cancelled:system']);
    expect(toldAbout(id, 'Order cancelled'), `order ${id}`).toBe(1);
    expect(ledger.filter((p) => p.orderId === id)).toEqual([]);
  }
  for (const id of released) {
    expect(events.filter((e) => e.orderId === id).map((e) => `${e.toStatus}:${e.actor}`).slice(-2), `order ${id}`).toEqual([`accepted:${acceptedBy[id] ?? 'system'}`, 'released:system']);
    expect(toldAbout(id, 'Purchase complete'), `order ${id}`).toBe(1);
    expect(ledger.filter((p) => p.orderId === id).map((p) => `${p.kind}:${p.status}`).sort(), `order ${id}`).toEqual(['charge:settled', 'fee:settled', 'payout:settled']);
  }
}

async function scenarioDatabase(dataDir: string, cars: number) {
  const database = await serverDatabase(dataDir, (db) => prepare(db, cars));
  cleanups.push(database.drop);
  return database;
}

/**
 * Due orders on the embedded database (or PostgreSQL), a server that `stop` kills (waiting before
 * or after as it likes), and a second server that must then move each order once.
 */
async function restartScenario(cars: number, stop: (first: ServerProcess, buyerToken: string, unpaid: number[], database: () => Promise<{ db: Database; close(): Promise<void> }>) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lm-restart-'));
  const { url, prepared, reopen } = await scenarioDatabase(dataDir, cars);
  const env = { DATA_DIR: dataDir, DATABASE_URL: url, ESCROW_DAY_SECONDS: String(DAY_SECONDS), JOB_POLL_SECONDS: '0.5', JWT_SECRET: SECRET };
  const first = await servers.start(env);
  const [buyerToken, sellerToken] = [await signIn(first.url, prepared.buyer), await signIn(first.url, prepared.seller)];
  const { unpaid, inspecting } = await openOrders(first.url, buyerToken, sellerToken, prepared.listings);
  await stop(first, buyerToken, unpaid, reopen);
  const second = await servers.start(env);
  await waitForEnds(second.url, buyerToken, unpaid, inspecting);
  await second.kill();
  const database = await reopen();
  await expectEachMovedOnce(database.db, prepared.buyer.id, unpaid, inspecting);
  await database.close();
}

describe('escrow deadlines across a kill -9', () => {
  it('moves every order whose deadline passed while the server was dead exactly once after a restart', async () => {
    await restartScenario(8, async (first, _buyerToken, _unpaid, reopen) => {
      await first.kill('SIGKILL');
      // Every deadline passes while no server runs, and every deadline's job comes due.
      const dead = await reopen();
      await dead.db.update(orders).set({ paymentDueAt: sql`least(${orders.paymentDueAt}, now() - interval '1 second')` }).where(eq(orders.status, 'awaiting_payment'));
      await dead.db.update(orders).set({ inspectionEndsAt: sql`least(${orders.inspectionEndsAt}, now() - interval '1 second')` }).where(eq(orders.status, 'inspection'));
      await dead.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'order.deadline' and state in ('created', 'retry')`);
      await dead.close();
    });
  }, 180_000);

  it('loses nothing when killed while due jobs are running', async () => {
    await restartScenario(16, async (first, buyerToken, unpaid) => {
      // Kill it just as the first deadlines come due, while it works through them.
      const dueTimes = await Promise.all(unpaid.map(async (id) => Date.parse((await http<OrderWithEvents>(first.url, buyerToken, 'GET', `/api/orders/${id}`)).body.data.paymentDueAt)));
      await clockPassed(Math.min(...dueTimes) + 300);
      await first.kill('SIGKILL');
    });
  }, 180_000);
});

const twoProcesses = canRunTwoProcesses('escrow-restart');

describe.skipIf(!twoProcesses)('escrow deadlines with two processes on one PostgreSQL', () => {
  it('moves each due order once, whichever process takes the job, and pays out once under racing accepts', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const prepared = await prepare(database.db, 10);
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: `lmtest-restart-${process.pid}`,
      ESCROW_DAY_SECONDS: String(DAY_SECONDS),
      JOB_POLL_SECONDS: '0.5',
      JWT_SECRET: SECRET,
    };
    const [a, b] = await servers.startPair(env, 'restart');
    const [buyerToken, sellerToken] = [await signIn(a.url, prepared.buyer), await signIn(b.url, prepared.seller)];
    const { unpaid, inspecting } = await openOrders(a.url, buyerToken, sellerToken, prepared.listings.slice(0, 8));

    // Twenty accepts of one order, split across both processes: one move, one payout.
    const raced = await openOrders(b.url, buyerToken, sellerToken, prepared.listings.slice(8, 10));
    const target = raced.inspecting[0]!;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => http(i % 2 ? a.url : b.url, buyerToken, 'POST', `/api/orders/${target}/accept`, {})));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);

    await waitForEnds(b.url, buyerToken, [...unpaid, ...raced.unpaid], [...inspecting, target]);
    await Promise.all([a.kill(), b.kill()]);
    await expectEachMovedOnce(database.db, prepared.buyer.id, [...unpaid, ...raced.unpaid], [...inspecting, target], { [target]: 'buyer' });
  }, 180_000);
});
