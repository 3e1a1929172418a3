import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { NotificationSchema, NotificationsSnapshotSchema, ReadAllSchema } from '@common/schemas/notifications.ts';
import { pathId } from '../path-id.ts';

const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notifications = app.services.notifications;
  const security = [{ bearerAuth: [] }];

  app.get(
    '/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: "The signed-in user's latest 50 notifications, newest first, and the unread count",
        security,
        response: { 200: Envelope(NotificationsSnapshotSchema) },
      },
    },
    async (request) => ({ data: await notifications.list(request.session!.userId) }),
  );

  app.put(
    '/read-all',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Mark every notification read; other tabs get notification:unread',
        security,
        response: { 200: Envelope(ReadAllSchema) },
      },
    },
    async (request) => ({ data: { updated: await notifications.markAllRead(request.session!.userId) } }),
  );

  app.put(
    '/:id/read',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: "Mark one notification read; someone else's or unknown: 404",
        security,
        params: IdParam('id'),
        response: { 200: Envelope(NotificationSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await notifications.markRead(request.session!.userId, pathId(request.params.id, 'Notification not found')) }),
  );
};

export default notificationRoutes;
