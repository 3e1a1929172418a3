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

export function bidIncrement(highestBid: number): number {
  return INCREMENTS.find((tier) => highestBid < tier.below)!.step;
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
