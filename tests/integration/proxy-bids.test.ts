import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bids as bidsTable, cars as carsTable } from '../../db/schema/index.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderApi, waitForOrder } from '../helpers/escrow.ts';
import { ProxyModel } from '../helpers/proxy-model.ts';
import { connectSocket, emitAck, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { caughtUp } from '../helpers/wait.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Proxy (maximum) bids, contract "Proxy bids (v3)": the rule with exact amounts, privacy, concurrency. */

let t: TestApp;
const sockets: ClientSocket[] = [];

/** The server's log lines at info level, kept while a test asks for them (`logs.capture()`). */
const logs = {
  lines: null as string[] | null,
  capture(): string[] {
    this.lines = [];
    return this.lines;
  },
  stop() {
    this.lines = null;
  },
};
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logs.lines?.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

beforeAll(async () => {
  // Auctions here may be 2 s long, and any bid within a minute of the end extends it. The car
  // page is drawn by the server (SERVE_CLIENT), and the log goes to `logs` at info level.
  t = await startTestApp({ AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '60', SERVE_CLIENT: 'true' }, undefined, { logger: { level: 'info', stream: logSink } });
  await t.listen();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
  logs.stop();
});
afterAll(async () => {
  await t?.close();
});

const call = requestsTo(() => t);
const bid = (user: SignedInUser, carId: number, amount: number, maxAmount?: number, headers: Record<string, string> = {}) =>
  call('POST', '/api/bids', user, { carId, amount, ...(maxAmount !== undefined ? { maxAmount } : {}) }, headers);
const detail = async (carId: number): Promise<CarDetail> => (await call('GET', `/api/cars/${carId}`)).json().data;
const history = async (carId: number) =>
  ((await call('GET', `/api/bids/car/${carId}`)).json().data.bids as { id: number; userId: number; amount: number; auto: boolean }[]).reverse();
const notificationsOf = async (user: SignedInUser) => (await call('GET', '/api/notifications', user)).json().data.notifications as { title: string; message: string }[];

async function watch(carId: number, token?: string): Promise<ClientSocket> {
  const socket = await connectSocket(t.url, token ? { token } : {});
  sockets.push(socket);
  expect(await emitAck(socket, 'car:join', { carId })).toMatchObject({ ok: true });
  return socket;
}

/** A fixed-price car of its own (asking $100,000: bidding opens at $50,000) with its seller. */
async function car(price = 100_000) {
  const seller = await createUser(t, { name: 'Sam Seller' });
  const listing = await createListing(t, seller, { price });
  return { seller, carId: listing.id };
}

let auctions = 0;
async function auctionCar(endsInSeconds: number, price = 100_000) {
  auctions += 1;
  const seller = await createUser(t);
  const listed = await listCar(t, seller, { model: `918 Proxy ${auctions}`, year: 2015, price, mileage: 4_000, location: 'Scottsdale, AZ', description: 'Auction for proxy bids.', bodyStyle: 'sports', auctionInSeconds: endsInSeconds });
  return { seller, carId: listed.id };
}

/** Neither the field nor the value (as digits or as dollars) appears in `text`. */
function expectNoMax(text: string, max: number, where: string) {
  expect(text, where).not.toMatch(/maxAmount/i);
  expect(text, where).not.toContain(String(max));
  expect(text, where).not.toContain(max.toLocaleString('en-US'));
}

describe('resolving maximums', () => {
  it('records each case of the rule with the exact amounts, pushes every bid in order and tells only who lost the lead', async () => {
    const { seller, carId } = await car();
    const [ann, ben, cat, dan] = [await createUser(t, { name: 'Ann' }), await createUser(t, { name: 'Ben' }), await createUser(t, { name: 'Cat' }), await createUser(t, { name: 'Dan' })];
    const viewer = await watch(carId);
    const pushed = record<{ bid: { userId: number; amount: number; auto: boolean }; currentBids: number; highestBid: number }>(viewer, 'bid:placed');
    const chat = record<{ userId: number; message: string; type: string }>(viewer, 'chat:message');

    // No rival: recorded at the amount; the maximum is told to its owner only.
    let res = await bid(ann, carId, 50_000, 80_000);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ bid: { userId: ann.id, amount: 50_000, auto: false }, car: { currentBids: 1, highestBid: 50_000 }, maxAmount: 80_000, leading: true });

    // A manual bid below Ann's maximum: recorded, then Ann's automatic bid one increment past it.
    res = await bid(ben, carId, 60_000);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ bid: { userId: ben.id, amount: 60_000, auto: false }, car: { currentBids: 3, highestBid: 60_500 }, maxAmount: 60_000, leading: false });

    // A maximum below Ann's: Ben's bid at his maximum, Ann's at min(80,000, 70,000 + 500).
    res = await bid(ben, carId, 61_000, 70_000);
    expect(res.json().data).toMatchObject({ bid: { amount: 70_000, auto: false }, car: { currentBids: 5, highestBid: 70_500 }, maxAmount: 70_000, leading: false });

    // Ann's automatic bid is capped at her maximum.
    res = await bid(dan, carId, 79_900, 79_900);
    expect(res.json().data).toMatchObject({ bid: { amount: 79_900 }, car: { currentBids: 7, highestBid: 80_000 }, leading: false });

    // Cat takes the lead: Ann's maximum is already the highest bid (no automatic bid), Cat's at
    // max(amount, min(120,000, 80,000 + 500)).
    res = await bid(cat, carId, 80_500, 120_000);
    expect(res.json().data).toMatchObject({ bid: { userId: cat.id, amount: 80_500 }, car: { currentBids: 8, highestBid: 80_500 }, maxAmount: 120_000, leading: true });

    // Dan takes the lead with a larger maximum: Cat's automatic bid at her maximum, then Dan's
    // one increment (1,000 at 120,000) past it.
    res = await bid(dan, carId, 81_000, 150_000);
    expect(res.json().data).toMatchObject({ bid: { userId: dan.id, amount: 121_000 }, car: { currentBids: 10, highestBid: 121_000 }, maxAmount: 150_000, leading: true });

    // Equal maximums: the earlier one leads. Ben's bid and Dan's automatic bid share the amount.
    res = await bid(ben, carId, 122_000, 150_000);
    expect(res.json().data).toMatchObject({ bid: { userId: ben.id, amount: 150_000 }, car: { currentBids: 12, highestBid: 150_000 }, leading: false });
    const statusOf = async (user: SignedInUser) => ((await call('GET', '/api/bids/user', user)).json().data.bids as { status: string }[])[0]!.status;
    expect([await statusOf(ben), await statusOf(dan)]).toEqual(['outbid', 'leading']);

    // The leader raising their own bid by hand: recorded at the amount, the maximum stays.
    res = await bid(dan, carId, 152_500);
    expect(res.json().data).toMatchObject({ bid: { userId: dan.id, amount: 152_500, auto: false }, car: { currentBids: 13, highestBid: 152_500 }, maxAmount: 152_500, leading: true });

    const expected = [
      [ann.id, 50_000, false],
      [ben.id, 60_000, false],
      [ann.id, 60_500, true],
      [ben.id, 70_000, false],
      [ann.id, 70_500, true],
      [dan.id, 79_900, false],
      [ann.id, 80_000, true],
      [cat.id, 80_500, false],
      [cat.id, 120_000, true],
      [dan.id, 121_000, false],
      [ben.id, 150_000, false],
      [dan.id, 150_000, true],
      [dan.id, 152_500, false],
    ];
    const recorded = await history(carId);
    expect(recorded.map((b) => [b.userId, b.amount, b.auto])).toEqual(expected);
    expect(await detail(carId)).toMatchObject({ currentBids: 13, highestBid: 152_500 });

    // Every recorded bid pushed in order with the counters after it, and announced in chat
    // without a maximum.
    await waitUntil(() => pushed.length === 13 && chat.length === 13, 5_000, 'every bid pushed');
    expect(pushed.map((p) => [p.bid.userId, p.bid.amount, p.bid.auto])).toEqual(expected);
    expect(pushed.map((p) => [p.currentBids, p.highestBid])).toEqual(expected.map((e, i) => [i + 1, e[1]]));
    expect(chat.map((m) => m.message)).toEqual(expected.map(([, amount, auto]) => `Placed ${auto ? 'an automatic bid' : 'a bid'} of $${amount!.toLocaleString('en-US')}`));
    expect(chat.every((m) => m.type === 'bid')).toBe(true);

    // "Outbid" only on losing the lead: Ann once (to Cat), Cat once (to Dan); Ben never led.
    const outbid = async (user: SignedInUser) => (await notificationsOf(user)).filter((n) => /outbid/i.test(n.title));
    expect(await outbid(ann)).toHaveLength(1);
    expect(await outbid(cat)).toHaveLength(1);
    expect(await outbid(ben)).toHaveLength(0);
    expect(await outbid(dan)).toHaveLength(0);
    // The seller hears of each placement once, with recorded amounts only.
    const sellerNotes = await notificationsOf(seller);
    expect(sellerNotes.filter((n) => n.title === 'New bid on your car')).toHaveLength(8);
    expect(JSON.stringify(sellerNotes)).not.toMatch(/maxAmount|maximum/i);

    // The owner's list: their maximum on their latest bid for the car only.
    const dans = (await call('GET', '/api/bids/user', dan)).json().data.bids as { amount: number; status: string; maxAmount?: number; auto: boolean }[];
    expect(dans.map((b) => [b.amount, b.auto, b.status, b.maxAmount])).toEqual([
      [152_500, false, 'leading', 152_500],
      [150_000, true, 'outbid', undefined],
      [121_000, false, 'outbid', undefined],
      [79_900, false, 'outbid', undefined],
    ]);
    const bens = (await call('GET', '/api/bids/user', ben)).json().data.bids as { amount: number; status: string; maxAmount?: number }[];
    expect(bens[0]).toMatchObject({ amount: 150_000, status: 'outbid', maxAmount: 150_000 });
    const rows = await t.database.db.select().from(bidsTable).where(eq(bidsTable.carId, carId));
    expect(rows.filter((r) => r.auto)).toHaveLength(5);
  });

  it('keeps a leader\'s maximum when they bid again with a lower one, and raises it with a higher one', async () => {
    const { carId } = await car();
    const [ann, ben] = [await createUser(t), await createUser(t)];
    expect((await bid(ann, carId, 50_000, 90_000)).json().data).toMatchObject({ maxAmount: 90_000, leading: true });
    expect((await bid(ann, carId, 50_500, 60_000)).json().data).toMatchObject({ bid: { amount: 50_500 }, maxAmount: 90_000, leading: true });
    // Ben's 85,000 is answered from the standing 90,000.
    expect((await bid(ben, carId, 85_000)).json().data).toMatchObject({ car: { highestBid: 85_500 }, leading: false });
    expect((await bid(ann, carId, 86_000, 95_000)).json().data).toMatchObject({ bid: { amount: 86_000 }, maxAmount: 95_000, leading: true });
    expect((await bid(ben, carId, 94_000)).json().data).toMatchObject({ car: { highestBid: 94_500 }, leading: false });
  });

  it('refuses bad maximums with the contract\'s codes and records nothing', async () => {
    const { carId } = await car();
    const ann = await createUser(t);
    for (const maxAmount of [1.5, '60000', 0, -1, 100_000_001, null]) {
      const res = await call('POST', '/api/bids', ann, { carId, amount: 50_000, maxAmount });
      expect([res.statusCode, res.json().code], String(maxAmount)).toEqual([400, 'VALIDATION_FAILED']);
    }
    const below = await bid(ann, carId, 50_000, 49_999);
    expect([below.statusCode, below.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(below.json().details).toEqual([{ field: 'maxAmount', message: expect.any(String) }]);
    const tooLow = await bid(ann, carId, 49_900, 200_000);
    expect([tooLow.statusCode, tooLow.json().code, tooLow.json().details]).toEqual([409, 'BID_TOO_LOW', { minimumAmount: 50_000, highestBid: null }]);
    expect(await history(carId)).toEqual([]);

    // A maximum on an auction is held to escrow's limit; one at the limit is fine.
    const auction = await auctionCar(600);
    const above = await bid(ann, auction.carId, 100_000, 1_000_001);
    expect([above.statusCode, above.json().code]).toEqual([409, 'ABOVE_ESCROW_LIMIT']);
    expect((await bid(ann, auction.carId, 100_000, 1_000_000)).statusCode).toBe(201);
    // On a fixed-price car the general limit applies.
    expect((await bid(ann, carId, 50_000, 100_000_000)).statusCode).toBe(201);
  });

  it('answers a retry with the same key from the first result, and refuses the key with another maximum', async () => {
    const { carId } = await car();
    const [ann, ben] = [await createUser(t), await createUser(t)];
    await bid(ann, carId, 50_000, 90_000);
    const first = await bid(ben, carId, 60_000, 70_000, { 'idempotency-key': 'proxy-retry-1' });
    const again = await bid(ben, carId, 60_000, 70_000, { 'idempotency-key': 'proxy-retry-1' });
    expect(again.json()).toEqual(first.json());
    const other = await bid(ben, carId, 60_000, 75_000, { 'idempotency-key': 'proxy-retry-1' });
    expect([other.statusCode, other.json().code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await history(carId)).map((b) => b.amount)).toEqual([50_000, 70_000, 70_500]);
  });
});

