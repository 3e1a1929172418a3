import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notifications as notificationsTable, offerEvents, offers as offersTable, orders as ordersTable } from '../../db/schema/index.ts';
import type { Offer } from '@common/schemas/offers.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { OFFER_TRANSITIONS } from '@common/offer-lifecycle.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderApi } from '../helpers/escrow.ts';
import { connectSocket, nextEvent, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { caughtUp, quietFor } from '../helpers/wait.ts';
import { listCar } from '../helpers/cars.ts';
import { requestsTo } from '../helpers/api.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Private offers, counter-offers and second-chance offers: contract §"Offers and second chance (v3)". */

/** One escrow day lasts 2 s here: an open offer lives 4 s after its last move. */
const DAY_SECONDS = 2;

let t: TestApp;
let api: ReturnType<typeof orderApi>;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await startTestApp({ ESCROW_DAY_SECONDS: String(DAY_SECONDS), JOB_POLL_SECONDS: '0.5', AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1' });
  await t.listen();
  api = orderApi(t);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t?.close();
});

const call = requestsTo(() => t);
const offerOn = (buyer: SignedInUser, carId: number, amount: number, extra: object = {}, headers: Record<string, string> = {}) =>
  call('POST', `/api/cars/${carId}/offers`, buyer, { amount, ...extra }, headers);
const move = (user: SignedInUser | undefined, offerId: number, action: string, body: object = {}, headers: Record<string, string> = {}) =>
  call('POST', `/api/offers/${offerId}/${action}`, user, body, headers);
const notificationsOf = async (user: SignedInUser) =>
  (await call('GET', '/api/notifications', user)).json().data.notifications as { title: string; message: string; carId: number | null }[];
const notificationCount = async (user: SignedInUser) =>
  (await t.database.db.select({ id: notificationsTable.id }).from(notificationsTable).where(eq(notificationsTable.userId, user.id))).length;
/** Asserts a move succeeded. */
const ok = async (answer: Promise<{ statusCode: number; body: string }>) => {
  const res = await answer;
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
};
const stored = async (offerId: number) => {
  const [row] = await t.database.db.select().from(offersTable).where(eq(offersTable.id, offerId));
  const history = await t.database.db.select().from(offerEvents).where(eq(offerEvents.offerId, offerId));
  return { row: row!, history };
};

async function listen(user: SignedInUser) {
  const socket = await connectSocket(t.url, { token: user.accessToken });
  sockets.push(socket);
  return socket;
}

/** A seller with a fixed-price car (asking $100,000 unless told), and a buyer. */
async function deal(price = 100_000) {
  const [buyer, seller] = await Promise.all([createUser(t, { name: 'Blair Buyer' }), createUser(t, { name: 'Sam Seller' })]);
  const car = await createListing(t, seller, { price });
  return { buyer, seller, car };
}

async function openOffer(amount = 80_000) {
  const parties = await deal();
  const res = await offerOn(parties.buyer, parties.car.id, amount);
  expect(res.statusCode, res.body).toBe(201);
  return { ...parties, offer: res.json().data as Offer };
}

describe('negotiating a fixed-price car', () => {
  it('takes an offer through two counters each way to an escrow order, telling and pushing to the other party at every move', async () => {
    const { buyer, seller, car } = await deal(100_000);
    const buyerSocket = await listen(buyer);
    const sellerSocket = await listen(seller);
    const buyerPushes = record<{ offer: Offer }>(buyerSocket, 'offer:updated');
    const sellerPushes = record<{ offer: Offer }>(sellerSocket, 'offer:updated');

    const made = await offerOn(buyer, car.id, 80_000, { message: 'Cash buyer, can collect next week.' });
    expect(made.statusCode, made.body).toBe(201);
    const offer: Offer = made.json().data;
    expect(offer).toMatchObject({
      carId: car.id,
      buyer: { id: buyer.id, name: 'Blair Buyer' },
      amount: 80_000,
      by: 'buyer',
      status: 'open',
      orderId: null,
      secondChance: false,
      message: 'Cash buyer, can collect next week.',
      history: [{ by: 'buyer', action: 'offer', amount: 80_000 }],
      car: { id: car.id, price: 100_000, isAuction: false },
    });
    expect(Date.parse(offer.expiresAt) - Date.parse(offer.createdAt)).toBeCloseTo(2 * DAY_SECONDS * 1000, -2);
    await waitUntil(() => sellerPushes.length === 1 && buyerPushes.length === 1, 5_000, 'offer:updated to both parties');
    expect(sellerPushes[0]!.offer).toMatchObject({ id: offer.id, amount: 80_000, by: 'buyer' });
    await waitUntil(async () => (await notificationsOf(seller)).some((n) => n.title === 'New offer'));
    expect((await notificationsOf(seller)).find((n) => n.title === 'New offer')).toMatchObject({
      message: `Offer #${offer.id}: Blair Buyer offers $80,000 for the 2022 Porsche ${(await carModel(car.id))}. Answer by ${deadlineWords(offer.expiresAt)}.`,
      carId: car.id,
    });

    const steps: [SignedInUser, number, 'seller' | 'buyer'][] = [
      [seller, 95_000, 'seller'],
      [buyer, 85_000, 'buyer'],
      [seller, 90_000, 'seller'],
      [buyer, 88_000, 'buyer'],
    ];
    let current = offer;
    for (const [party, amount, by] of steps) {
      const res = await move(party, offer.id, 'counter', { amount });
      expect(res.statusCode, res.body).toBe(200);
      current = res.json().data;
      expect(current).toMatchObject({ amount, by, status: 'open' });
      // A counter restarts the offer's two escrow days.
      expect(Date.parse(current.expiresAt)).toBeGreaterThan(Date.parse(offer.expiresAt));
      const other = party === buyer ? seller : buyer;
      await waitUntil(async () => (await notificationsOf(other)).some((n) => n.title === 'Counter-offer' && n.message.includes(`counters with $${amount.toLocaleString('en-US')}`)));
    }
    await waitUntil(() => sellerPushes.length === 5 && buyerPushes.length === 5, 5_000, 'a push per move');

    const accepted = await move(seller, offer.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(201);
    const order: OrderWithEvents = accepted.json().data;
    // The smallest plan that covers $88,000 is Basic Protection.
    expect(order).toMatchObject({ carId: car.id, buyerId: buyer.id, amount: 88_000, plan: 'basic', escrowFee: 199, status: 'awaiting_payment' });
    const after: Offer = (await call('GET', `/api/offers/${offer.id}`, buyer)).json().data;
    expect(after).toMatchObject({ status: 'accepted', orderId: order.id, amount: 88_000, by: 'buyer' });
    expect(after.history.map((h) => [h.by, h.action, h.amount])).toEqual([
      ['buyer', 'offer', 80_000],
      ['seller', 'counter', 95_000],
      ['buyer', 'counter', 85_000],
      ['seller', 'counter', 90_000],
      ['buyer', 'counter', 88_000],
      ['seller', 'accept', 88_000],
    ]);
    await waitUntil(() => buyerPushes.some((p) => p.offer.status === 'accepted'), 5_000, 'accepted pushed to the buyer');
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.title === 'Offer accepted' && n.message.includes(`Order #${order.id} awaits your payment`)));

    // Both parties list it; nobody else sees it.
    for (const party of [buyer, seller]) {
      const listed = (await call('GET', '/api/offers', party)).json().data.offers as Offer[];
      expect(listed.map((o) => o.id)).toContain(offer.id);
    }
    const stranger = await createUser(t);
    expect((await call('GET', `/api/offers/${offer.id}`, stranger)).statusCode).toBe(404);
    expect(((await call('GET', '/api/offers', stranger)).json().data.offers as Offer[]).length).toBe(0);
  });

  it('lets the party who made the amount withdraw it, and the other decline it', async () => {
    const first = await openOffer();
    const withdrawn = await move(first.buyer, first.offer.id, 'withdraw');
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data).toMatchObject({ status: 'withdrawn' });
    await waitUntil(async () => (await notificationsOf(first.seller)).some((n) => n.title === 'Offer withdrawn'));
    // Closed, the buyer may make a new one.
    expect((await offerOn(first.buyer, first.car.id, 81_000)).statusCode).toBe(201);

    const second = await openOffer();
    const declined = await move(second.seller, second.offer.id, 'decline');
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().data).toMatchObject({ status: 'declined', history: [{ action: 'offer' }, { by: 'seller', action: 'decline', amount: 80_000 }] });
    await waitUntil(async () => (await notificationsOf(second.buyer)).some((n) => n.title === 'Offer declined'));
  });
});

