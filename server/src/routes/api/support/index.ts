import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NewTicketSchema } from '@common/schemas/commerce.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { SupportTicketSchema, SupportTicketWithMessageSchema, SupportTicketsSchema, TicketReferenceParams } from '@common/schemas/support.ts';

const HOUR_MS = 3_600_000;

const supportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const support = app.services.support;

  app.post(
    '/tickets',
    {
      preHandler: [
        app.optionalAuthentication,
        app.limit({ name: 'tickets-per-ip', max: 20, timeWindowMs: HOUR_MS, key: (request) => request.ip }),
      ],
      schema: {
        tags: ['support'],
        summary: 'File a support ticket; visitors give an email to be answered at, signed-in users file as themselves',
        body: NewTicketSchema,
        response: { 201: Envelope(SupportTicketSchema) },
      },
    },
    async (request, reply) => {
      const ticket = await support.file(request.session ? { userId: request.session.userId } : null, {
        subject: request.body.subject,
        message: request.body.message,
        category: request.body.category ?? 'general',
        priority: request.body.priority ?? 'normal',
        email: request.body.email,
      });
      return reply.status(201).send({ data: ticket });
    },
  );

  app.get(
    '/tickets',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['support'],
        summary: "The signed-in user's tickets, newest first",
        security: [{ bearerAuth: [] }],
        response: { 200: Envelope(SupportTicketsSchema) },
      },
    },
    async (request) => ({ data: { tickets: await support.listFor(request.session!.userId) } }),
  );

  app.get(
    '/tickets/:reference',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['support'],
        summary: "One of the signed-in user's tickets, with its message (anyone else's: 404)",
        security: [{ bearerAuth: [] }],
        params: TicketReferenceParams,
        response: { 200: Envelope(SupportTicketWithMessageSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await support.getFor(request.session!.userId, request.params.reference) }),
  );
};

export default supportRoutes;