describe('auctions', () => {
  it('applies soft close to every recorded bid and refuses maximums after the end', async () => {
    const { carId } = await auctionCar(5);
    const [ann, ben] = [await createUser(t), await createUser(t)];
    const viewer = await watch(carId);
    const pushed = record<{ bid: { amount: number; auto: boolean }; endsAt: string }>(viewer, 'bid:placed');
    await bid(ann, carId, 100_000, 300_000);
    const res = await bid(ben, carId, 110_000, 200_000);
    expect(res.json().data).toMatchObject({ bid: { amount: 200_000 }, car: { highestBid: 201_000 }, leading: false });
    await waitUntil(() => pushed.length === 3, 5_000, 'auction bids pushed');
    const { timestamp } = res.json().data.bid as { timestamp: string };
    // Every bid is within the minute before the end, so each moves the end to a minute past it.
    expect(pushed[1]!.endsAt).toBe(new Date(Date.parse(timestamp) + 60_000).toISOString());
    expect(pushed[2]).toMatchObject({ bid: { amount: 201_000, auto: true }, endsAt: pushed[1]!.endsAt });
    expect((await detail(carId)).auction).toMatchObject({ endsAt: pushed[2]!.endsAt });

    const ended = await auctionCar(3);
    await waitUntil(async () => (await detail(ended.carId)).auction?.ended === true, 15_000, 'the auction to end');
    const late = await bid(ann, ended.carId, 100_000, 200_000);
    expect([late.statusCode, late.json().code]).toEqual([409, 'AUCTION_ENDED']);
  });
});

