import { api } from '../../../lib/api-client.ts';
import type { Testimonial, TestimonialStats } from '@common/api-types.ts';


export type { Testimonial, TestimonialStats } from '@common/api-types.ts';

export interface TestimonialsPage {
  testimonials: Testimonial[];
  stats: TestimonialStats;
}

export interface NewTestimonial {
  rating: number;
  comment: string;
  carPurchased?: string;
  location?: string;
}

export function getTestimonials(signal?: AbortSignal): Promise<TestimonialsPage> {
  return api.get<TestimonialsPage>('/api/testimonials', { signal });
}

export function postTestimonial(body: NewTestimonial): Promise<Testimonial> {
  return api.post<Testimonial>('/api/testimonials', body);
}
