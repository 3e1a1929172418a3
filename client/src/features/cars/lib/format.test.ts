import { describe, expect, it } from 'vitest';
import { listingCountText } from './format.ts';

describe('listingCountText', () => {
  it('matches the spec wording', () => {
    expect(listingCountText(12, 40)).toBe('Showing 12 of 40 vehicles');
  });
});