describe('tied maximums', () => {
  it('the earlier maximum leads: only its bid can be accepted, and an auction closes with it as the winner', async () => {
    // Fixed price: the seller may accept only the leading bid, not the other one at the same amount.
    const fixed = await car();
    const [ann, ben] = [await createUser(t), await createUser(t)];
    await bid(ann, fixed.carId, 60_000, 80_000);
    const tied = await bid(ben, fixed.carId, 70_000, 80_000);
    expect(tied.json().data).toMatchObject({ bid: { amount: 80_000 }, car: { highestBid: 80_000 }, leading: false });
    const recorded = await history(fixed.carId);
    const [bensBid, annsAuto] = recorded.slice(-2);
    expect([bensBid, annsAuto].map((b) => [b!.userId, b!.amount, b!.auto])).toEqual([
      [ben.id, 80_000, false],
      [ann.id, 80_000, true],
    ]);
    const refused = await call('POST', `/api/cars/${fixed.carId}/accept-bid`, fixed.seller, { bidId: bensBid!.id });
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'BID_NOT_HIGHEST']);
    const accepted = await call('POST', `/api/cars/${fixed.carId}/accept-bid`, fixed.seller, { bidId: annsAuto!.id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({ buyerId: ann.id, amount: 80_000 });

    // Auction: the close names the same leader.
    const auction = await auctionCar(600);
    await bid(ann, auction.carId, 100_000, 150_000);
    await bid(ben, auction.carId, 120_000, 150_000);
    await t.database.db.update(carsTable).set({ auctionEndsAt: new Date(Date.now() - 1_000) }).where(eq(carsTable.id, auction.carId));
    const result = await t.app.services.auctions.close(auction.carId);
    expect(result).toMatchObject({ outcome: 'sold', winnerId: ann.id, highestBid: 150_000 });
  });
});

