import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { cars, notifications, offerEvents, offers, orders } from '../../db/schema/index.ts';
import type { Offer } from '@common/schemas/offers.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { insertListing } from '../helpers/escrow.ts';
import { http, insertAccounts, serverDatabase, signIn, type Account } from '../helpers/server-database.ts';
import { ServerProcesses, canRunTwoProcesses } from '../helpers/server-process.ts';
import { connectSocket, record, waitUntil } from '../helpers/sockets.ts';
import { caughtUp, jobsSettledAt } from '../helpers/wait.ts';

/**
 * Open offers expire exactly once whatever happens to the servers (contract §"Offers and second
 * chance (v3)": "exactly once (several processes, restarts)"): offers that lapse while the only
 * server is dead (kill -9) expire once after it starts again, through the start-up sweep racing
 * the due `offer.expire` jobs; and with two processes on one PostgreSQL, both running job
 * workers, each offer still expires once and the push reaches a party connected to the other
 * process.
 */

/**
 * One escrow day lasts 2 s: an open offer lapses 4 s after its last move, room enough to make and
 * counter every offer (and kill the server) before the first lapses on a busy machine.
 */
const DAY_SECONDS = 2;
/**
 * Across the kill, a day of a minute: making and countering the offers never outlasts it, however
 * busy the machine. The days the offers wait out while the server is dead are then passed in the
 * database (their deadlines and due jobs moved to now), not waited for.
 */
const KILL_DAY_SECONDS = 60;
const PRICE = 100_000;
const SECRET = 'offers-process-secret-0123456789abcdefghij';
const servers = new ServerProcesses();
afterAll(() => servers.closeAll());

interface Parties {
  buyers: Account[];
  sellers: Account[];
  /** Each seller's cars, in turn: car i belongs to sellers[i % sellers.length]. */
  listings: { id: number; price: number; seller: Account }[];
}

/** Buyers, sellers and fixed-price cars (asking $100,000), written before any server starts. */
async function prepare(db: Database, counts: { buyers: number; sellers: number; cars: number }): Promise<Parties> {
  const accounts = await insertAccounts(db, [
    ...Array.from({ length: counts.buyers }, (_, i) => `Offer Buyer ${i + 1}`),
    ...Array.from({ length: counts.sellers }, (_, i) => `Offer Seller ${i + 1}`),
  ]);
  const buyers = accounts.slice(0, counts.buyers);
  const sellers = accounts.slice(counts.buyers);
  const listings = [];
  for (let i = 0; i < counts.cars; i++) {
    const seller = sellers[i % sellers.length]!;
    listings.push({ ...(await insertListing(db, seller, { price: PRICE })), seller });
  }
  return { buyers, sellers, listings };
}

/** What a test expects of one offer: its parties and every move, in order. */
interface Expected {
  id: number;
  carId: number;
  buyer: Account;
  seller: Account;
  /** `actor:action:amount`, oldest first, before the expiry. */
  moves: string[];
  /** When the opening offer would have lapsed (a counter moves it later). */
  firstExpiresAt: number;
  /** When it lapses after its last move, as the last answer said. */
  expiresAt: number;
}

/**
 * Each buyer makes an offer on each car until `count` offers are open (all at once, so none
 * lapses before the last is made), then the seller counters every third offer and the buyer
 * counters back on every sixth, so the deadlines differ. All through `base`.
 */
async function negotiate(base: string, parties: Parties, tokens: Map<number, string>, count: number): Promise<Expected[]> {
  const pairs = parties.listings.flatMap((car) => parties.buyers.map((buyer) => ({ car, buyer }))).slice(0, count);
  expect(pairs).toHaveLength(count);
  const made = await Promise.all(
    pairs.map(async ({ car, buyer }, i) => {
      const amount = 70_000 + i * 100;
      const res = await http<Offer>(base, tokens.get(buyer.id)!, 'POST', `/api/cars/${car.id}/offers`, { amount });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'open', by: 'buyer', amount });
      return { id: res.body.data.id, carId: car.id, buyer, seller: car.seller, moves: [`buyer:offer:${amount}`], firstExpiresAt: Date.parse(res.body.data.expiresAt), expiresAt: Date.parse(res.body.data.expiresAt) } satisfies Expected;
    }),
  );
  const counter = async (offer: Expected, by: 'buyer' | 'seller', amount: number) => {
    const res = await http<Offer>(base, tokens.get(offer[by].id)!, 'POST', `/api/offers/${offer.id}/counter`, { amount });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'open', by, amount });
    offer.moves.push(`${by}:counter:${amount}`);
    offer.expiresAt = Date.parse(res.body.data.expiresAt);
  };
  await Promise.all(made.filter((_, i) => i % 3 === 0).map((offer) => counter(offer, 'seller', 95_000)));
  await Promise.all(made.filter((_, i) => i % 6 === 0).map((offer) => counter(offer, 'buyer', 90_000)));
  return made;
}

async function signInAll(base: string, accounts: Account[]): Promise<Map<number, string>> {
  return new Map(await Promise.all(accounts.map(async (a) => [a.id, await signIn(base, a)] as const)));
}

