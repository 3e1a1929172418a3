import { describe, expect, it } from 'vitest';
import { bidIncrement, minimumBid, openingBid, resolveProxyBid } from './bid-rules.ts';

describe('bid rules', () => {
  it('opens at half the asking price, rounded up to $100', () => {
    expect(openingBid(189_500)).toBe(94_800);
    expect(openingBid(100_000)).toBe(50_000);
    expect(minimumBid(68_501, null)).toBe(34_300);
  });

  it('steps the increment up with the amount', () => {
    expect(bidIncrement(49_999)).toBe(250);
    expect(bidIncrement(50_000)).toBe(500);
    expect(bidIncrement(99_999)).toBe(500);
    expect(bidIncrement(100_000)).toBe(1_000);
    expect(bidIncrement(250_000)).toBe(2_500);
    expect(bidIncrement(500_000)).toBe(5_000);
  });

  it('requires beating the highest bid by the increment', () => {
    expect(minimumBid(200_000, 120_000)).toBe(121_000);
    expect(minimumBid(200_000, 99_900)).toBe(100_400);
  });
});

describe('proxy bids', () => {
  const A = 1;
  const B = 2;
  it('records a bid with no rival at its amount', () => {
    expect(resolveProxyBid({ highestBid: null, leader: null }, { userId: A, amount: 10_000, max: 20_000 })).toEqual({
      steps: [{ userId: A, amount: 10_000, auto: false }],
      bidderMax: 20_000,
      leaderId: A,
    });
  });

  it("answers a newcomer below the leader's maximum with one increment past the newcomer's maximum", () => {
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 20_000 } }, { userId: B, amount: 10_250, max: 12_000 })).toEqual({
      steps: [
        { userId: B, amount: 12_000, auto: false },
        { userId: A, amount: 12_250, auto: true },
      ],
      bidderMax: 12_000,
      leaderId: A,
    });
    // Capped at the leader's maximum; equal maxima go to the earlier one.
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 20_000 } }, { userId: B, amount: 19_900, max: 19_900 }).steps[1]).toEqual({ userId: A, amount: 20_000, auto: true });
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 20_000 } }, { userId: B, amount: 20_000, max: 20_000 })).toMatchObject({
      steps: [
        { userId: B, amount: 20_000, auto: false },
        { userId: A, amount: 20_000, auto: true },
      ],
      leaderId: A,
    });
  });

  it("lets a larger maximum take the lead one increment past the previous leader's maximum", () => {
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 60_000 } }, { userId: B, amount: 10_250, max: 90_000 })).toEqual({
      steps: [
        { userId: A, amount: 60_000, auto: true },
        { userId: B, amount: 60_500, auto: false },
      ],
      bidderMax: 90_000,
      leaderId: B,
    });
    // No automatic bid when the previous leader's maximum is the highest bid; the amount wins when higher.
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 10_000 } }, { userId: B, amount: 15_000, max: 90_000 }).steps).toEqual([{ userId: B, amount: 15_000, auto: false }]);
  });

  it("records the leader's own new bid at its amount and never lowers a maximum", () => {
    expect(resolveProxyBid({ highestBid: 10_000, leader: { userId: A, max: 30_000 } }, { userId: A, amount: 10_250, max: 10_250 })).toEqual({
      steps: [{ userId: A, amount: 10_250, auto: false }],
      bidderMax: 30_000,
      leaderId: A,
    });
  });
});
