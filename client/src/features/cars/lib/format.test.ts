import { describe, expect, it } from 'vitest';
import { countLabel, formatMileage, listingCountText } from './format.ts';

describe('formatMileage', () => {
  it('uses thousands separators and a "mi" unit', () => {
    expect(formatMileage(12345)).toBe('12,345 mi');
    expect(formatMileage(0)).toBe('0 mi');
    expect(formatMileage(1200.4)).toBe('1,200 mi');
  });
});

describe('countLabel', () => {
  it('pluralises', () => {
    expect(countLabel(0, 'bid')).toBe('0 bids');
    expect(countLabel(1, 'bid')).toBe('1 bid');
    expect(countLabel(1500, 'bid')).toBe('1,500 bids');
  });
});

describe('listingCountText', () => {
  it('matches the spec wording', () => {
    expect(listingCountText(12, 40)).toBe('Showing 12 of 40 vehicles');
  });
});
