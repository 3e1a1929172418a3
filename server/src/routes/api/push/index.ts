import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorCode } from '@common/error-codes.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import {
  PushPublicKeySchema,
  PushSubscriptionBodySchema,
  PushSubscriptionCreatedSchema,
  PushSubscriptionDeleteSchema,
  PushSubscriptionListSchema,
} from '@common/schemas/notifications.ts';

/** Web Push: the VAPID key, the user's devices, a test push. */
const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const delivery = app.services.notificationDelivery;
  const security = [{ bearerAuth: [] }];

  app.get(
    '/public-key',
    { schema: { tags: ['push'], summary: "The server's VAPID public key (base64url), the browser's applicationServerKey", response: { 200: Envelope(PushPublicKeySchema) } } },
    async () => ({ data: { publicKey: delivery.publicKey } }),
  );

  app.post(
    '/subscriptions',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['push'],
        summary: "Register this device (a browser's PushSubscription.toJSON()); the same endpoint again: 200, keys updated",
        description:
          'The endpoint must be https, name a host (no IP address) and resolve only to public addresses, unless its host is in PUSH_ENDPOINT_HOSTS_ALLOWED: else 400 naming endpoint. keys.p256dh is a 65-byte P-256 key, keys.auth 16 bytes. At most 10 devices per user: 409 TOO_MANY_SUBSCRIPTIONS.',
        security,
        body: PushSubscriptionBodySchema,
        response: {
          200: Envelope(PushSubscriptionCreatedSchema),
          201: Envelope(PushSubscriptionCreatedSchema),
          ...errorResponses(ErrorCode.TOO_MANY_SUBSCRIPTIONS),
        },
      },
    },
    async (request, reply) => {
      const { id, created } = await delivery.subscribe(request.session!.userId, request.body);
      return reply.code(created ? 201 : 200).send({ data: { id } });
    },
  );

  app.get(
    '/subscriptions',
    {
      preHandler: app.authenticate,
      schema: { tags: ['push'], summary: "The signed-in user's devices (host of each endpoint, never the endpoint or keys)", security, response: { 200: Envelope(PushSubscriptionListSchema) } },
    },
    async (request) => ({ data: { subscriptions: await delivery.list(request.session!.userId) } }),
  );

  app.delete(
    '/subscriptions',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['push'],
        summary: 'Remove one of your devices by its endpoint (200 whether or not it was there)',
        security,
        body: PushSubscriptionDeleteSchema,
        response: { 200: Envelope(Type.Object({ removed: Type.Literal(true) })) },
      },
    },
    async (request) => {
      await delivery.unsubscribe(request.session!.userId, request.body.endpoint);
      return { data: { removed: true as const } };
    },
  );

  app.post(
    '/test',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['push'],
        summary: 'Send a test notification to each of your devices',
        security,
        response: { 202: Envelope(Type.Object({ devices: Type.Integer() })) },
      },
    },
    async (request, reply) => reply.code(202).send({ data: { devices: await delivery.test(request.session!.userId) } }),
  );
};

export default pushRoutes;
