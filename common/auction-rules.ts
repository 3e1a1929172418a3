/**
 * Timed auctions (contract §"Timed auctions"): shared by the server, which decides every
 * outcome by its own clock under the car's lock, and the web app, which only displays them.
 */

/** An auction runs at most this long. */
export const AUCTION_MAX_DAYS = 30;
/** Every auction settles through escrow, whose largest plan covers this much. */
export const AUCTION_BID_LIMIT = 1_000_000;

export const AUCTION_OUTCOMES = ['sold', 'reserve_not_met', 'no_bids'] as const;
export type AuctionOutcome = (typeof AUCTION_OUTCOMES)[number];

/**
 * Soft close: a bid accepted less than `extensionSeconds` before the end moves the end to the
 * bid's time plus `extensionSeconds`, so nobody can win by sniping the last second.
 */
export function endAfterBid(endsAt: Date, bidAt: Date, extensionSeconds: number): Date {
  const extended = bidAt.getTime() + extensionSeconds * 1000;
  return extended > endsAt.getTime() ? new Date(extended) : endsAt;
}

/** How an auction ends, from its highest bid and its reserve (none: any bid sells). */
export function auctionOutcome(highestBid: number | null, reservePrice: number | null): AuctionOutcome {
  if (highestBid === null) return 'no_bids';
  return reservePrice === null || highestBid >= reservePrice ? 'sold' : 'reserve_not_met';
}
