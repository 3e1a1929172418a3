import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bids, cars, orders } from '../../db/schema/index.ts';
import { endAfterBid } from '@common/auction-rules.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { orderApi } from '../helpers/escrow.ts';
import { connectSocket, nextEvent, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { clockPassed } from '../helpers/wait.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Auctions here must run at least 2 s, and a bid in the last 2 s moves the end 2 s past it. */
const EXTENSION_SECONDS = 2;

let t: TestApp;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await startTestApp({ AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: String(EXTENSION_SECONDS), ESCROW_DAY_SECONDS: '3', JOB_POLL_SECONDS: '0.5' });
  await t.listen();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

const call = requestsTo(() => t);

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

let made = 0;
async function auction(seller: SignedInUser, auctionFields: { endsAt: string; reservePrice?: number }, price = 100_000): Promise<CarDetail> {
  made += 1;
  return listCar(t, seller, {
    model: `918 Auction ${made}`,
    year: 2015,
    price,
    mileage: 4_000,
    location: 'Scottsdale, AZ',
    description: 'No reserve collector car.',
    bodyStyle: 'sports',
    auction: auctionFields,
  });
}

const detail = async (id: number, user?: SignedInUser): Promise<CarDetail> => (await call('GET', `/api/cars/${id}`, user)).json().data;
const bid = (user: SignedInUser, carId: number, amount: number) => call('POST', '/api/bids', user, { carId, amount });

async function watch(carId: number, token?: string) {
  const socket = await connectSocket(t.url, token ? { token } : {});
  sockets.push(socket);
  await socket.timeout(5_000).emitWithAck('car:join', { carId });
  return socket;
}

describe('listing an auction', () => {
  it('shows the auction to everyone and its reserve to the seller only', async () => {
    const seller = await createUser(t);
    const visitor = await createUser(t);
    const endsAt = inSeconds(60);
    const car = await auction(seller, { endsAt, reservePrice: 150_000 });
    expect(car.auction).toEqual({ endsAt, reserveMet: false, ended: false, hasReserve: true, extensions: 0, outcome: null, acceptUntil: null, reservePrice: 150_000 });
    expect(Date.parse(car.serverTime)).toBeGreaterThan(Date.now() - 5_000);
    const seen = await detail(car.id, visitor);
    expect(seen.auction).toEqual({ endsAt, reserveMet: false, ended: false, hasReserve: true, extensions: 0, outcome: null, acceptUntil: null });
    expect((await call('GET', `/api/cars/${car.id}`)).body).not.toContain('150000');

    const live = (await call('GET', '/api/cars?filter=auctions&sort=ending-soon&limit=50')).json().data.cars as { id: number; auction: { endsAt: string } | null }[];
    expect(live.map((c) => c.id)).toContain(car.id);
    expect(live.every((c) => c.auction !== null)).toBe(true);
    const ends = live.map((c) => Date.parse(c.auction!.endsAt));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const fixed = (await call('GET', '/api/cars?limit=50')).json().data.cars.find((c: { auction: unknown }) => c.auction === null);
    expect(fixed).toBeDefined();
  });

  it.each([
    ['an end sooner than the shortest auction', { endsAt: inSeconds(0.5) }],
    ['an end more than 30 days ahead', { endsAt: inSeconds(31 * 86_400) }],
    ['an end that is not a date', { endsAt: 'tomorrow' }],
    ['a reserve of zero', { endsAt: inSeconds(60), reservePrice: 0 }],
    ['a reserve above a million', { endsAt: inSeconds(60), reservePrice: 1_000_001 }],
    ['an unknown auction field', { endsAt: inSeconds(60), buyNow: 1 }],
  ])('refuses %s', async (_, fields) => {
    const seller = await createUser(t);
    const res = await call('POST', '/api/cars', seller, {
      make: 'Ford',
      model: 'GT',
      year: 2019,
      price: 900_000,
      mileage: 100,
      condition: 'Like New',
      location: 'Detroit, MI',
      description: 'Heritage edition.',
      features: [],
      bodyStyle: 'sports',
      auction: fields,
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('cannot be bought at a price, and its starting price is fixed once there are bids', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const car = await auction(seller, { endsAt: inSeconds(60) });
    const ordered = await call('POST', '/api/orders', buyer, { carId: car.id, amount: car.price });
    expect([ordered.statusCode, ordered.json().code]).toEqual([409, 'AUCTION_LISTING']);
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 90_000 })).statusCode).toBe(200);
    expect((await bid(buyer, car.id, 90_000)).statusCode).toBe(201);
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 80_000 })).json().code).toBe('AUCTION_HAS_BIDS');
    expect((await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: 1 })).json().code).toBe('AUCTION_IN_PROGRESS');
  });
});

