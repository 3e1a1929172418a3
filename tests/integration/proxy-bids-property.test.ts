import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing } from '../helpers/escrow.ts';
import { ProxyModel } from '../helpers/proxy-model.ts';
import { connectSocket, emitAck, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Random sequences of manual and maximum bids from 2 to 5 bidders on a fresh car, each step
 * checked against a model written from the contract's "Proxy bids (v3)": the answer (code, the
 * bidder's own recorded amount, maxAmount, leading), then the car's highest bid and bid count,
 * the leader, and every recorded bid (bidder, amount, auto), with no maximum in public answers
 * nor in any event an anonymous viewer of the car receives.
 */

let t: TestApp;
let seller: SignedInUser;
let bidders: SignedInUser[];
/** Every event the anonymous viewer of each run's car received, by car. */
const events = new Map<number, { event: string; json: string }[]>();

beforeAll(async () => {
  t = await startTestApp();
  await t.listen();
  seller = await createUser(t);
  bidders = await Promise.all(Array.from({ length: 5 }, (_, i) => createUser(t, { name: `Bidder ${i}` })));
});
afterAll(async () => {
  await t?.close();
});

/**
 * An anonymous viewer of one run's car, recording what it receives. One per run: runs of one
 * step take a few milliseconds, and one socket joining and leaving car after car soon meets the
 * server's per-socket event rate limit, as any client would.
 */
async function watch(carId: number): Promise<ClientSocket> {
  const viewer = await connectSocket(t.url);
  viewer.onAny((event: string, payload: { carId?: unknown } | undefined) => {
    const about = typeof payload?.carId === 'number' ? payload.carId : -1;
    events.set(about, [...(events.get(about) ?? []), { event, json: JSON.stringify(payload) }]);
  });
  expect(await emitAck(viewer, 'car:join', { carId })).toMatchObject({ ok: true });
  return viewer;
}

/** The leader's maximum while no recorded bid, nor the car's price, has that amount (so any sight of it is a leak). */
function unspentMax(model: ProxyModel): number | null {
  const max = model.leader === null ? null : model.maxOf(model.leader)!;
  return max !== null && !model.bids.some((b) => b.amount === max) && max !== model.price ? max : null;
}

/**
 * No maximum in what the viewer received for the car: the field never, and `unspent` (the
 * leader's maximum while no recorded bid, nor the price, has that amount) neither as a number
 * nor in dollars (a chat line).
 */
function expectNoMaxInEvents(carId: number, unspent: number | null) {
  for (const { event, json } of events.get(carId) ?? []) {
    expect(json, event).not.toMatch(/maxAmount/);
    if (unspent === null) continue;
    expect(json, event).not.toMatch(new RegExp(`(?<![\\d.])${unspent}(?!\\d)`));
    expect(json, event).not.toContain(`$${unspent.toLocaleString('en-US')}`);
  }
}

/** One step: who bids, how far above (or just below) the minimum, and the maximum as a step count above the amount. */
interface Step {
  bidder: number;
  /** -1: one dollar below the minimum; else this many $250 steps above it. */
  above: number;
  /** null: a bid without maxAmount; -1: a maximum one dollar below the amount; 'tie': the leader's maximum (when at least the amount); else this many dollars above the amount. */
  max: number | null | 'tie';
}

const step = (bidderCount: number): fc.Arbitrary<Step> =>
  fc.record({
    bidder: fc.nat(bidderCount - 1),
    above: fc.oneof({ weight: 1, arbitrary: fc.constant(-1) }, { weight: 8, arbitrary: fc.nat(8) }),
    max: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.constant('tie' as const) },
      { weight: 1, arbitrary: fc.constant(-1) },
      // Round steps make ties likely; odd dollars land between increments.
      { weight: 4, arbitrary: fc.nat(40).map((n) => n * 2_500) },
      { weight: 2, arbitrary: fc.nat(120_000) },
    ),
  });

const scenario = fc.integer({ min: 2, max: 5 }).chain((count) => fc.array(step(count), { minLength: 1, maxLength: 14 }));

