import { NewTicketSchema } from '@common/schemas/commerce.ts';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SUPPORT_CATEGORIES, SUPPORT_PRIORITIES } from '@common/enums.ts';
import { Envelope, ErrorBody, IsoDateTime, StringEnum, commonErrors } from '../../../lib/schemas.ts';

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
        response: {
          201: Envelope(TicketSchema),
          401: ErrorBody,
          429: ErrorBody,
          ...commonErrors,
        },
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
        response: { 200: Envelope(Type.Object({ tickets: Type.Array(TicketSchema) })), 401: ErrorBody, ...commonErrors },
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
        params: Type.Object({ reference: Type.String({ maxLength: 20 }) }),
        response: { 200: Envelope(Type.Intersect([TicketSchema, Type.Object({ message: Type.String() })])), 401: ErrorBody, 404: ErrorBody, ...commonErrors },
      },
    },
    async (request) => ({ data: await support.getFor(request.session!.userId, request.params.reference) }),
  );
};

const TicketSchema = Type.Object(
  {
    id: Type.String({ description: 'Human-friendly reference, e.g. LM-7K3Q9P' }),
    subject: Type.String(),
    category: StringEnum(SUPPORT_CATEGORIES),
    priority: StringEnum(SUPPORT_PRIORITIES),
    status: Type.String(),
    email: Type.String(),
    createdAt: IsoDateTime,
  },
  { title: 'SupportTicket' },
);

export default supportRoutes;