describe('bidding', () => {
  it('opens at the starting price and caps bids at the escrow limit', async () => {
    const seller = await createUser(t);
    const bidder = await createUser(t);
    const car = await auction(seller, { endsAt: inSeconds(60) }, 120_000);
    const low = await bid(bidder, car.id, 119_999);
    expect(low.json()).toMatchObject({ code: 'BID_TOO_LOW', details: { minimumAmount: 120_000 } });
    const over = await bid(bidder, car.id, 1_000_001);
    expect([over.statusCode, over.json().code]).toEqual([409, 'ABOVE_ESCROW_LIMIT']);
    expect((await bid(bidder, car.id, 120_000)).statusCode).toBe(201);
    expect((await bid(bidder, car.id, 1_000_000)).statusCode).toBe(201);
  });

  it('moves the end when a bid comes in the last seconds, and tells every viewer', async () => {
    const seller = await createUser(t);
    const bidder = await createUser(t);
    const car = await auction(seller, { endsAt: inSeconds(3) });
    const viewer = await watch(car.id);
    const placed = nextEvent<{ endsAt: string }>(viewer, 'bid:placed');
    // Wait until the last two seconds, then bid.
    await clockPassed(Date.parse(car.auction!.endsAt) - 1_200);
    const res = await bid(bidder, car.id, car.price);
    expect(res.statusCode).toBe(201);
    const { bid: accepted, car: after } = res.json().data;
    expect(Date.parse(after.endsAt)).toBe(Date.parse(accepted.timestamp) + EXTENSION_SECONDS * 1000);
    expect(Date.parse(after.endsAt)).toBeGreaterThan(Date.parse(car.auction!.endsAt));
    expect((await placed).endsAt).toBe(after.endsAt);
    expect((await detail(car.id)).auction).toMatchObject({ endsAt: after.endsAt, extensions: 1, ended: false });
    // A bid well before the end leaves it where it is.
    const early = await auction(seller, { endsAt: inSeconds(60) });
    const ok = (await bid(bidder, early.id, early.price)).json().data;
    expect(ok.car.endsAt).toBe(early.auction!.endsAt);
  });

  it('decides "in time" by the server: exactly at the end is too late', () => {
    const end = new Date('2026-11-23T12:00:00.000Z');
    const before = new Date(end.getTime() - 1);
    expect(endAfterBid(end, before, 120).getTime()).toBe(before.getTime() + 120_000);
    expect(endAfterBid(end, new Date(end.getTime() - 121_000), 120)).toBe(end);
  });
});

