import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bids, cars, orders } from '../../db/schema/index.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { PlacedBid } from '@common/schemas/bids.ts';
import { listCarOn } from '../helpers/cars.ts';
import { http, insertAccounts, serverDatabase, signIn, type Account } from '../helpers/server-database.ts';
import { ServerProcesses, canRunTwoProcesses } from '../helpers/server-process.ts';
import { connectSocket, record, waitUntil } from '../helpers/sockets.ts';
import { caughtUp, clockPassed, jobsSettledAt } from '../helpers/wait.ts';

/**
 * Auctions close exactly once whatever happens to the servers: killed between the end and the
 * close, or two processes taking bids in the last seconds and both running close jobs.
 */

const SECRET = 'auction-process-secret-0123456789abcdefghij';
const servers = new ServerProcesses();
afterAll(() => servers.closeAll());

const auctionEnv = { AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '2', JOB_POLL_SECONDS: '0.5', JWT_SECRET: SECRET, ESCROW_DAY_SECONDS: '60' };

function listAuction(base: string, sellerToken: string, endsInSeconds: number): Promise<CarDetail> {
  return listCarOn(base, sellerToken, {
    make: 'Mercedes-Benz',
    model: `300SL Gullwing ${Date.now()}`,
    year: 1955,
    price: 50_000,
    mileage: 60_000,
    location: 'Monterey, CA',
    description: 'Concours restoration.',
    auctionInSeconds: endsInSeconds,
  });
}

async function prepared(dataDir: string) {
  const database = await serverDatabase(dataDir, (db) => insertAccounts(db, ['Auction Seller', 'Bidder One', 'Bidder Two']));
  servers.afterKill(database.drop);
  return database;
}

describe('an auction across a kill -9', () => {
  it('closes once, keeping every bid, when the server was dead at the end and starts again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lm-auction-kill-'));
    const database = await prepared(dataDir);
    const [seller, one, two] = database.prepared as [Account, Account, Account];
    const env = { ...auctionEnv, DATA_DIR: dataDir, DATABASE_URL: database.url };
    const first = await servers.start(env);
    const tokens = await Promise.all([seller, one, two].map((a) => signIn(first.url, a)));
    const car = await listAuction(first.url, tokens[0]!, 3);
    const accepted: PlacedBid[] = [];
    for (const [i, amount] of [50_000, 55_000, 60_000].entries()) {
      const res = await http<PlacedBid>(first.url, tokens[1 + (i % 2)]!, 'POST', '/api/bids', { carId: car.id, amount });
      expect(res.status).toBe(201);
      accepted.push(res.body.data);
    }
    await first.kill('SIGKILL');
    // While it is dead, the auction's end passes and its close comes due.
    const dead = await database.reopen();
    await dead.db.update(cars).set({ auctionEndsAt: sql`now() - interval '1 second'` }).where(eq(cars.id, car.id));
    await dead.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'auction.close' and state in ('created', 'retry') and data->>'carId' = ${String(car.id)}`);
    await dead.close();

    const second = await servers.start(env);
    await waitUntil(async () => (await http<CarDetail>(second.url, null, 'GET', `/api/cars/${car.id}`)).body.data.auction?.ended === true, 30_000, 'the auction to close after the restart');
    const closed = (await http<CarDetail>(second.url, null, 'GET', `/api/cars/${car.id}`)).body.data;
    expect(closed.auction).toMatchObject({ outcome: 'sold', ended: true });
    expect(closed.highestBid).toBe(60_000);
    await second.kill();

    const handle = await database.reopen();
    const stored = await handle.db.select({ id: bids.id, amount: bids.amount }).from(bids).where(eq(bids.carId, car.id));
    expect(stored.map((b) => b.amount).sort()).toEqual([50_000, 55_000, 60_000]);
    const sold = await handle.db.select().from(orders).where(eq(orders.carId, car.id));
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({ buyerId: one.id, amount: 60_000 });
    const [row] = await handle.db.select({ closedAt: cars.auctionClosedAt, endsAt: cars.auctionEndsAt }).from(cars).where(eq(cars.id, car.id));
    expect(row!.closedAt!.getTime()).toBeGreaterThanOrEqual(row!.endsAt!.getTime());
    await handle.close();
  }, 120_000);
});

const twoProcesses = canRunTwoProcesses('auctions-processes');

describe.skipIf(!twoProcesses)('an auction on two processes', () => {
  it('takes late bids through both processes and closes once: one outcome, one order', async () => {
    const database = await prepared('');
    const [seller, one, two] = database.prepared as [Account, Account, Account];
    const env = { ...auctionEnv, DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL!, REDIS_PREFIX: `lmtest-auction-${process.pid}` };
    const [a, b] = await servers.startPair(env, 'auction');
    const [sellerToken, oneToken, twoToken] = await Promise.all([seller, one, two].map((acc) => signIn(a.url, acc)));
    const car = await listAuction(a.url, sellerToken!, 3);
    const viewers = await Promise.all([a.url, b.url].map((url) => connectSocket(url)));
    servers.sockets.push(...viewers);
    for (const viewer of viewers) await viewer.timeout(5_000).emitWithAck('car:join', { carId: car.id });
    const endedOn = viewers.map((viewer) => record<{ outcome: string; orderId: number }>(viewer, 'auction:ended'));

    // In the last second, each bidder bids through a different process at the same moment, twice.
    await clockPassed(Date.parse(car.auction!.endsAt) - 1_000);
    const results = [];
    for (const step of [0, 1]) {
      results.push(
        ...(await Promise.all([
          http<PlacedBid>(a.url, oneToken!, 'POST', '/api/bids', { carId: car.id, amount: 60_000 + step * 20_000 }),
          http<PlacedBid>(b.url, twoToken!, 'POST', '/api/bids', { carId: car.id, amount: 70_000 + step * 20_000 }),
        ])),
      );
    }
    const accepted = results.filter((r) => r.status === 201).map((r) => r.body.data);
    expect(accepted.length).toBeGreaterThanOrEqual(2);
    expect(results.every((r) => r.status === 201 || r.body.code === 'BID_TOO_LOW')).toBe(true);
    // The late bids moved the end past the original one.
    expect(Math.max(...accepted.map((p) => Date.parse(p.car.endsAt!)))).toBeGreaterThan(Date.parse(car.auction!.endsAt));

    await waitUntil(() => endedOn.every((seen) => seen.length > 0), 30_000, 'auction:ended on both processes');
    // Every close job has run on one process or the other; a second close would have been pushed by now.
    await jobsSettledAt(a.url, ['auction.close']);
    await Promise.all(viewers.map((viewer) => caughtUp(viewer)));
    expect(endedOn.map((seen) => seen.length)).toEqual([1, 1]);
    expect(endedOn[0]![0]).toEqual(endedOn[1]![0]);
    const handle = await database.reopen();
    expect(await handle.db.select().from(orders).where(eq(orders.carId, car.id))).toHaveLength(1);
    const [row] = await handle.db.select({ endsAt: cars.auctionEndsAt, highestBid: cars.highestBid }).from(cars).where(eq(cars.id, car.id));
    for (const p of accepted) expect(Date.parse(p.bid.timestamp)).toBeLessThan(row!.endsAt!.getTime());
    expect(row!.highestBid).toBe(Math.max(...accepted.map((p) => p.bid.amount)));
  }, 120_000);
});
