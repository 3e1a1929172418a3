import { describe, expect, it } from 'vitest';
import { followsMinimum, formatAmountInput, newIdempotencyKey, parseBidAmount } from './bid-amount.ts';

describe('parseBidAmount', () => {
  it('reads whole dollars with or without $ and separators', () => {
    expect(parseBidAmount('125000')).toBe(125_000);
    expect(parseBidAmount('$125,000')).toBe(125_000);
    expect(parseBidAmount(' 125 000 ')).toBe(125_000);
  });

  it('refuses decimals, negatives, zero, words and amounts over the limit', () => {
    for (const bad of ['', '12.5', '-5', '0', 'abc', '1e6', '100000001']) expect(parseBidAmount(bad), bad).toBeNull();
  });
});

describe('formatAmountInput', () => {
  it('groups thousands', () => {
    expect(formatAmountInput(1_250_000)).toBe('1,250,000');
  });
});

describe('newIdempotencyKey', () => {
  it('gives a different v4 UUID each time', () => {
    const a = newIdempotencyKey();
    const b = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});

describe('followsMinimum', () => {
  it('follows while the user has not typed', () => {
    expect(followsMinimum(null, 100_000, false)).toBe(true);
  });

  it('keeps what the user typed while they type, and while the minimum has not moved', () => {
    expect(followsMinimum({ value: '90000', minimumAtEdit: 100_000 }, 105_000, true)).toBe(false);
    expect(followsMinimum({ value: '90000', minimumAtEdit: 100_000 }, 100_000, false)).toBe(false);
  });

  it('snaps back to the minimum when a newer bid overtook the typed amount', () => {
    expect(followsMinimum({ value: '101000', minimumAtEdit: 100_000 }, 105_000, false)).toBe(true);
    expect(followsMinimum({ value: '110000', minimumAtEdit: 100_000 }, 105_000, false)).toBe(false);
  });
});
