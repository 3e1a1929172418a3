import type { AuctionSummary } from '@common/schemas/cars.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';

/**
 * Whether My Listings offers "Accept Highest Bid": a fixed-price listing on the market with a
 * bid, or an auction that ended below its reserve (the seller may still sell to the highest
 * bidder for a day; the server says when that day has passed). A running auction is decided by
 * its end, never by the seller.
 */
export function canAcceptBid(listing: { status: CarStatus; highestBid: number | null; auction: AuctionSummary | null }): boolean {
  if (listing.highestBid === null) return false;
  if (listing.auction) return listing.status === 'ended' && !listing.auction.reserveMet;
  return listing.status === 'active';
}

/**
 * How an ended auction came out, as far as the listing row tells (it has no outcome field): no
 * bids, the reserve met (sold to the highest bidder), or not met. Null while it runs.
 */
export function listingAuctionOutcome(listing: {
  current_bids: number;
  auction: AuctionSummary | null;
}): 'sold' | 'reserve_not_met' | 'no_bids' | null {
  const auction = listing.auction;
  if (!auction || !auction.ended) return null;
  if (listing.current_bids === 0) return 'no_bids';
  return auction.reserveMet ? 'sold' : 'reserve_not_met';
}