describe('bad input and wrong moves', () => {
  // An app with escrow days of their real length: these tests take many moves, and on a loaded
  // machine 4 s is not enough for them, so an offer would lapse (or an order's payment window
  // end) while they run. Expiry itself is tested below.
  let shortDays: TestApp;
  beforeAll(async () => {
    shortDays = t;
    t = await startTestApp({ JOB_POLL_SECONDS: '0.5', AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1' });
    await t.listen();
  });
  afterAll(async () => {
    await t.close();
    t = shortDays;
  });

  it('refuses amounts outside the ranges with 400 naming the field, and changes nothing', async () => {
    const { buyer, seller, car } = await deal(100_000);
    for (const amount of [100_000, 100_001, 0, -5]) {
      const res = await offerOn(buyer, car.id, amount);
      expect(res.statusCode, `${amount}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'amount' }] });
    }
    for (const body of [{ amount: '90000' }, {}, { amount: 90_000.5 }, { amount: 90_000, extra: 1 }, { amount: 90_000, message: '' }, { amount: 90_000, message: 'x'.repeat(501) }]) {
      const res = await call('POST', `/api/cars/${car.id}/offers`, buyer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect(((await call('GET', '/api/offers', buyer)).json().data.offers as Offer[]).length).toBe(0);

    const { offer } = { offer: (await offerOn(buyer, car.id, 80_000)).json().data as Offer };
    // The seller's counter lies strictly between the buyer's $80,000 and the asking $100,000.
    for (const amount of [80_000, 79_000, 100_000, 120_000]) {
      const res = await move(seller, offer.id, 'counter', { amount });
      expect(res.statusCode, `seller ${amount}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'amount', message: 'Counter with between $80,001 and $99,999.' }] });
    }
    expect((await move(seller, offer.id, 'counter', { amount: 90_000 })).statusCode).toBe(200);
    // The buyer's lies strictly between their $80,000 and the seller's $90,000.
    for (const amount of [80_000, 90_000, 95_000]) expect((await move(buyer, offer.id, 'counter', { amount })).statusCode, `buyer ${amount}`).toBe(400);
    expect((await move(buyer, offer.id, 'counter', { amount: 89_999 })).statusCode).toBe(200);
    // $89,999 against the buyer's $89,999 and ... the seller has one dollar of room: $89,999 < x < $100,000.
    expect((await move(seller, offer.id, 'counter', { amount: 89_999 })).statusCode).toBe(400);
    expect((await move(seller, offer.id, 'counter', { amount: 90_000 })).statusCode).toBe(200);
    // Now the buyer has no room: between $89,999 and $90,000 there is no whole dollar.
    const none = await move(buyer, offer.id, 'counter', { amount: 89_999 });
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].message).toBe('There is no room left to counter: accept or decline the amount on the table.');
    const { row, history } = await stored(offer.id);
    expect(row).toMatchObject({ amount: 90_000, amountBy: 'seller', status: 'open' });
    expect(history).toHaveLength(4);
  });

  it('answers every move by every wrong party and from every closed state with the contract\'s code, and changes nothing', async () => {
    const [buyer, seller, stranger] = await Promise.all([createUser(t, { name: 'Blair Buyer' }), createUser(t, { name: 'Sam Seller' }), createUser(t)]);
    const pushes = {
      buyer: record<{ offer: Offer }>(await listen(buyer), 'offer:updated'),
      seller: record<{ offer: Offer }>(await listen(seller), 'offer:updated'),
      stranger: record<{ offer: Offer }>(await listen(stranger), 'offer:updated'),
    };
    const users = { buyer, seller, stranger };
    type Who = keyof typeof users;

    // One offer in each state the parties can meet, all between the same buyer and seller (one car each).
    const expire = (id: number) =>
      t.database.db.update(offersTable).set({ expiresAt: sql`now()` }).where(eq(offersTable.id, id)).then(() => t.app.services.offers.expire(id));
    const states: { name: string; by: 'buyer' | 'seller'; status: string; moves: (id: number) => Promise<unknown> }[] = [
      { name: 'open, the buyer\'s amount', by: 'buyer', status: 'open', moves: async () => {} },
      { name: 'open, the seller\'s amount', by: 'seller', status: 'open', moves: (id) => ok(move(seller, id, 'counter', { amount: 95_000 })) },
      { name: 'accepted', by: 'buyer', status: 'accepted', moves: (id) => ok(move(seller, id, 'accept')) },
      { name: 'declined', by: 'buyer', status: 'declined', moves: (id) => ok(move(seller, id, 'decline')) },
      { name: 'withdrawn', by: 'buyer', status: 'withdrawn', moves: (id) => ok(move(buyer, id, 'withdraw')) },
      { name: 'expired', by: 'buyer', status: 'expired', moves: expire },
      { name: 'accepted after a seller counter', by: 'seller', status: 'accepted', moves: (id) => ok(move(seller, id, 'counter', { amount: 95_000 })).then(() => ok(move(buyer, id, 'accept'))) },
    ];
    const cases: { name: string; by: 'buyer' | 'seller'; status: string; id: number; pushesEach: number }[] = [];
    for (const state of states) {
      const car = await createListing(t, seller, { price: 100_000 });
      const made = await offerOn(buyer, car.id, 80_000);
      expect(made.statusCode, made.body).toBe(201);
      const id = (made.json().data as Offer).id;
      await state.moves(id);
      const { row, history } = await stored(id);
      expect(row, state.name).toMatchObject({ status: state.status, amountBy: state.by });
      cases.push({ ...state, id, pushesEach: history.length });
    }
    // Every move so far is pushed to both parties, and to nobody else; from here on nothing more.
    const pushed = cases.reduce((sum, c) => sum + c.pushesEach, 0);
    await waitUntil(() => pushes.buyer.length === pushed && pushes.seller.length === pushed, 5_000, 'the setup moves pushed');
    const before = {
      offers: await Promise.all(cases.map((c) => stored(c.id))),
      notifications: { buyer: await notificationCount(buyer), seller: await notificationCount(seller), stranger: await notificationCount(stranger) },
      orders: (await t.database.db.select({ id: ordersTable.id }).from(ordersTable).where(eq(ordersTable.buyerId, buyer.id))).length,
    };

    // The contract's answer to `who` making `action` on an offer in this state; null when the move is allowed.
    const expected = (c: (typeof cases)[number], who: Who, action: string): [number, string] | null => {
      if (who === 'stranger') return [404, 'NOT_FOUND'];
      const maker = who === c.by;
      if (action === 'withdraw' && !maker) return [403, 'NOT_ALLOWED'];
      if (c.status !== 'open') return [409, 'INVALID_TRANSITION'];
      return maker === (action === 'withdraw') ? null : [409, 'INVALID_TRANSITION'];
    };
    let tried = 0;
    for (const c of cases) {
      for (const who of ['buyer', 'seller', 'stranger'] as const) {
        for (const action of ['counter', 'accept', 'decline', 'withdraw']) {
          const answer = expected(c, who, action);
          if (!answer) continue;
          // A counter amount that would fit the range, so only the turn or the state refuses it.
          const res = await move(users[who], c.id, action, action === 'counter' ? { amount: c.by === 'buyer' ? 90_000 : 85_000 } : {});
          const label = `${c.name}: ${action} by the ${who}`;
          expect(res.statusCode, `${label}: ${res.body}`).toBe(answer[0]);
          expect(res.json().code, label).toBe(answer[1]);
          if (answer[1] === 'INVALID_TRANSITION') expect(res.json().details, label).toMatchObject({ status: c.status });
          if (answer[1] === 'INVALID_TRANSITION' && c.status === 'open') expect(res.json().details, label).toMatchObject({ by: c.by });
          tried += 1;
        }
      }
    }
    // 7 states x 3 parties x 4 moves, less the two allowed moves of each open state's responder and the maker's withdraw.
    expect(tried).toBe(7 * 12 - 2 * 4);

    // Bad bodies on every move route, sent by the party whose turn it is: 400 naming the field.
    const open = cases[0]!;
    const badBodies: [SignedInUser, string, object, string][] = [
      [seller, 'counter', { amount: '90000' }, 'amount'],
      [seller, 'counter', {}, 'amount'],
      [seller, 'counter', { amount: 90_000.5 }, 'amount'],
      [seller, 'counter', { amount: -90_000 }, 'amount'],
      [seller, 'counter', { amount: 0 }, 'amount'],
      [seller, 'counter', { amount: 90_000, note: 'x' }, 'note'],
      [seller, 'accept', { x: 1 }, 'x'],
      [seller, 'decline', { x: 1 }, 'x'],
      [buyer, 'withdraw', { x: 1 }, 'x'],
    ];
    for (const [who, action, body, field] of badBodies) {
      const res = await move(who, open.id, action, body);
      expect(res.statusCode, `${action} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(res.json(), `${action} ${JSON.stringify(body)}`).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.arrayContaining([expect.objectContaining({ field })]) });
    }
    const auctionCar = await createListing(t, seller);
    const badSecondChance = await call('POST', `/api/cars/${auctionCar.id}/second-chance`, seller, { x: 1 });
    expect(badSecondChance.statusCode, badSecondChance.body).toBe(400);
    expect(badSecondChance.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.arrayContaining([expect.objectContaining({ field: 'x' })]) });

    // Not a party: 404 for reads too; signed out: 401; unknown or malformed ids: 404.
    expect((await call('GET', `/api/offers/${open.id}`, stranger)).statusCode).toBe(404);
    expect((await move(undefined, open.id, 'decline')).statusCode).toBe(401);
    expect((await move(stranger, 999_999_999, 'decline')).statusCode).toBe(404);
    expect((await call('GET', '/api/offers/abc', buyer)).statusCode).toBe(404);
    // The seller cannot offer on their own car (403); a second open offer is refused (409).
    const own = await offerOn(seller, (await stored(open.id)).row.carId, 70_000);
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json()).toMatchObject({ code: 'NOT_ALLOWED' });
    const again = await offerOn(buyer, (await stored(open.id)).row.carId, 81_000);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('OFFER_EXISTS');

    // Nothing changed: the offers and their history, the orders, nobody told, nothing pushed.
    expect(await Promise.all(cases.map((c) => stored(c.id)))).toEqual(before.offers);
    expect((await t.database.db.select({ id: ordersTable.id }).from(ordersTable).where(eq(ordersTable.buyerId, buyer.id))).length).toBe(before.orders);
    expect({ buyer: await notificationCount(buyer), seller: await notificationCount(seller), stranger: await notificationCount(stranger) }).toEqual(before.notifications);
    // A push is sent before its request's answer: once each socket has caught up, a stray one would be here.
    for (const socket of sockets) await caughtUp(socket);
    expect([pushes.buyer.length, pushes.seller.length, pushes.stranger.length]).toEqual([pushed, pushed, 0]);
  });

  it('refuses offers from unverified accounts, on unknown cars (404), withdrawn cars and running auctions (409)', async () => {
    const { buyer, seller, car } = await deal();
    const unverified = await createUser(t, { name: 'Una Verified' });
    await t.database.db.execute(sql`update users set email_verified = false where id = ${unverified.id}`);
    expect((await offerOn(unverified, car.id, 80_000)).json().code).toBe('EMAIL_NOT_VERIFIED');
    expect((await offerOn(buyer, 999_999_999, 80_000)).statusCode).toBe(404);
    expect((await withdrawListing(seller, car.id)).statusCode).toBe(200);
    const gone = await offerOn(buyer, car.id, 80_000);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().code).toBe('CAR_NOT_AVAILABLE');

    const auction = await listAuction(seller, 30);
    const running = await offerOn(buyer, auction, 80_000);
    expect(running.statusCode).toBe(409);
    expect(running.json().code).toBe('AUCTION_IN_PROGRESS');
  });

  it('rolls an accept back whole when the buyer already has an open order for the car', async () => {
    const { buyer, seller, car, offer } = await openOffer();
    expect((await orderApi(t).place(buyer, car)).statusCode).toBe(201);
    const res = await move(seller, offer.id, 'accept');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ORDER_EXISTS');
    const { row, history } = await stored(offer.id);
    expect(row).toMatchObject({ status: 'open', orderId: null });
    expect(history).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key from the first result, and refuses the key with another body', async () => {
    const { buyer, car } = await deal();
    const headers = { 'idempotency-key': `offer-${car.id}` };
    const first = await offerOn(buyer, car.id, 80_000, {}, headers);
    const retry = await offerOn(buyer, car.id, 80_000, {}, headers);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.id).toBe(first.json().data.id);
    expect((await offerOn(buyer, car.id, 70_000, {}, headers)).statusCode).toBe(422);
  });
});

describe('Idempotency-Key on every move', () => {
  const moves = [
    { action: 'counter', by: 'seller', body: { amount: 90_000 }, other: 'buyer', title: 'Counter-offer', status: 'open' },
    { action: 'decline', by: 'seller', body: {}, other: 'buyer', title: 'Offer declined', status: 'declined' },
    { action: 'withdraw', by: 'buyer', body: {}, other: 'seller', title: 'Offer withdrawn', status: 'withdrawn' },
  ] as const;

  for (const m of moves) {
    it(`replays a ${m.action} retried with its key from the first answer, once, and refuses the key for another request (422)`, async () => {
      const o = await openOffer();
      const [actor, other] = [o[m.by], o[m.other]];
      const headers = { 'idempotency-key': `${m.action}-${o.offer.id}` };
      const first = await move(actor, o.offer.id, m.action, m.body, headers);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data).toMatchObject({ id: o.offer.id, status: m.status });
      const retry = await move(actor, o.offer.id, m.action, m.body, headers);
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.json()).toEqual(first.json());
      // Done once: one history entry for the move, one notification to the other party.
      const { history } = await stored(o.offer.id);
      expect(history.map((h) => h.action)).toEqual(['offer', m.action]);
      expect((await notificationsOf(other)).filter((n) => n.title === m.title)).toHaveLength(1);

      // The same key for a different request: another amount, or the same move on another offer of the same parties.
      const elsewhere = (await offerOn(o.buyer, (await createListing(t, o.seller, { price: 100_000 })).id, 80_000)).json().data as Offer;
      const reused = m.action === 'counter' ? await move(actor, o.offer.id, 'counter', { amount: 91_000 }, headers) : await move(actor, elsewhere.id, m.action, {}, headers);
      expect(reused.statusCode, reused.body).toBe(422);
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await stored(o.offer.id)).history).toEqual(history);
      expect((await stored(elsewhere.id)).row).toMatchObject({ status: 'open', amount: 80_000 });
      expect((await notificationsOf(other)).filter((n) => n.title === m.title)).toHaveLength(1);
    });
  }

  it('replays a second-chance offer retried with its key, sends it once, and refuses the key for another request (422)', async () => {
    const { seller, runnerUp, carId } = await auctionWithUnpaidWinner();
    const headers = { 'idempotency-key': `second-chance-${carId}` };
    const first = await call('POST', `/api/cars/${carId}/second-chance`, seller, {}, headers);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await call('POST', `/api/cars/${carId}/second-chance`, seller, {}, headers);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    const sent = await t.database.db.select().from(offersTable).where(eq(offersTable.carId, carId));
    expect(sent).toHaveLength(1);
    expect((await stored(sent[0]!.id)).history).toHaveLength(1);
    expect((await notificationsOf(runnerUp)).filter((n) => n.title === 'Second chance offer')).toHaveLength(1);
    // The key on another car's second chance is a different request: 422 before anything is looked at.
    const fixed = await createListing(t, seller);
    const reused = await call('POST', `/api/cars/${fixed.id}/second-chance`, seller, {}, headers);
    expect(reused.statusCode, reused.body).toBe(422);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await t.database.db.select().from(offersTable).where(eq(offersTable.carId, carId))).toEqual(sent);
  });
});

describe('the database guards the lifecycle', () => {
  it('allows exactly the table\'s status changes', async () => {
    const { offer } = await openOffer();
    const moves = new Set(OFFER_TRANSITIONS.filter((tr) => tr.from !== tr.to).map((tr) => `${tr.from}>${tr.to}`));
    expect([...moves].sort()).toEqual(['open>accepted', 'open>declined', 'open>expired', 'open>withdrawn']);
    // Back from a closed state is refused by the database itself.
    await t.database.db.update(offersTable).set({ status: 'declined' }).where(eq(offersTable.id, offer.id));
    await expect(t.database.db.update(offersTable).set({ status: 'open' }).where(eq(offersTable.id, offer.id))).rejects.toThrow();
    await expect(t.database.db.update(offersTable).set({ amount: 1 }).where(eq(offersTable.id, offer.id))).rejects.toThrow();
    await expect(t.database.db.update(offersTable).set({ status: 'expired' }).where(eq(offersTable.id, offer.id))).rejects.toThrow();
  });
});

describe('expiry', () => {
  it('expires an open offer two escrow days after its last move, once, telling both parties', async () => {
    const { buyer, seller, offer } = await openOffer();
    const buyerSocket = await listen(buyer);
    // One day in, a counter restarts the clock.
    await quietFor(DAY_SECONDS * 1000, 'a real escrow day passing is what the offer\'s clock counts');
    const countered: Offer = (await move(seller, offer.id, 'counter', { amount: 95_000 })).json().data;
    // Past the first deadline (but not the second): no condition shows that the first deadline changed nothing.
    await quietFor(DAY_SECONDS * 1000 + 500, 'the offer must NOT expire at its first deadline');
    expect((await call('GET', `/api/offers/${offer.id}`, buyer)).json().data.status).toBe('open');
    const expired = await nextEvent<{ offer: Offer }>(buyerSocket, 'offer:updated', (e) => e.offer.status === 'expired', 4 * DAY_SECONDS * 1000);
    expect(Date.parse(expired.offer.updatedAt)).toBeGreaterThanOrEqual(Date.parse(countered.expiresAt));
    expect(expired.offer.history.at(-1)).toMatchObject({ by: 'system', action: 'expire', amount: 95_000 });
    // The job for the first deadline, and a second run, change nothing more.
    await t.app.services.offers.expire(offer.id);
    expect((await stored(offer.id)).history.filter((h) => h.action === 'expire')).toHaveLength(1);
    for (const party of [buyer, seller]) expect((await notificationsOf(party)).filter((n) => n.title === 'Offer expired')).toHaveLength(1);
  });
});

describe('when the car is taken', () => {
  it('declines every open offer when an order for the car is funded, and when the listing is withdrawn', async () => {
    const { buyer, car } = await deal(100_000);
    const rival = await createUser(t, { name: 'Rene Rival' });
    const open = (await offerOn(buyer, car.id, 80_000)).json().data as Offer;
    const placed = await api.place(rival, car);
    // An unpaid order leaves the offers open.
    expect((await call('GET', `/api/offers/${open.id}`, buyer)).json().data.status).toBe('open');
    expect((await api.act(rival, placed.json().data.id, 'pay')).statusCode).toBe(200);
    const declined: Offer = (await call('GET', `/api/offers/${open.id}`, buyer)).json().data;
    expect(declined).toMatchObject({ status: 'declined', history: [{ action: 'offer' }, { by: 'system', action: 'decline' }] });
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.title === 'Offer declined' && n.message.includes('the car was sold to another buyer')));

    const other = await deal();
    const pending = (await offerOn(other.buyer, other.car.id, 80_000)).json().data as Offer;
    expect((await withdrawListing(other.seller, other.car.id)).statusCode).toBe(200);
    expect((await call('GET', `/api/offers/${pending.id}`, other.buyer)).json().data.status).toBe('declined');
  });
});

describe('concurrency', () => {
  it('turns 20 concurrent accepts of one offer into one order', async () => {
    const { seller, offer } = await openOffer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => move(seller, offer.id, 'accept')));
    const created = answers.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 201)) expect(r.json().code, r.body).toBe('INVALID_TRANSITION');
    const orders = ((await call('GET', '/api/orders', seller)).json().data.orders as { carId: number }[]).filter((o) => o.carId === offer.carId);
    expect(orders).toHaveLength(1);
    expect((await stored(offer.id)).history.filter((h) => h.action === 'accept')).toHaveLength(1);
  });

  it('answers 20 concurrent accepts sent with one Idempotency-Key with the same order', async () => {
    const { seller, offer } = await openOffer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => move(seller, offer.id, 'accept', {}, { 'idempotency-key': `accept-${offer.id}` })));
    const ids = new Set(answers.map((r) => (r.statusCode === 201 ? r.json().data.id : r.json().code)));
    expect(ids.size, [...ids].join()).toBe(1);
    expect([...ids][0]).toEqual(expect.any(Number));
  });
});

describe('auctions', () => {
  it('takes offers of any amount on an auction that ended below its reserve, settled in escrow', async () => {
    const seller = await createUser(t, { name: 'Sam Seller' });
    const [bidder, buyer] = await Promise.all([createUser(t), createUser(t, { name: 'Olive Offer' })]);
    const carId = await listAuction(seller, 3, { reservePrice: 150_000 });
    expect((await call('POST', '/api/bids', bidder, { carId, amount: 60_000 })).statusCode).toBe(201);
    await closeAuction(carId, 'reserve_not_met');
    const made = await offerOn(buyer, carId, 120_000);
    expect(made.statusCode, made.body).toBe(201);
    // The car's price on an auction's offer is its starting price, and the offer says so.
    expect(made.json().data.car).toMatchObject({ isAuction: true, price: 50_000 });
    // The seller's counter stays below the reserve, the auction's asking price.
    expect((await move(seller, made.json().data.id, 'counter', { amount: 150_000 })).statusCode).toBe(400);
    expect((await move(seller, made.json().data.id, 'counter', { amount: 140_000 })).statusCode).toBe(200);
    const accepted = await move(buyer, made.json().data.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({ amount: 140_000, plan: 'premium', buyerId: buyer.id });
  });

  it('offers the car to the runner-up at their highest bid once the winner\'s order is cancelled', async () => {
    const seller = await createUser(t, { name: 'Sam Seller' });
    const [winner, runnerUp, third] = await Promise.all([createUser(t, { name: 'Wyn Winner' }), createUser(t, { name: 'Rory Runner' }), createUser(t)]);
    const carId = await listAuction(seller, 3);
    for (const [who, amount] of [[third, 50_000], [runnerUp, 55_000], [winner, 60_000], [runnerUp, 62_000], [winner, 64_000]] as const) {
      const res = await call('POST', '/api/bids', who, { carId, amount });
      expect(res.statusCode, res.body).toBe(201);
    }
    const result = await closeAuction(carId, 'sold');
    // The winner's order still awaits payment: too early.
    const early = await call('POST', `/api/cars/${carId}/second-chance`, seller, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('INVALID_TRANSITION');
    expect(await myListing(seller, carId)).toMatchObject({ secondChance: null });
    expect((await call('POST', `/api/cars/${carId}/second-chance`, runnerUp, {})).statusCode).toBe(404);

    expect((await api.act(winner, result.orderId!, 'cancel', { reason: 'Cannot pay' })).statusCode).toBe(200);
    expect(await myListing(seller, carId)).toMatchObject({ secondChance: { buyerName: 'Rory Runner', amount: 62_000 } });
    const runnerSocket = await listen(runnerUp);
    const sent = await call('POST', `/api/cars/${carId}/second-chance`, seller);
    expect(sent.statusCode, sent.body).toBe(201);
    const offer: Offer = sent.json().data;
    expect(offer).toMatchObject({ buyer: { id: runnerUp.id }, amount: 62_000, by: 'seller', secondChance: true, status: 'open' });
    expect(Date.parse(offer.expiresAt) - Date.parse(offer.createdAt)).toBeCloseTo(DAY_SECONDS * 1000, -2);
    await nextEvent<{ offer: Offer }>(runnerSocket, 'offer:updated', (e) => e.offer.id === offer.id);
    await waitUntil(async () => (await notificationsOf(runnerUp)).some((n) => n.title === 'Second chance offer' && n.message.includes('your highest bid of $62,000')));
    expect((await call('POST', `/api/cars/${carId}/second-chance`, seller)).json().code).toBe('OFFER_EXISTS');
    expect(await myListing(seller, carId)).toMatchObject({ secondChance: null });

    const accepted = await move(runnerUp, offer.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({ buyerId: runnerUp.id, amount: 62_000, status: 'awaiting_payment' });
    expect((await api.act(runnerUp, accepted.json().data.id, 'pay')).statusCode).toBe(200);
  });

  it('lets the seller counter back on a second-chance offer, below their own opening amount rather than the auction\'s starting price', async () => {
    // A no-reserve auction starting at $50,000; the runner-up's highest bid was $55,000.
    const { seller, runnerUp, carId } = await auctionWithUnpaidWinner();
    const sent = await call('POST', `/api/cars/${carId}/second-chance`, seller);
    expect(sent.statusCode, sent.body).toBe(201);
    const offer: Offer = sent.json().data;
    expect(offer).toMatchObject({ amount: 55_000, by: 'seller', secondChance: true });
    expect((await move(runnerUp, offer.id, 'counter', { amount: 52_000 })).statusCode).toBe(200);
    // The seller's room is $52,001 .. $54,999: not their own $55,000 again, nor above it.
    for (const amount of [55_000, 60_000, 52_000]) {
      const refused = await move(seller, offer.id, 'counter', { amount });
      expect(refused.statusCode, `${amount}: ${refused.body}`).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'amount', message: 'Counter with between $52,001 and $54,999.' }] });
    }
    const countered = await move(seller, offer.id, 'counter', { amount: 54_000 });
    expect(countered.statusCode, countered.body).toBe(200);
    expect(countered.json().data).toMatchObject({ amount: 54_000, by: 'seller', status: 'open', secondChance: true });
    expect((await move(runnerUp, offer.id, 'counter', { amount: 53_000 })).statusCode).toBe(200);
    const accepted = await move(seller, offer.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().data).toMatchObject({ buyerId: runnerUp.id, amount: 53_000, status: 'awaiting_payment' });
  });

  it('answers NO_RUNNER_UP when only the winner bid, and INVALID_TRANSITION for a car that was never won', async () => {
    const seller = await createUser(t);
    const winner = await createUser(t);
    const carId = await listAuction(seller, 3);
    expect((await call('POST', '/api/bids', winner, { carId, amount: 50_000 })).statusCode).toBe(201);
    const result = await closeAuction(carId, 'sold');
    expect((await api.act(seller, result.orderId!, 'cancel', {})).statusCode).toBe(200);
    const res = await call('POST', `/api/cars/${carId}/second-chance`, seller);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NO_RUNNER_UP');
    // A fixed-price car never had a winner.
    const fixed = await createListing(t, seller);
    expect((await call('POST', `/api/cars/${fixed.id}/second-chance`, seller)).json().code).toBe('INVALID_TRANSITION');
  });
});

// ── Helpers ───────────────────────────────────────────────────────────────────────────

async function carModel(carId: number): Promise<string> {
  return (await call('GET', `/api/cars/${carId}`)).json().data.model;
}

const deadlineFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
const deadlineWords = (iso: string) => `${deadlineFormat.format(new Date(iso))} UTC`;

let auctions = 0;
/** An auction of `seller`'s ending in `seconds` (starting bid $50,000). */
async function listAuction(seller: SignedInUser, seconds: number, options: { reservePrice?: number } = {}): Promise<number> {
  auctions += 1;
  const car = await listCar(t, seller, {
    make: 'Ferrari',
    model: `F40 Offers ${auctions}`,
    year: 1990,
    price: 50_000,
    mileage: 9_000,
    location: 'Monterey, CA',
    description: 'An auction for offers.',
    bodyStyle: 'sports',
    auctionInSeconds: seconds,
    ...options,
  });
  return car.id;
}

/** Waits for the auction's end and closes it (the close job may have already). */
async function closeAuction(carId: number, outcome: 'sold' | 'reserve_not_met') {
  await waitUntil(
    async () => {
      await t.app.services.auctions.close(carId);
      const detail = (await call('GET', `/api/cars/${carId}`)).json().data;
      return detail.auction.outcome !== null;
    },
    10_000,
    'auction closed',
  );
  const detail = (await call('GET', `/api/cars/${carId}`)).json().data;
  expect(detail.auction.outcome).toBe(outcome);
  // The close job may have closed it first: the winner's order is the car's first.
  const [order] = await t.database.db.select({ id: ordersTable.id }).from(ordersTable).where(eq(ordersTable.carId, carId)).orderBy(asc(ordersTable.id)).limit(1);
  return { outcome, orderId: order?.id ?? null };
}

/**
 * A no-reserve auction (starting at $50,000) won at $60,000 over the runner-up's $55,000, whose
 * winner cancelled the order: the seller may send the runner-up a second-chance offer.
 */
async function auctionWithUnpaidWinner() {
  const [seller, winner, runnerUp] = await Promise.all([createUser(t, { name: 'Sam Seller' }), createUser(t, { name: 'Wyn Winner' }), createUser(t, { name: 'Rory Runner' })]);
  const carId = await listAuction(seller, 3);
  for (const [who, amount] of [[runnerUp, 55_000], [winner, 60_000]] as const) {
    const res = await call('POST', '/api/bids', who, { carId, amount });
    expect(res.statusCode, res.body).toBe(201);
  }
  const result = await closeAuction(carId, 'sold');
  expect((await api.act(winner, result.orderId!, 'cancel', { reason: 'Cannot pay' })).statusCode).toBe(200);
  return { seller, winner, runnerUp, carId };
}

const withdrawListing = (seller: SignedInUser, carId: number) => t.app.inject({ method: 'DELETE', url: `/api/cars/${carId}`, headers: seller.auth });

async function myListing(seller: SignedInUser, carId: number) {
  const listings = (await call('GET', '/api/users/me/listings', seller)).json().data.listings as { id: number; secondChance: unknown }[];
  return listings.find((l) => l.id === carId);
}