/** Waits (reading through `base`) until every offer reads `expired`. */
async function waitForExpiry(base: string, tokens: Map<number, string>, expected: Expected[], timeoutMs: number) {
  await waitUntil(
    async () => {
      const read = await Promise.all(expected.map((o) => http<Offer>(base, tokens.get(o.buyer.id)!, 'GET', `/api/offers/${o.id}`)));
      return read.every((r) => r.status === 200 && r.body.data.status === 'expired');
    },
    timeoutMs,
    'every offer to expire',
  );
}

/**
 * Read from the database: each offer expired once, after exactly the moves it was made with (no
 * lost or repeated history, amount on the table intact, no order), each party was told of the
 * expiry once and of nothing twice, and each car is still for sale.
 */
async function expectEachExpiredOnce(db: Database, expected: Expected[], notBefore?: number) {
  const ids = expected.map((o) => o.id);
  const rows = new Map((await db.select().from(offers).where(inArray(offers.id, ids))).map((o) => [o.id, o]));
  const events = await db.select().from(offerEvents).where(inArray(offerEvents.offerId, ids)).orderBy(offerEvents.id);
  for (const o of expected) {
    const last = o.moves.at(-1)!.split(':');
    const amount = Number(last[2]);
    expect(rows.get(o.id), `offer ${o.id}`).toMatchObject({ status: 'expired', amount, amountBy: last[0], orderId: null });
    const own = events.filter((e) => e.offerId === o.id);
    expect(own.map((e) => `${e.actor}:${e.action}:${e.amount}`), `offer ${o.id}`).toEqual([...o.moves, `system:expire:${amount}`]);
    const expiry = own.at(-1)!;
    expect(expiry.actorUserId).toBeNull();
    // Expired at or after its deadline (database clock), and, after a kill, only by the new process.
    expect(expiry.createdAt.getTime(), `offer ${o.id} expired early`).toBeGreaterThanOrEqual(rows.get(o.id)!.expiresAt.getTime());
    if (notBefore !== undefined) expect(expiry.createdAt.getTime(), `offer ${o.id} expired before the restart`).toBeGreaterThanOrEqual(notBefore);
  }

  // Notifications name "Offer #id:"; count each title per party per offer.
  const told = await db
    .select({ userId: notifications.userId, title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(like(notifications.message, 'Offer #%'));
  const titles = (o: Expected, account: Account) =>
    told
      .filter((n) => n.userId === account.id && n.message.startsWith(`Offer #${o.id}:`))
      .map((n) => n.title)
      .sort();
  for (const o of expected) {
    const counters = (by: 'buyer' | 'seller') => o.moves.filter((m) => m.startsWith(`${by}:counter:`)).length;
    expect(titles(o, o.buyer), `buyer of offer ${o.id}`).toEqual([...Array<string>(counters('seller')).fill('Counter-offer'), 'Offer expired'].sort());
    expect(titles(o, o.seller), `seller of offer ${o.id}`).toEqual([...Array<string>(counters('buyer')).fill('Counter-offer'), 'New offer', 'Offer expired'].sort());
  }

  const carIds = [...new Set(expected.map((o) => o.carId))];
  expect(await db.select({ id: orders.id }).from(orders).where(inArray(orders.carId, carIds))).toEqual([]);
  const statuses = await db.select({ status: cars.status }).from(cars).where(inArray(cars.id, carIds));
  expect(statuses.map((c) => c.status)).toEqual(carIds.map(() => 'active'));
  // Nothing is left open on these cars.
  expect(await db.select({ id: offers.id }).from(offers).where(and(inArray(offers.carId, carIds), eq(offers.status, 'open')))).toEqual([]);
}

describe('offer expiry across a kill -9', () => {
  it('expires every offer that lapsed while the server was dead exactly once after a restart, keeping its history', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lm-offers-kill-'));
    const database = await serverDatabase(dataDir, (db) => prepare(db, { buyers: 3, sellers: 2, cars: 4 }));
    servers.afterKill(database.drop);
    const parties = database.prepared;
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, ESCROW_DAY_SECONDS: String(KILL_DAY_SECONDS), JOB_POLL_SECONDS: '0.5', JWT_SECRET: SECRET };
    const first = await servers.start(env);
    const tokens = await signInAll(first.url, [...parties.buyers, ...parties.sellers]);
    const expected = await negotiate(first.url, parties, tokens, 10);
    const deadlines = expected.map((o) => o.expiresAt);

    await first.kill('SIGKILL');
    const killedAt = Date.now();
    console.log(`[offers-processes] killed ${Math.min(...deadlines) - killedAt} ms before the first offer was due`);
    // Killed before any offer was due: whatever expires below, the second process expired it.
    expect(killedAt, 'the server was killed after the first offer lapsed; the machine is too slow for this escrow day').toBeLessThan(Math.min(...deadlines));
    // Each counter restarted its offer's clock, so the deadlines differ.
    for (const o of expected) {
      if (o.moves.length > 1) expect(o.expiresAt, `offer ${o.id}`).toBeGreaterThan(o.firstExpiresAt);
      else expect(o.expiresAt, `offer ${o.id}`).toBe(o.firstExpiresAt);
    }
    // While it is dead, every offer's time runs out: its deadline passes and its expiry job comes due.
    const dead = await database.reopen();
    const ids = expected.map((o) => o.id);
    await dead.db.update(offers).set({ expiresAt: sql`now() - interval '1 second'` }).where(inArray(offers.id, ids));
    await dead.db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where name = 'offer.expire' and state in ('created', 'retry')`);
    await dead.close();

    const restartedAt = Date.now();
    const second = await servers.start(env);
    // The catch-up is timed from the moment the server answers: how long a process takes to
    // start depends on the machine's load, not on the expiry.
    const upAt = Date.now();
    const secondTokens = await signInAll(second.url, parties.buyers);
    await waitForExpiry(second.url, secondTokens, expected, 15_000);
    const caughtUpMs = Date.now() - upAt;
    console.log(`[offers-processes] ${expected.length} lapsed offers expired ${caughtUpMs} ms after the restarted server answered (${upAt - restartedAt} ms to start)`);
    expect(caughtUpMs).toBeLessThan(15_000);
    // The due expiry jobs the sweep raced run too, and must find nothing to do.
    await jobsSettledAt(second.url, ['offer.expire']);
    await second.kill();

    const handle = await database.reopen();
    await expectEachExpiredOnce(handle.db, expected, restartedAt - 1_000);
    await handle.close();
  }, 120_000);
});

const twoProcesses = canRunTwoProcesses('offers-processes');

describe.skipIf(!twoProcesses)('offer expiry with two processes on one PostgreSQL', () => {
  it('expires each offer once while both processes run job workers, pushing every move to a party on the other process', async () => {
    const database = await createTestDatabase();
    servers.afterKill(() => database.close());
    const parties = await prepare(database.db, { buyers: 2, sellers: 1, cars: 4 });
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: `lmtest-offers-${process.pid}`,
      ESCROW_DAY_SECONDS: String(DAY_SECONDS),
      JOB_POLL_SECONDS: '0.5',
      JWT_SECRET: SECRET,
    };
    const [a, b] = await servers.startPair(env, 'offers');
    const everyone = [...parties.buyers, ...parties.sellers];
    const tokens = await signInAll(a.url, everyone);

    // Each party listens on process B only (the seller on A as well); every move goes through A.
    const listen = async (url: string, account: Account) => {
      const socket = await connectSocket(url, { token: tokens.get(account.id)! });
      servers.sockets.push(socket);
      return record<{ offer: Offer }>(socket, 'offer:updated');
    };
    const onB = new Map(await Promise.all(everyone.map(async (account) => [account.id, await listen(b.url, account)] as const)));
    const sellerOnA = await listen(a.url, parties.sellers[0]!);

    const expected = await negotiate(a.url, parties, tokens, 8);
    // The counters made through A reached the other party on B.
    const countered = expected.filter((o) => o.moves.some((m) => m.includes(':counter:')));
    expect(countered.length).toBeGreaterThan(0);
    await waitUntil(
      () =>
        countered.every((o) => {
          const last = o.moves.at(-1)!.split(':');
          const to = last[0] === 'seller' ? o.buyer : o.seller;
          return onB.get(to.id)!.some(({ offer }) => offer.id === o.id && offer.status === 'open' && offer.by === last[0] && offer.amount === Number(last[2]) && offer.history.at(-1)?.action === 'counter');
        }),
      10_000,
      'the counters made through A to reach the other party on B',
    );

    await waitForExpiry(b.url, tokens, expected, 20_000);
    const expiredPushes = (seen: { offer: Offer }[], id: number) => seen.filter(({ offer }) => offer.id === id && offer.status === 'expired');
    await waitUntil(
      () => expected.every((o) => [o.buyer, o.seller].every((p) => expiredPushes(onB.get(p.id)!, o.id).length > 0)),
      10_000,
      'the expiry pushes to both parties on B',
    );
    // Every expiry job has run on one process or the other; a second expiry would have been pushed by now.
    await jobsSettledAt(a.url, ['offer.expire']);
    await Promise.all(servers.sockets.map((socket) => caughtUp(socket)));
    for (const o of expected) {
      for (const party of [o.buyer, o.seller]) {
        const pushes = expiredPushes(onB.get(party.id)!, o.id);
        expect(pushes, `offer ${o.id} to ${party.name} on B`).toHaveLength(1);
        expect(pushes[0]!.offer.history.map((h) => h.action).at(-1)).toBe('expire');
        expect(pushes[0]!.offer.history.filter((h) => h.action === 'expire')).toHaveLength(1);
      }
      expect(expiredPushes(sellerOnA, o.id), `offer ${o.id} to the seller on A`).toHaveLength(1);
    }
    // Nobody else's offers reached a buyer's socket.
    for (const buyer of parties.buyers) expect(onB.get(buyer.id)!.every(({ offer }) => offer.buyer.id === buyer.id)).toBe(true);

    await Promise.all([a.kill(), b.kill()]);
    await expectEachExpiredOnce(database.db, expected);
  }, 120_000);
});