describe('proxy bids against a model of the contract', () => {
  it('matches the model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 30_000, max: 180_000 }), scenario, async (price, steps) => {
        const car = await createListing(t, seller, { price });
        const model = new ProxyModel(car.price);
        const viewer = await watch(car.id);
        try {
          const placedEvents = () => (events.get(car.id) ?? []).filter((e) => e.event === 'bid:placed').length;
          for (const s of steps) {
            const who = bidders[s.bidder]!;
            const amount = s.above === -1 ? model.minimum - 1 : model.minimum + s.above * 250;
            const leaderMax = model.leader === null ? amount : model.maxOf(model.leader)!;
            const maxAmount = s.max === null ? undefined : s.max === 'tie' ? Math.max(amount, leaderMax) : s.max === -1 ? amount - 1 : amount + s.max;
            const expected = model.place(who.id, amount, maxAmount);
            const res = await t.app.inject({
              method: 'POST',
              url: '/api/bids',
              headers: who.auth,
              payload: { carId: car.id, amount, ...(maxAmount !== undefined ? { maxAmount } : {}) },
            });
            const body = res.json();
            if (!expected.ok) {
              expect([res.statusCode, body.code], res.body).toEqual([expected.status, expected.code]);
            } else {
              expect(res.statusCode, res.body).toBe(201);
              const own = expected.recorded.find((b) => b.userId === who.id && !b.auto)!;
              expect(body.data).toMatchObject({
                bid: { userId: who.id, amount: own.amount, auto: false },
                car: { currentBids: model.bids.length, highestBid: model.highestBid },
                maxAmount: expected.maxAmount,
                leading: expected.leading,
              });
            }
            const [detail, history] = await Promise.all([
              t.app.inject({ method: 'GET', url: `/api/cars/${car.id}` }),
              t.app.inject({ method: 'GET', url: `/api/bids/car/${car.id}` }),
            ]);
            expect(detail.json().data).toMatchObject({ currentBids: model.bids.length, highestBid: model.highestBid });
            const recorded = (history.json().data.bids as { userId: number; amount: number; auto: boolean }[]).reverse();
            expect(recorded.map((b) => [b.userId, b.amount, b.auto])).toEqual(model.bids.map((b) => [b.userId, b.amount, b.auto]));
            // The leader (largest maximum, earliest on ties) holds the last recorded bid.
            if (model.leader !== null) expect(recorded.at(-1)!.userId).toBe(model.leader);
            // Manual amounts strictly increase; an amount repeats only as a tie's automatic answer.
            const manual = recorded.filter((b) => !b.auto).map((b) => b.amount);
            expect(manual).toEqual([...new Set(manual)].sort((a, b) => a - b));
            for (let i = 1; i < recorded.length; i += 1) {
              if (recorded[i]!.amount === recorded[i - 1]!.amount) expect([recorded[i - 1]!.auto, recorded[i]!.auto]).toEqual([false, true]);
            }
            // No maximum in public answers: the field never, and the leader's unspent maximum never.
            const unspent = unspentMax(model);
            for (const text of [detail.body, history.body]) {
              expect(text).not.toMatch(/maxAmount/);
              if (unspent !== null) {
                expect(text).not.toContain(`"amount":${unspent}`);
                expect(text).not.toContain(`Bid":${unspent}`);
              }
            }
            // Nor in the events: every recorded bid pushed to the viewer, none carrying a maximum.
            await waitUntil(() => placedEvents() === model.bids.length, 5_000, `${model.bids.length} bid:placed events`);
            expectNoMaxInEvents(car.id, unspent);
          }
          expect(await emitAck(viewer, 'car:leave', { carId: car.id })).toMatchObject({ ok: true });
          // Whatever else arrived for the car by now (chat lines follow their bids) carries no maximum either.
          expectNoMaxInEvents(car.id, unspentMax(model));
          expect(placedEvents()).toBe(model.bids.length);
        } finally {
          viewer.close();
        }
      }),
      { numRuns: Number(process.env.PROXY_RUNS ?? 25) },
    );
  }, 60_000);
});
