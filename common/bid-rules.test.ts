import { describe, expect, it } from 'vitest';
import { bidIncrement, minimumBid, openingBid } from './bid-rules.ts';

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
