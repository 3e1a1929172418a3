import { Type, type Static } from 'typebox';
import { IsoDateTime, Nullable } from './kit.ts';

/** What the testimonial routes answer. */

/** Contract §Testimonials. `verified` is decided by the server and never sent. */
export const TestimonialSchema = Type.Object(
  {
    id: Type.Integer(),
    customerName: Type.String(),
    customerImage: Nullable(Type.String()),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    comment: Type.String(),
    carPurchased: Nullable(Type.String()),
    date: IsoDateTime,
    verified: Type.Boolean({ description: 'Decided by the server: the author completed a purchase here' }),
    location: Nullable(Type.String()),
    purchaseAmount: Nullable(Type.Integer()),
  },
  {
    title: 'Testimonial',
    examples: [{ id: 4, customerName: 'Priya Raman', customerImage: null, rating: 5, comment: 'The escrow process made buying across the country painless.', carPurchased: '2022 Porsche 911 GT3', date: '2024-09-14T15:30:00.000Z', verified: true, location: 'Seattle, WA', purchaseAmount: 189_500 }],
  },
);
export type Testimonial = Static<typeof TestimonialSchema>;

export const TestimonialStatsSchema = Type.Object(
  {
    count: Type.Integer(),
    averageRating: Type.Number({ description: 'Mean rating, one decimal' }),
    verifiedCount: Type.Integer(),
    satisfaction: Type.Integer({ description: 'Share of ratings of 4 or more, whole percent' }),
  },
  { title: 'TestimonialStats', examples: [{ count: 9, averageRating: 4.6, verifiedCount: 6, satisfaction: 89 }] },
);
export type TestimonialStats = Static<typeof TestimonialStatsSchema>;

/** `GET /api/testimonials`: newest first, with statistics computed on the server. */
export const TestimonialsPageSchema = Type.Object({ testimonials: Type.Array(TestimonialSchema), stats: TestimonialStatsSchema });
export type TestimonialsPage = Static<typeof TestimonialsPageSchema>;
