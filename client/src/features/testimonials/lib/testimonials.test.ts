import { describe, expect, it } from 'vitest';
import {
  filterTestimonials,
  formatTestimonialDate,
  testimonialBody,
  testimonialStats,
  validateTestimonial,
} from './testimonials.ts';

const list = [
  { id: 1, date: '2025-06-16T16:00:00.000Z', verified: true, rating: 5 },
  { id: 2, date: '2024-08-01T00:00:00.000Z', verified: false, rating: 4 },
  { id: 3, date: '2024-08-01T09:30:00.000Z', verified: false, rating: 3 },
  { id: 4, date: '2024-07-21T20:10:00.000Z', verified: true, rating: 2 },
];

describe('filterTestimonials', () => {
  it('keeps everything for All, in order', () => {
    expect(filterTestimonials(list, 'all').map((t) => t.id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps only verified ones for Verified', () => {
    expect(filterTestimonials(list, 'verified').map((t) => t.id)).toEqual([1, 4]);
  });

  it('keeps only those dated after 1 August 2024 for Recent', () => {
    expect(filterTestimonials(list, 'recent').map((t) => t.id)).toEqual([1, 3]);
  });
});

describe('testimonialStats', () => {
  it('matches the server: mean to one decimal, share of 4+ stars as a whole percent', () => {
    expect(testimonialStats(list)).toEqual({ count: 4, averageRating: 3.5, verifiedCount: 2, satisfaction: 50 });
    expect(testimonialStats([{ rating: 5, verified: true }, { rating: 4, verified: false }, { rating: 4, verified: false }])).toEqual({
      count: 3,
      averageRating: 4.3,
      verifiedCount: 1,
      satisfaction: 100,
    });
    expect(testimonialStats([])).toEqual({ count: 0, averageRating: 0, verifiedCount: 0, satisfaction: 0 });
  });
});

describe('formatTestimonialDate', () => {
  it('gives the calendar day in words', () => {
    expect(formatTestimonialDate('2024-03-14T16:20:00.000Z')).toBe('March 14, 2024');
    expect(formatTestimonialDate('2025-01-24T04:15:00.000Z')).toBe('January 24, 2025');
    expect(formatTestimonialDate('nope')).toBe('');
  });
});

describe('validateTestimonial', () => {
  const valid = { rating: 5, comment: 'Smooth purchase from start to finish.', carPurchased: '', location: '' };

  it('accepts a rating and a comment of 10 to 2000 characters', () => {
    expect(validateTestimonial(valid)).toEqual({});
    expect(validateTestimonial({ ...valid, comment: 'x'.repeat(2000) })).toEqual({});
  });

  it('asks for a rating and a comment in words', () => {
    expect(validateTestimonial({ ...valid, rating: 0 }).rating).toBe('Please choose a rating');
    expect(validateTestimonial({ ...valid, comment: '   ' }).comment).toBe('Comment is required');
    expect(validateTestimonial({ ...valid, comment: 'Too short' }).comment).toBe('Comment must be at least 10 characters');
    expect(validateTestimonial({ ...valid, comment: 'x'.repeat(2001) }).comment).toBe('Comment must be at most 2000 characters');
    expect(validateTestimonial({ ...valid, carPurchased: 'x'.repeat(101) }).carPurchased).toMatch(/at most 100/);
  });
});

describe('testimonialBody', () => {
  it('trims and leaves out empty optional fields', () => {
    expect(testimonialBody({ rating: 4, comment: '  Great car, great people.  ', carPurchased: ' ', location: ' Austin, TX ' })).toEqual({
      rating: 4,
      comment: 'Great car, great people.',
      location: 'Austin, TX',
    });
  });
});