describe('closing', () => {
  it('sells to the highest bidder at the end: one order, everyone told, no bid after', async () => {
    const seller = await createUser(t, { name: 'Auction Seller' });
    const [first, winner] = [await createUser(t), await createUser(t, { name: 'Winning Bidder' })];
    const car = await auction(seller, { endsAt: inSeconds(4), reservePrice: 110_000 });
    const below = await bid(first, car.id, 100_000);
    expect([below.statusCode, below.json().data.car.reserveMet]).toEqual([201, false]);
    expect((await detail(car.id)).auction?.reserveMet).toBe(false);
    const winning = (await bid(winner, car.id, 112_000)).json().data;
    expect(winning.car.reserveMet).toBe(true);
    expect((await detail(car.id)).auction?.reserveMet).toBe(true);
    const viewer = await watch(car.id);
    const winnerSocket = await connectSocket(t.url, { token: winner.accessToken });
    sockets.push(winnerSocket);
    const ended = nextEvent<{ carId: number; outcome: string; highestBid: number; winnerId: number; orderId: number; emittedAt: number }>(viewer, 'auction:ended', undefined, 15_000);
    const toldWinner = nextEvent<{ title: string }>(winnerSocket, 'notification:new', (n) => n.title === 'You won the auction', 15_000);

    const result = await ended;
    expect(result).toMatchObject({ carId: car.id, outcome: 'sold', highestBid: 112_000, winnerId: winner.id, orderId: expect.any(Number) });
    expect(result.emittedAt).toBeGreaterThanOrEqual(Date.parse(winning.car.endsAt));
    await toldWinner;
    const order = (await orderApi(t).get(winner, result.orderId)).json().data;
    expect(order).toMatchObject({ buyerId: winner.id, carId: car.id, amount: 112_000, plan: 'premium', status: 'awaiting_payment' });
    expect(order.events[0]).toMatchObject({ actor: 'system', note: 'Won at auction with a bid of $112,000' });
    expect((await detail(car.id)).auction).toMatchObject({ ended: true, outcome: 'sold' });
    expect((await detail(car.id)).status).toBe('ended');
    const late = await bid(first, car.id, 200_000);
    expect([late.statusCode, late.json().code]).toEqual([409, 'AUCTION_ENDED']);
    const sellerTitles = (await call('GET', '/api/notifications', seller)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(sellerTitles).toContain('Your auction sold');
    const loserTitles = (await call('GET', '/api/notifications', first)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(loserTitles).toContain('Auction ended');
    // Closing again, even many times at once, changes nothing.
    const again = await Promise.all(Array.from({ length: 5 }, () => t.app.services.auctions.close(car.id)));
    expect(again).toEqual([null, null, null, null, null]);
    expect(await t.database.db.select().from(orders).where(eq(orders.carId, car.id))).toHaveLength(1);
    // The winner pays: the car is taken.
    expect((await orderApi(t).act(winner, result.orderId, 'pay')).statusCode).toBe(200);
    expect((await detail(car.id)).status).toBe('pending');
  });

  it('lets the seller accept the highest bid for one escrow day when the reserve is not met', async () => {
    const seller = await createUser(t);
    const bidder = await createUser(t);
    const car = await auction(seller, { endsAt: inSeconds(2.5), reservePrice: 500_000 });
    const placed = (await bid(bidder, car.id, 150_000)).json().data.bid;
    await waitUntil(async () => (await detail(car.id)).auction?.ended === true, 15_000, 'the auction to close');
    const closed = await detail(car.id, seller);
    expect(closed.auction).toMatchObject({ outcome: 'reserve_not_met', reserveMet: false, acceptUntil: expect.any(String) });
    // My Listings says the same, so the seller can act from there.
    const mine = (await call('GET', '/api/users/me/listings', seller)).json().data.listings.find((l: { id: number }) => l.id === car.id);
    expect(mine).toMatchObject({ auctionOutcome: 'reserve_not_met', acceptUntil: closed.auction!.acceptUntil, highestBid: 150_000, highest_bid: 150_000 });
    expect(await t.database.db.select().from(orders).where(eq(orders.carId, car.id))).toEqual([]);
    const accepted = await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: placed.id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({ buyerId: bidder.id, amount: 150_000, plan: 'premium' });

    // Another such auction, a day (3 s here) later: too late.
    const other = await auction(seller, { endsAt: inSeconds(2.5), reservePrice: 500_000 });
    const late = (await bid(bidder, other.id, 150_000)).json().data.bid;
    await waitUntil(async () => (await detail(other.id)).auction?.ended === true, 15_000, 'the auction to close');
    await t.database.db.update(cars).set({ auctionClosedAt: sql`now() - interval '4 seconds'` }).where(eq(cars.id, other.id));
    expect((await call('POST', `/api/cars/${other.id}/accept-bid`, seller, { bidId: late.id })).json().code).toBe('ACCEPT_WINDOW_CLOSED');
  });

  it('ends without bids', async () => {
    const seller = await createUser(t);
    const car = await auction(seller, { endsAt: inSeconds(2.5) });
    const viewer = await watch(car.id);
    const ended = await nextEvent<{ outcome: string; winnerId: number | null; orderId: number | null; highestBid: number | null }>(viewer, 'auction:ended', undefined, 15_000);
    expect(ended).toMatchObject({ outcome: 'no_bids', winnerId: null, orderId: null, highestBid: null });
    const titles = (await call('GET', '/api/notifications', seller)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(titles).toContain('Auction ended without bids');
  });

  it('keeps every bid accepted before the end and refuses every one after it, in a storm across the end', async () => {
    const seller = await createUser(t);
    const bidders = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    const car = await auction(seller, { endsAt: inSeconds(2.5) }, 10_000);
    const viewer = await watch(car.id);
    const closed = nextEvent<{ highestBid: number }>(viewer, 'auction:ended', undefined, 20_000);
    const firstBidAt = Date.parse(car.auction!.endsAt) - 500;
    // 50 bids over about a second and a half around the end, each new amount higher than the last.
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await clockPassed(firstBidAt + i * 30);
        return bid(bidders[i % bidders.length]!, car.id, 10_000 + i * 1_000);
      }),
    );
    const result = await closed;
    const accepted = results.filter((r) => r.statusCode === 201).map((r) => r.json().data);
    const ended = results.filter((r) => r.json().code === 'AUCTION_ENDED').map((r) => r.json().details);
    expect(results.every((r) => r.statusCode === 201 || ['AUCTION_ENDED', 'BID_TOO_LOW'].includes(r.json().code))).toBe(true);
    expect(accepted.length).toBeGreaterThan(0);
    const [final] = await t.database.db.select({ endsAt: cars.auctionEndsAt, closedAt: cars.auctionClosedAt, highestBid: cars.highestBid }).from(cars).where(eq(cars.id, car.id));
    // Every accepted bid came before the end (as it stood when the bid came), and the close after the final end.
    for (const a of accepted) expect(Date.parse(a.bid.timestamp)).toBeLessThan(Date.parse(a.car.endsAt));
    for (const a of accepted) expect(Date.parse(a.bid.timestamp)).toBeLessThan(final!.endsAt!.getTime());
    expect(final!.closedAt!.getTime()).toBeGreaterThanOrEqual(final!.endsAt!.getTime());
    // Every refusal for lateness was decided at or after the final end: none was in time.
    for (const refusal of ended) expect(Date.parse(refusal.decidedAt)).toBeGreaterThanOrEqual(final!.endsAt!.getTime());
    // Nothing accepted was lost: the stored bids are exactly the accepted ones, and the winner is the last of them.
    const stored = await t.database.db.select({ id: bids.id }).from(bids).where(eq(bids.carId, car.id));
    expect(stored.map((b) => b.id).sort()).toEqual(accepted.map((a) => a.bid.id).sort());
    expect(result.highestBid).toBe(Math.max(...accepted.map((a) => a.bid.amount)));
    expect(final!.highestBid).toBe(result.highestBid);
  });

  it('reminds bidders and watchers (never the seller) once, an hour before the end', async () => {
    const seller = await createUser(t);
    const [bidder, watcher] = [await createUser(t), await createUser(t)];
    const car = await auction(seller, { endsAt: inSeconds(600) });
    await bid(bidder, car.id, car.price);
    await call('POST', '/api/watchlist', watcher, { carId: car.id });
    const watcherSocket = await connectSocket(t.url, { token: watcher.accessToken });
    sockets.push(watcherSocket);
    const seen = record<{ title: string }>(watcherSocket, 'notification:new');
    await t.app.services.auctions.remind(car.id, 3600);
    await t.app.services.auctions.remind(car.id, 3600);
    await waitUntil(() => seen.some((n) => n.title === 'Auction ending in 1 hour'), 5_000, 'the reminder');
    for (const user of [bidder, watcher]) {
      const titles = (await call('GET', '/api/notifications', user)).json().data.notifications.map((n: { title: string }) => n.title);
      expect(titles.filter((title: string) => title === 'Auction ending in 1 hour')).toHaveLength(1);
    }
    const sellerTitles = (await call('GET', '/api/notifications', seller)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(sellerTitles).not.toContain('Auction ending in 1 hour');
  });
});
