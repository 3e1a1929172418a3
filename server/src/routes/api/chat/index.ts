import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChatMessageSchema, ChatPageSchema, DiscussionsSchema } from '@common/schemas/chat.ts';
import { CHAT_PAGE_DEFAULT, ChatPageQuerySchema, PostChatSchema } from '@common/schemas/commerce.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { pathId } from '../path-id.ts';

const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const chat = app.services.chat;

  app.get(
    '/car/:carId',
    {
      schema: {
        tags: ['chat'],
        summary: "A car's discussion, oldest first: the latest messages, or those after a message id",
        params: IdParam('carId'),
        querystring: ChatPageQuerySchema,
        response: { 200: Envelope(ChatPageSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const carId = pathId(request.params.carId, 'Car not found');
      const messages = await chat.list(carId, { after: request.query.after, limit: request.query.limit ?? CHAT_PAGE_DEFAULT });
      return { data: { messages } };
    },
  );

  app.get(
    '/user',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['chat'],
        summary: 'The discussions the signed-in user has taken part in, most recent first',
        security: [{ bearerAuth: [] }],
        response: { 200: Envelope(DiscussionsSchema) },
      },
    },
    async (request) => ({ data: { discussions: await app.services.dashboard.discussions(request.session!.userId) } }),
  );

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['chat'],
        summary: "Post to a car's discussion (signed in, verified email)",
        security: [{ bearerAuth: [] }],
        body: PostChatSchema,
        response: { 201: Envelope(ChatMessageSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const message = await chat.post(
        { userId: session.userId, name: session.name },
        { carId: request.body.carId, message: request.body.message, type: request.body.type ?? 'message' },
      );
      return reply.status(201).send({ data: message });
    },
  );
};

export default chatRoutes;
