import type { NewTestimonial, Testimonial } from '../api/testimonials.ts';

/** Spec §9: 'Recent' testimonials are those dated after 1 August 2024. */
export const RECENT_AFTER = Date.UTC(2024, 7, 1);

export const TESTIMONIAL_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'verified', label: 'Verified' },
  { value: 'recent', label: 'Recent' },
] as const;

export type TestimonialFilter = (typeof TESTIMONIAL_FILTERS)[number]['value'];

export function isRecent(testimonial: Pick<Testimonial, 'date'>): boolean {
  const at = Date.parse(testimonial.date);
  return Number.isFinite(at) && at > RECENT_AFTER;
}

export function filterTestimonials<T extends Pick<Testimonial, 'date' | 'verified'>>(list: readonly T[], filter: TestimonialFilter): T[] {
  switch (filter) {
    case 'verified':
      return list.filter((t) => t.verified);
    case 'recent':
      return list.filter(isRecent);
    case 'all':
      return [...list];
  }
}

export { testimonialStats } from '@common/testimonial-stats.ts';

/** "2024-03-14T16:20:00.000Z" → "March 14, 2024" (the calendar day in UTC, as stored). */
export function formatTestimonialDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export const COMMENT_MIN = 10;
export const COMMENT_MAX = 2000;
export const DETAIL_MAX = 100;

export const RATING_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

export interface TestimonialFormValues {
  rating: number;
  comment: string;
  carPurchased: string;
  location: string;
}

export type TestimonialField = keyof TestimonialFormValues;
export type TestimonialErrors = Partial<Record<TestimonialField, string>>;

const length = (text: string) => [...text].length;

export function validateTestimonial(values: TestimonialFormValues): TestimonialErrors {
  const errors: TestimonialErrors = {};
  if (!Number.isInteger(values.rating) || values.rating < 1 || values.rating > 5) errors.rating = 'Please choose a rating';
  const comment = values.comment.trim();
  if (!comment) errors.comment = 'Comment is required';
  else if (length(comment) < COMMENT_MIN) errors.comment = `Comment must be at least ${COMMENT_MIN} characters`;
  else if (length(comment) > COMMENT_MAX) errors.comment = `Comment must be at most ${COMMENT_MAX} characters`;
  if (length(values.carPurchased.trim()) > DETAIL_MAX) errors.carPurchased = `Car must be at most ${DETAIL_MAX} characters`;
  if (length(values.location.trim()) > DETAIL_MAX) errors.location = `Location must be at most ${DETAIL_MAX} characters`;
  return errors;
}

/** The POST body: trimmed, optional fields left out when empty. */
export function testimonialBody(values: TestimonialFormValues): NewTestimonial {
  const body: NewTestimonial = { rating: values.rating, comment: values.comment.trim() };
  const car = values.carPurchased.trim();
  const location = values.location.trim();
  if (car) body.carPurchased = car;
  if (location) body.location = location;
  return body;
}
