import type { AuctionSummary, CarStatus } from '@common/api-types.ts';

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
