/**
 * How much the next bid on a car must be. Shared by the server, which enforces it under a row
 * lock, and the bid form, which pre-fills it.
 *
 * - The opening bid must be at least half the asking price, rounded up to the next $100; on an
 *   auction, the listing's price is its starting bid.
 * - After that, each bid must beat the highest by an increment that grows with the amount.
 */
export const MIN_BID_AMOUNT = 1;
export const MAX_BID_AMOUNT = 100_000_000;
export const OPENING_BID_SHARE_OF_PRICE = 0.5;

const INCREMENTS: readonly { below: number; step: number }[] = [
  { below: 50_000, step: 250 },
  { below: 100_000, step: 500 },
  { below: 250_000, step: 1_000 },
  { below: 500_000, step: 2_500 },
  { below: Number.POSITIVE_INFINITY, step: 5_000 },
];

/**
 * The increment at amount `x` (the contract's `inc(x)`): what the next bid must add to a highest
 * bid of `x`, and how far an automatic bid goes past a rival's maximum of `x`.
 */
export function bidIncrement(x: number): number {
  return INCREMENTS.find((tier) => x < tier.below)!.step;
}

export function openingBid(askingPrice: number): number {
  return Math.max(MIN_BID_AMOUNT, Math.ceil((askingPrice * OPENING_BID_SHARE_OF_PRICE) / 100) * 100);
}

export function minimumBid(askingPrice: number, highestBid: number | null, options: { auction?: boolean } = {}): number {
  if (highestBid !== null) return highestBid + bidIncrement(highestBid);
  return options.auction ? Math.max(MIN_BID_AMOUNT, askingPrice) : openingBid(askingPrice);
}

/** Human description of the rule, for documentation and the bid form. */
export const BID_RULE_DESCRIPTION =
  'Bidding opens at half the asking price (rounded up to $100); an auction opens at its starting price. Each later bid must beat the highest by $250 below $50,000, $500 below $100,000, $1,000 below $250,000, $2,500 below $500,000 and $5,000 above.';

/** The proxy-bid rule in one sentence, for the bid form. */
export const PROXY_BID_DESCRIPTION = 'We bid for you, one step at a time, up to your maximum. Nobody sees it.';

/** A bidder's standing maximum on a car. */
export interface ProxyMax {
  userId: number;
  max: number;
}

/** One bid the resolution records, in order. */
export interface ProxyStep {
  userId: number;
  amount: number;
  /** Placed by the system for the bidder's maximum. */
  auto: boolean;
}

/**
 * Proxy (maximum) bids, contract "Proxy bids (v3)": what a new bid records, given the car's
 * highest bid and its leader's maximum, decided under the car's lock. The leader holds the
 * largest maximum (on equal maxima, the one set first), and every other bidder's maximum is at
 * most the highest bid, so the leader is the only rival that matters.
 *
 * - No rival: the bid is recorded at its amount.
 * - The leader bids again: recorded at its amount; the leader's maximum only rises (a lower
 *   one leaves the standing maximum in force).
 * - The newcomer's maximum is at most the leader's (ties go to the earlier maximum): the
 *   newcomer's bid at its own maximum, then the leader's automatic bid at
 *   min(leaderMax, newcomerMax + inc(newcomerMax)).
 * - The newcomer's maximum is larger: the previous leader's automatic bid at their maximum when
 *   that is above the highest bid, then the newcomer's at
 *   max(amount, min(newMax, previousMax + inc(previousMax))).
 *
 * The bid itself (amount at least the minimum, maximum at least the amount) is checked before.
 */
export function resolveProxyBid(
  car: { highestBid: number | null; leader: ProxyMax | null },
  bid: { userId: number; amount: number; max: number },
): { steps: ProxyStep[]; bidderMax: number; leaderId: number } {
  const { leader } = car;
  const own = (amount: number): ProxyStep => ({ userId: bid.userId, amount, auto: false });
  if (leader === null || car.highestBid === null) return { steps: [own(bid.amount)], bidderMax: bid.max, leaderId: bid.userId };
  if (leader.userId === bid.userId) return { steps: [own(bid.amount)], bidderMax: Math.max(leader.max, bid.max), leaderId: bid.userId };
  if (bid.max <= leader.max) {
    const reply = Math.min(leader.max, bid.max + bidIncrement(bid.max));
    return { steps: [own(bid.max), { userId: leader.userId, amount: reply, auto: true }], bidderMax: bid.max, leaderId: leader.userId };
  }
  const steps: ProxyStep[] = leader.max > car.highestBid ? [{ userId: leader.userId, amount: leader.max, auto: true }] : [];
  steps.push(own(Math.max(bid.amount, Math.min(bid.max, leader.max + bidIncrement(leader.max)))));
  return { steps, bidderMax: bid.max, leaderId: bid.userId };
}
