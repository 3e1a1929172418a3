import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NewTestimonialSchema } from '@common/schemas/commerce.ts';
import { Envelope } from '@common/schemas/envelope.ts';
import { TestimonialSchema, TestimonialsPageSchema } from '@common/schemas/testimonials.ts';

const testimonialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.testimonials;

  app.get(
    '/',
    {
      schema: {
        tags: ['testimonials'],
        summary: 'Customer testimonials, newest first, with statistics computed on the server',
        response: { 200: Envelope(TestimonialsPageSchema) },
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
        response: { 201: Envelope(TestimonialSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await service.create(request.session!.userId, request.body) }),
  );
};

export default testimonialRoutes;
