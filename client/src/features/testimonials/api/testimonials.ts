import { api } from '../../../lib/api-client.ts';
import type { Testimonial, TestimonialsPage } from '@common/schemas/testimonials.ts';
import type { NewTestimonial } from '@common/schemas/commerce.ts';

export type { Testimonial, TestimonialStats, TestimonialsPage } from '@common/schemas/testimonials.ts';
export type { NewTestimonial } from '@common/schemas/commerce.ts';

/** The request `getTestimonials` makes, as a server-rendered page keys its answer. */
export const TESTIMONIALS_PATH = '/api/testimonials';

export function getTestimonials(signal?: AbortSignal): Promise<TestimonialsPage> {
  return api.get<TestimonialsPage>(TESTIMONIALS_PATH, { signal });
}

export function postTestimonial(body: NewTestimonial): Promise<Testimonial> {
  return api.post<Testimonial>('/api/testimonials', body);
}
