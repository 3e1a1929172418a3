import { NewTestimonialSchema } from '@common/schemas/commerce.ts';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorBody, IsoDateTime, commonErrors } from '../../../lib/schemas.ts';

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);

const TestimonialSchema = Type.Object(
  {
    id: Type.Integer(),
    customerName: Type.String(),
    customerImage: nullable(Type.String()),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    comment: Type.String(),
    carPurchased: nullable(Type.String()),
    date: IsoDateTime,
    verified: Type.Boolean({ description: 'Decided by the server: the author completed a purchase here' }),
    location: nullable(Type.String()),
    purchaseAmount: nullable(Type.Integer()),
  },
  {
    title: 'Testimonial',
    examples: [{ id: 4, customerName: 'Priya Raman', customerImage: null, rating: 5, comment: 'The escrow process made buying across the country painless.', carPurchased: '2022 Porsche 911 GT3', date: '2024-09-14T15:30:00.000Z', verified: true, location: 'Seattle, WA', purchaseAmount: 189_500 }],
  },
);

const StatsSchema = Type.Object(
  {
    count: Type.Integer(),
    averageRating: Type.Number({ description: 'Mean rating, one decimal' }),
    verifiedCount: Type.Integer(),
    satisfaction: Type.Integer({ description: 'Share of ratings of 4 or more, whole percent' }),
  },
  { title: 'TestimonialStats', examples: [{ count: 9, averageRating: 4.6, verifiedCount: 6, satisfaction: 89 }] },
);

const testimonialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.testimonials;

  app.get(
    '/',
    {
      schema: {
        tags: ['testimonials'],
        summary: 'Customer testimonials, newest first, with statistics computed on the server',
        response: { 200: Envelope(Type.Object({ testimonials: Type.Array(TestimonialSchema), stats: StatsSchema })), ...commonErrors },
      },
    },
    async () => ({ data: await service.list() }),
  );

  app.post(
    '/',
    {
      preHandler: [...app.requireVerifiedUser, app.limit({ name: 'testimonials-per-user', max: 5, timeWindowMs: 86_400_000, key: (request) => String(request.session?.userId) })],
      schema: {
        tags: ['testimonials'],
        summary: 'Share your experience (signed in, verified email). `verified` cannot be sent.',
        security: [{ bearerAuth: [] }],
        body: NewTestimonialSchema,
        response: { 201: Envelope(TestimonialSchema), 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, ...commonErrors },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await service.create(request.session!.userId, request.body) }),
  );
};

export default testimonialRoutes;
