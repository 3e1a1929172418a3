import { api } from '../../../lib/api-client.ts';
import type { Static } from 'typebox';
import type { Testimonial, TestimonialStats } from '@common/api-types.ts';
import type { NewTestimonialSchema } from '@common/schemas/commerce.ts';


export type { Testimonial, TestimonialStats } from '@common/api-types.ts';

export interface TestimonialsPage {
  testimonials: Testimonial[];
  stats: TestimonialStats;
}

export type NewTestimonial = Static<typeof NewTestimonialSchema>;

/** The request `getTestimonials` makes, as a server-rendered page keys its answer. */
export const TESTIMONIALS_PATH = '/api/testimonials';

export function getTestimonials(signal?: AbortSignal): Promise<TestimonialsPage> {
  return api.get<TestimonialsPage>(TESTIMONIALS_PATH, { signal });
}

export function postTestimonial(body: NewTestimonial): Promise<Testimonial> {
  return api.post<Testimonial>('/api/testimonials', body);
}
