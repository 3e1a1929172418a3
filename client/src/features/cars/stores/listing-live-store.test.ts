import { describe, expect, it } from 'vitest';
import { applySummary } from './listing-live-store.ts';

describe('applySummary', () => {
  it('records bids and viewers per car', () => {
    let byId = applySummary({}, { carId: 1, currentBids: 2, highestBid: 100 });
    byId = applySummary(byId, { carId: 1, viewers: 3 });
    byId = applySummary(byId, { carId: 2, viewers: 1 });
    expect(byId).toEqual({ 1: { currentBids: 2, viewers: 3 }, 2: { viewers: 1 } });
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
