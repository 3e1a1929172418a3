import type { TestimonialStats } from './schemas/testimonials.ts';

/** The testimonials page's figures: average to one decimal, satisfaction as the share of 4+ stars. */
export function testimonialStats(ratings: readonly { rating: number; verified: boolean }[]): TestimonialStats {
  if (ratings.length === 0) return { count: 0, averageRating: 0, verifiedCount: 0, satisfaction: 0 };
  const total = ratings.reduce((sum, t) => sum + t.rating, 0);
  return {
    count: ratings.length,
    averageRating: Math.round((total / ratings.length) * 10) / 10,
    verifiedCount: ratings.filter((t) => t.verified).length,
    satisfaction: Math.round((ratings.filter((t) => t.rating >= 4).length / ratings.length) * 100),
  };
}
