import { NewTestimonialSchema } from '@common/schemas/commerce.ts';
import { issuesByField } from '@common/validation.ts';
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

export { COMMENT_MAX, COMMENT_MIN, TESTIMONIAL_DETAIL_MAX as DETAIL_MAX } from '@common/schemas/commerce.ts';

export const RATING_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

/** The body's fields, every one present: the optional ones as '' while empty. */
export type TestimonialFormValues = Required<NewTestimonial>;
export type TestimonialField = keyof TestimonialFormValues;
export type TestimonialErrors = Partial<Record<TestimonialField, string>>;

/** The body is checked against the schema `POST /api/testimonials` is validated with. */
export function validateTestimonial(values: TestimonialFormValues): TestimonialErrors {
  const { comment, ...rest } = testimonialBody(values);
  // A blank comment is a missing one: "Comment is required" rather than "at least 10 characters".
  return issuesByField(NewTestimonialSchema, comment ? { ...rest, comment } : rest);
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
