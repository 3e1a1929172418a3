import { describe, expect, it } from 'vitest';
import type { AuctionSummary } from '@common/schemas/cars.ts';
import { canAcceptBid, listingAuctionOutcome } from './listing-actions.ts';

const auction = (over: Partial<AuctionSummary> = {}): AuctionSummary => ({
  endsAt: '2026-01-01T00:00:00Z',
  reserveMet: false,
  ended: false,
  hasReserve: true,
  extensions: 0,
  ...over,
});

describe('canAcceptBid', () => {
  it('offers a fixed-price listing on the market once it has a bid', () => {
    expect(canAcceptBid({ status: 'active', highestBid: 90_000, auction: null })).toBe(true);
    expect(canAcceptBid({ status: 'active', highestBid: null, auction: null })).toBe(false);
    for (const status of ['draft', 'pending', 'sold', 'withdrawn'] as const) {
      expect(canAcceptBid({ status, highestBid: 90_000, auction: null }), status).toBe(false);
    }
  });

  it('never while an auction runs; after it ended only below the reserve', () => {
    expect(canAcceptBid({ status: 'active', highestBid: 90_000, auction: auction() })).toBe(false);
    expect(canAcceptBid({ status: 'ended', highestBid: 90_000, auction: auction({ ended: true }) })).toBe(true);
    expect(canAcceptBid({ status: 'ended', highestBid: 90_000, auction: auction({ ended: true, reserveMet: true }) })).toBe(false);
    expect(canAcceptBid({ status: 'ended', highestBid: null, auction: auction({ ended: true }) })).toBe(false);
  });
});

describe('listingAuctionOutcome', () => {
  it('is null for a fixed price or a running auction', () => {
    expect(listingAuctionOutcome({ current_bids: 2, auction: null })).toBeNull();
    expect(listingAuctionOutcome({ current_bids: 2, auction: auction() })).toBeNull();
  });

  it('tells an ended auction without bids, sold, or below its reserve', () => {
    expect(listingAuctionOutcome({ current_bids: 0, auction: auction({ ended: true }) })).toBe('no_bids');
    expect(listingAuctionOutcome({ current_bids: 3, auction: auction({ ended: true, reserveMet: true }) })).toBe('sold');
    expect(listingAuctionOutcome({ current_bids: 3, auction: auction({ ended: true, hasReserve: false, reserveMet: true }) })).toBe('sold');
    expect(listingAuctionOutcome({ current_bids: 3, auction: auction({ ended: true }) })).toBe('reserve_not_met');
  });
});