describe('privacy of a maximum', () => {
  it('never shows it to anyone but its owner: bids, car, listing, chat, notifications, events', async () => {
    const { seller, carId } = await car();
    const [ann, ben] = [await createUser(t, { name: 'Ann Secret' }), await createUser(t, { name: 'Ben Public' })];
    const SECRET = 87_650;
    const viewer = await watch(carId);
    const benSocket = await watch(carId, ben.accessToken);
    const sellerSocket = await watch(carId, seller.accessToken);
    const seen: string[] = [];
    for (const socket of [viewer, benSocket, sellerSocket]) socket.onAny((event: string, payload: unknown) => seen.push(`${event} ${JSON.stringify(payload)}`));

    const own = await bid(ann, carId, 50_000, SECRET);
    expect(own.json().data).toMatchObject({ maxAmount: SECRET, leading: true });
    const theirs = await bid(ben, carId, 60_000);
    expect(theirs.json().data.car.highestBid).toBe(60_500);
    await waitUntil(() => seen.filter((s) => s.startsWith('bid:placed')).length === 9, 5_000, 'three bids pushed to three viewers');
    // Whatever else the bids pushed (summaries, notifications) is in `seen` too.
    for (const socket of [viewer, benSocket, sellerSocket]) await caughtUp(socket);

    // Ben's own answer carries his maximum, never Ann's.
    expect(theirs.body).not.toContain(String(SECRET));
    const answers = [
      (await call('GET', `/api/bids/car/${carId}`)).body,
      (await call('GET', `/api/bids/car/${carId}`, ben)).body,
      (await call('GET', `/api/cars/${carId}`, ben)).body,
      (await call('GET', `/api/cars/${carId}`, seller)).body,
      (await call('GET', '/api/cars?limit=50&sort=price-high')).body,
      (await call('GET', `/api/chat/car/${carId}`)).body,
      (await call('GET', '/api/notifications', ben)).body,
      (await call('GET', '/api/notifications', seller)).body,
      (await call('GET', '/api/users/me/listings', seller)).body,
      ...seen,
    ];
    answers.forEach((text, i) => expectNoMax(text, SECRET, `answer ${i}: ${text.slice(0, 80)}`));
    expect((await call('GET', '/api/bids/user', ben)).body).not.toContain(String(SECRET));
    expect(seen.some((s) => s.startsWith('notification:new'))).toBe(true);

    // The owner sees it on their latest bid for the car.
    const mine = (await call('GET', '/api/bids/user', ann)).json().data.bids;
    expect(mine.map((b: { amount: number; maxAmount?: number; status: string }) => [b.amount, b.maxAmount, b.status])).toEqual([
      [60_500, SECRET, 'leading'],
      [50_000, undefined, 'outbid'],
    ]);
  });
});

