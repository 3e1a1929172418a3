import { api } from '../../../lib/api-client.ts';

/** Contract §Testimonials. `verified` is decided by the server and never sent. */
export interface Testimonial {
  id: number;
  customerName: string;
  customerImage: string | null;
  rating: number;
  comment: string;
  carPurchased: string | null;
  date: string;
  verified: boolean;
  location: string | null;
  purchaseAmount: number | null;
}

export interface TestimonialStats {
  count: number;
  averageRating: number;
  verifiedCount: number;
  satisfaction: number;
}

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
