import { describe, expect, it } from 'vitest';
import { applyAuctionRead, applyClose, applySummary, type LiveCounts } from './listing-live-store.ts';

describe('applySummary', () => {
  it('records bids and viewers per car', () => {
    let byId = applySummary({}, { carId: 1, currentBids: 2, highestBid: 100 });
    byId = applySummary(byId, { carId: 1, viewers: 3 });
    byId = applySummary(byId, { carId: 2, viewers: 1 });
    expect(byId).toEqual({ 1: { currentBids: 2, highestBid: 100, viewers: 3 }, 2: { viewers: 1 } });
  });

  it('never lowers the bid count; viewers go down as well as up', () => {
    let byId = applySummary({}, { carId: 1, currentBids: 5, viewers: 4 });
    byId = applySummary(byId, { carId: 1, currentBids: 4, viewers: 0 });
    expect(byId[1]).toEqual({ currentBids: 5, viewers: 0 });
  });

  it('ignores malformed summaries and returns the same object when nothing changes', () => {
    const byId = applySummary({}, { carId: 1, viewers: 2 });
    expect(applySummary(byId, { carId: 1, viewers: 2 })).toBe(byId);
    expect(applySummary(byId, null)).toBe(byId);
    expect(applySummary(byId, { carId: 'x', viewers: 9 })).toBe(byId);
  });
});

describe('auction cards', () => {
  const END = '2026-06-01T12:00:00.000Z';
  const LATER = '2026-06-01T12:00:04.000Z';

  it('follows the end from car:summary: a later end is an extension, an earlier one is ignored', () => {
    let byId: Record<number, LiveCounts> = { 1: { endsAt: END } }; // seeded from the listing snapshot
    byId = applySummary(byId, { carId: 1, currentBids: 1, highestBid: 150_000, endsAt: END }, 1_000);
    expect(byId[1]).toEqual({ endsAt: END, currentBids: 1, highestBid: 150_000 });
    byId = applySummary(byId, { carId: 1, currentBids: 2, highestBid: 152_500, endsAt: LATER }, 2_000);
    expect(byId[1]).toEqual({ endsAt: LATER, extendedAt: 2_000, currentBids: 2, highestBid: 152_500 });
    const same = applySummary(byId, { carId: 1, endsAt: END }, 3_000);
    expect(same).toBe(byId);
    byId = applySummary(byId, { carId: 1, currentBids: 3, highestBid: 160_000, endsAt: LATER, reserveMet: true }, 4_000);
    expect(byId[1]?.reserveMet).toBe(true);
    expect(applySummary(byId, { carId: 1, reserveMet: false }, 5_000)[1]?.reserveMet).toBe(true);
  });

  it('reads the current bid from a detail read, and the close from auction:ended or car:status', () => {
    let byId = applyAuctionRead({ 1: { endsAt: END } }, 1, { highestBid: 160_000, endsAt: END, reserveMet: false }, 1_000);
    expect(byId[1]).toEqual({ endsAt: END, highestBid: 160_000, reserveMet: false });
    byId = applyClose(byId, { carId: 1, status: 'ended' });
    expect(byId[1]).toMatchObject({ ended: true });
    byId = applyClose(byId, { carId: 1, outcome: 'sold', highestBid: 170_000, winnerId: 3, orderId: 4 });
    expect(byId[1]).toMatchObject({ ended: true, outcome: 'sold', highestBid: 170_000, reserveMet: true });
    expect(applyClose(byId, { carId: 1, status: 'active' })).toBe(byId);
    expect(applyClose(byId, { carId: 1, outcome: 'exploded' })).toBe(byId);
    expect(applyClose(byId, null)).toBe(byId);
  });
});
