import { describe, expect, it } from 'vitest';
import { countLabel, formatMileage, listingCountText } from './format.ts';

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

describe('listingCountText', () => {
  it('matches the spec wording', () => {
    expect(listingCountText(12, 40)).toBe('Showing 12 of 40 vehicles');
  });
});
