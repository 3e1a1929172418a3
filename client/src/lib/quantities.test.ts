import { describe, expect, it } from 'vitest';
import { countLabel, formatMileage } from './quantities.ts';

describe('formatMileage', () => {
  it('uses thousands separators and a "mi" unit', () => {
    expect([12345, 0, 1200.4].map(formatMileage)).toEqual(['12,345 mi', '0 mi', '1,200 mi']);
  });
});

describe('countLabel', () => {
  it('pluralises', () => {
    expect([0, 1, 1500].map((n) => countLabel(n, 'bid'))).toEqual(['0 bids', '1 bid', '1,500 bids']);
  });
});
