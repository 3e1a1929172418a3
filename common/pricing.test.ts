import { describe, expect, it } from 'vitest';
import { compareToMarket, formatUsd } from './pricing.ts';

describe('formatUsd', () => {
  it('formats whole dollars with thousands separators and no decimals', () => {
    expect(formatUsd(125000)).toBe('$125,000');
    expect(formatUsd(1_250_000)).toBe('$1,250,000');
    expect(formatUsd(999)).toBe('$999');
    expect(formatUsd(0)).toBe('$0');
  });

  it('rounds fractional input instead of showing cents', () => {
    expect(formatUsd(89999.6)).toBe('$90,000');
    expect(formatUsd(-0.2)).toBe('$0');
  });
});

describe('compareToMarket', () => {
  it.each([
    { relation: 'below', price: 88000, kind: 'below', difference: 12000, label: '$12,000 below market' },
    { relation: 'above', price: 105000, kind: 'above', difference: 5000, label: '$5,000 above market' },
    { relation: 'equal to', price: 100000, kind: 'at', difference: 0, label: 'At market value' },
  ])('reports a price $relation market value', ({ price, kind, difference, label }) => {
    expect(compareToMarket(price, 100000)).toEqual({ kind, difference, label });
  });

  it('treats a one-dollar gap as a real difference', () => {
    expect(compareToMarket(99999, 100000)?.label).toBe('$1 below market');
    expect(compareToMarket(100001, 100000)?.label).toBe('$1 above market');
  });

  it('has no label when the market value is unknown', () => {
    expect(compareToMarket(100000, null)).toBeNull();
  });
});