describe('privacy of a maximum, beyond the auction', () => {
  it('keeps leaders\' maximums out of the log at info level, orders, results, offers and the server-drawn car page', async () => {
    const lines = logs.capture();
    // Maximums that stay above the price to the end, so no recorded bid ever equals them: a
    // leak, as digits or as dollars, is the maximum itself.
    const AUCTION_MAX = 123_457;
    const FIXED_MAX = 98_761;
    const [ann, ben, cat, dan] = [await createUser(t, { name: 'Ann Secret' }), await createUser(t, { name: 'Ben Public' }), await createUser(t, { name: 'Cat Secret' }), await createUser(t, { name: 'Dan Public' })];
    const noMax = (text: string, where: string) => {
      for (const max of [AUCTION_MAX, FIXED_MAX]) {
        expect(text, where).not.toMatch(/maxAmount/i);
        // Not inside a longer number (a timestamp or a duration that happens to hold the digits).
        expect(text, where).not.toMatch(new RegExp(`(?<![\\d.])${max}(?!\\d)`));
        expect(text, where).not.toContain(max.toLocaleString('en-US'));
      }
    };

    // An auction Ann leads on a maximum, and a fixed-price car Cat leads on one.
    const auction = await auctionCar(600, 50_000);
    expect((await bid(ann, auction.carId, 50_000, AUCTION_MAX)).json().data).toMatchObject({ maxAmount: AUCTION_MAX, leading: true });
    expect((await bid(ben, auction.carId, 70_000)).json().data).toMatchObject({ car: { highestBid: 70_500 }, leading: false });
    const fixed = await car();
    expect((await bid(cat, fixed.carId, 50_000, FIXED_MAX)).json().data).toMatchObject({ maxAmount: FIXED_MAX, leading: true });
    expect((await bid(dan, fixed.carId, 55_000)).json().data).toMatchObject({ car: { highestBid: 55_500 }, leading: false });
    // An offer on the fixed-price car, so the offers lists have something to show.
    const offer = await call('POST', `/api/cars/${fixed.carId}/offers`, dan, { amount: 80_000 });
    expect(offer.statusCode, offer.body).toBe(201);

    // The car pages while the maximums stand, drawn by the server for a visitor.
    const pages: string[] = [];
    for (const carId of [auction.carId, fixed.carId]) {
      const page = await call('GET', `/car/${carId}`);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      // Drawn with the car's data (its model in the heading), not an empty shell.
      expect(page.body).toContain((await detail(carId)).model);
      pages.push(page.body);
    }

    // Into orders: the auction closes with Ann as the winner; the seller accepts Cat's (automatic) leading bid.
    await t.database.db.update(carsTable).set({ auctionEndsAt: new Date(Date.now() - 1_000) }).where(eq(carsTable.id, auction.carId));
    expect(await t.app.services.auctions.close(auction.carId)).toMatchObject({ outcome: 'sold', winnerId: ann.id, highestBid: 70_500 });
    const leading = (await history(fixed.carId)).at(-1)!;
    expect(leading).toMatchObject({ userId: cat.id, amount: 55_500, auto: true });
    const accepted = await call('POST', `/api/cars/${fixed.carId}/accept-bid`, fixed.seller, { bidId: leading.id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // Ann's order goes all the way to released, so it is a public result.
    const orders = orderApi(t);
    const annsOrder = ((await call('GET', '/api/orders', ann)).json().data.orders as { id: number; carId: number }[]).find((o) => o.carId === auction.carId)!;
    for (const [who, action, body] of [
      [ann, 'pay', {}],
      [auction.seller, 'ship', { carrier: 'Reliable Carriers', trackingNumber: 'RC-123' }],
      [ann, 'confirm-delivery', {}],
      [ann, 'accept', {}],
    ] as const) {
      const res = await orders.act(who, annsOrder.id, action, body);
      expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
    }
    await waitForOrder(t, ann, annsOrder.id, (o) => o.status === 'released');
    const results = await call('GET', '/api/results?limit=50');
    expect(results.json().data.results).toEqual(expect.arrayContaining([expect.objectContaining({ carId: auction.carId, soldPrice: 70_500, via: 'auction' })]));

    for (const carId of [auction.carId, fixed.carId]) pages.push((await call('GET', `/car/${carId}`)).body);
    const reads: [string, string][] = [...pages.map((page, i) => [`car page ${i}`, page] as [string, string]), ['results', results.body]];
    for (const user of [ann, ben, cat, dan, auction.seller, fixed.seller]) {
      reads.push([`orders of user ${user.id}`, (await call('GET', '/api/orders', user)).body]);
      reads.push([`offers of user ${user.id}`, (await call('GET', '/api/offers', user)).body]);
    }
    reads.push(['Ann\'s order', (await orders.get(ann, annsOrder.id)).body]);
    for (const [where, text] of reads) noMax(text, where);
    expect(JSON.parse(reads.find(([where]) => where === `offers of user ${dan.id}`)![1]).data.offers).toHaveLength(1);

    // Every request above (the bids with their maximums among them) was logged at info level; none names a maximum.
    expect(lines.some((line) => line.includes('/api/bids'))).toBe(true);
    lines.forEach((line, i) => noMax(line, `log line ${i}: ${line.slice(0, 160)}`));
  });
});

describe('concurrency', () => {
  it.each([
    ['a fixed-price car', false],
    ['an auction in its last seconds', true],
  ])('resolves 30 bidders with maximums posting at once on %s into the state the rule gives for the commit order', async (_, isAuction) => {
    // The auction ends 4 s from now; every bid lands within the minute before its end, so each moves it.
    const bidders = await Promise.all(Array.from({ length: 30 }, (_, i) => createUser(t, { name: `Racer ${i}` })));
    const { carId } = isAuction ? await auctionCar(4, 50_000) : await car();
    // Maximums in equal pairs (ties), spread over several increment tiers.
    const maxOf = new Map(bidders.map((b, i) => [b.id, 50_000 + ((i * 7) % 15) * 9_500 + (i % 3 === 0 ? 0 : 125)]));
    const sent = new Map<number, { userId: number; amount: number; max: number }>();
    await Promise.all(
      bidders.map(async (bidder) => {
        const max = maxOf.get(bidder.id)!;
        let amount = 50_000;
        for (let attempt = 0; attempt < 40; attempt += 1) {
          const res = await bid(bidder, carId, amount, max);
          if (res.statusCode === 201) {
            sent.set(res.json().data.bid.id, { userId: bidder.id, amount, max });
            return;
          }
          expect(res.json().code, res.body).toBe('BID_TOO_LOW');
          amount = res.json().details.minimumAmount;
          if (amount > max) return;
        }
        throw new Error('too many attempts');
      }),
    );
    // Replay the accepted bids in the order they were decided through the model of the rule.
    const model = new ProxyModel(isAuction ? 50_000 : 100_000, isAuction);
    for (const [, { userId, amount, max }] of [...sent].sort(([a], [b]) => a - b)) expect(model.place(userId, amount, max).ok).toBe(true);
    const recorded = await history(carId);
    expect(recorded.map((b) => [b.userId, b.amount, b.auto])).toEqual(model.bids.map((b) => [b.userId, b.amount, b.auto]));
    const final = await detail(carId);
    expect(final).toMatchObject({ currentBids: model.bids.length, highestBid: model.highestBid });
    // One leader: the largest maximum among those who got a bid in.
    const best = Math.max(...[...sent.values()].map((s) => s.max));
    expect(maxOf.get(recorded.at(-1)!.userId)).toBe(best);
    expect(recorded.at(-1)!.userId).toBe(model.leader);
    for (let i = 1; i < recorded.length; i += 1) {
      const [prev, cur] = [recorded[i - 1]!, recorded[i]!];
      expect(cur.amount).toBeGreaterThanOrEqual(prev.amount);
      if (cur.amount === prev.amount) expect([prev.auto, cur.auto]).toEqual([false, true]);
    }
    const manual = recorded.filter((b) => !b.auto).map((b) => b.amount);
    expect(manual).toEqual([...new Set(manual)].sort((a, b) => a - b));
    if (isAuction) {
      // Soft close: the end is the last recorded bid's time plus the extension, and still ahead.
      const last = (await call('GET', `/api/bids/car/${carId}`)).json().data.bids[0] as { timestamp: string };
      expect(final.auction).toMatchObject({ endsAt: new Date(Date.parse(last.timestamp) + 60_000).toISOString(), ended: false });
    }
  });
});
