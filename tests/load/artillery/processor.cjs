// Helpers for realtime.yml (Artillery 2 loads this with require()).
'use strict';
// Node's global Web Crypto (Artillery runs on Node 22.18+).
const randomUUID = () => globalThis.crypto.randomUUID();

// The bid rule of common/bid-rules.ts (minimumBid), repeated here: Artillery cannot load the
// project's TypeScript. Opening bid: half the price rounded up to $100; then the increments.
const INCREMENTS = [
  [50_000, 250],
  [100_000, 500],
  [250_000, 1_000],
  [500_000, 2_500],
  [Infinity, 5_000],
];
const increment = (x) => INCREMENTS.find(([below]) => x < below)[1];
const minimumBid = (price, highest) =>
  highest === null || highest === undefined || highest === '' ? Math.max(1, Math.ceil((price * 0.5) / 100) * 100) : Number(highest) + increment(Number(highest));

const carIds = (process.env.ARTILLERY_CAR_IDS || '1')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);

/** A car for this virtual user, Zipf-like (rank r with weight 1/r), as in bench:capacity. */
function pickCar(context, events, done) {
  const weights = carIds.map((_, r) => 1 / (r + 1));
  let x = Math.random() * weights.reduce((a, b) => a + b, 0);
  let index = 0;
  while (index < weights.length - 1 && (x -= weights[index]) > 0) index++;
  context.vars.carId = carIds[index];
  done();
}

/** Fails the virtual user when the room join was not acknowledged with `ok: true`. */
function requireJoined(context, events, done) {
  if (context.vars.joined !== true && context.vars.joined !== 'true') return done(new Error('car:join not acknowledged'));
  done();
}

/**
 * The bid's body: the minimum the car accepts as last read. Two bidders on one car may race;
 * the loser's 409/422 is a refused bid (a product answer), not an error.
 */
function bidRequest(req, context, events, done) {
  req.json = { carId: Number(context.vars.carId), amount: minimumBid(Number(context.vars.price), context.vars.highestBid) };
  req.headers = { ...req.headers, 'idempotency-key': randomUUID() };
  done();
}

module.exports = { pickCar, requireJoined, bidRequest };
