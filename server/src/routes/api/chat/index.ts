import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHAT_DUPLICATE_WINDOW_SECONDS, CHAT_RATE_LIMIT, CHAT_REPORTS_TO_HOLD, HELD_MESSAGE_NOTICE } from '@common/discussion.ts';
import { ChatMessageSchema, ChatPageSchema, ChatReportedSchema, ChatVoteSchema, DiscussionsSchema, ReportChatSchema } from '@common/schemas/chat.ts';
import { CHAT_PAGE_DEFAULT, ChatPageQuerySchema, PostChatSchema } from '@common/schemas/commerce.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { pathId } from '../path-id.ts';
import { readerOf } from '../reader.ts';

const MessageIdParams = IdParam('id');


const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const chat = app.services.chat;
  const messageId = (raw: string) => pathId(raw, 'Message not found');

  app.get(
    '/car/:carId',
    {
      preHandler: app.optionalAuthentication,
      schema: {
        tags: ['chat'],
        summary: "A car's discussion, oldest first: the latest messages, or those after a message id; replies included (thread them by parentId)",
        description:
          'Answers what the reader may see: visible messages to everyone, a held message also to its author (status `held`), held and removed ones to staff. `upvotedByMe` is false when signed out.',
        params: IdParam('carId'),
        querystring: ChatPageQuerySchema,
        response: { 200: Envelope(ChatPageSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const carId = pathId(request.params.carId, 'Car not found');
      const messages = await chat.list(carId, { after: request.query.after, limit: request.query.limit ?? CHAT_PAGE_DEFAULT }, readerOf(request));
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
        summary: "Post to a car's discussion or reply to one of its top-level messages (signed in, verified email)",
        description: [
          `A message with contact details or payment outside escrow is stored and answered with status \`held\`: only its author and staff see it until an operator approves it ("${HELD_MESSAGE_NOTICE}").`,
          `At most ${CHAT_RATE_LIMIT.messages} messages per car in ${CHAT_RATE_LIMIT.windowSeconds} seconds (429 RATE_LIMITED with Retry-After); the same text on the same car within ${CHAT_DUPLICATE_WINDOW_SECONDS} seconds: 409 DUPLICATE_MESSAGE; a muted user: 403 MUTED with details {until}.`,
          '`parentId`: a visible top-level message of the same car; a reply, a message of another car, a removed or unknown one: 400 naming parentId.',
        ].join(' '),
        security: [{ bearerAuth: [] }],
        body: PostChatSchema,
        response: { 201: Envelope(ChatMessageSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.MUTED, ErrorCode.DUPLICATE_MESSAGE, ErrorCode.RATE_LIMITED) },
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const message = await chat.post(
        { userId: session.userId, name: session.name },
        { carId: request.body.carId, message: request.body.message, type: request.body.type ?? 'message', parentId: request.body.parentId },
      );
      return reply.status(201).send({ data: message });
    },
  );

  const voteSchema = (summary: string) => ({
    tags: ['chat'],
    summary,
    description: "Once per user: repeating changes nothing. One's own message: 403 NOT_ALLOWED; a message the reader cannot see: 404; muted: 403 MUTED. Pushes chat:updated to the car's viewers.",
    security: [{ bearerAuth: [] }],
    params: MessageIdParams,
    response: { 200: Envelope(ChatVoteSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED, ErrorCode.MUTED) },
  });

  app.post('/:id/upvote', { preHandler: app.requireVerifiedUser, schema: voteSchema('Upvote a message') }, async (request) => ({
    data: await chat.upvote({ userId: request.session!.userId }, messageId(request.params.id), true),
  }));
  app.delete('/:id/upvote', { preHandler: app.requireVerifiedUser, schema: voteSchema('Take back an upvote') }, async (request) => ({
    data: await chat.upvote({ userId: request.session!.userId }, messageId(request.params.id), false),
  }));

  app.post(
    '/:id/report',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['chat'],
        summary: 'Report a message to the moderators',
        description: `Reports from ${CHAT_REPORTS_TO_HOLD} different users hold a visible message (gone from everyone's view, chat:removed pushed, into the moderation queue). Again by the same user: 409 ALREADY_REPORTED; one's own: 403 NOT_ALLOWED; unseen: 404; muted: 403 MUTED.`,
        security: [{ bearerAuth: [] }],
        params: MessageIdParams,
        body: ReportChatSchema,
        response: { 201: Envelope(ChatReportedSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED, ErrorCode.MUTED, ErrorCode.ALREADY_REPORTED) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await chat.report({ userId: request.session!.userId }, messageId(request.params.id), request.body) }),
  );
};

export default chatRoutes;
