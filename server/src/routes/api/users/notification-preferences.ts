import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NOTIFICATION_EVENTS } from '@common/notifications.ts';
import { Envelope } from '@common/schemas/envelope.ts';
import { StringEnum } from '@common/schemas/kit.ts';
import { PreferencesSchema, PreferencesUpdateSchema } from '@common/schemas/notifications.ts';
import { validationFailed } from '../../../lib/errors.ts';

/** `/api/users/notification-preferences`: what arrives where, quiet hours, and the emails' one-click unsubscribe. */
const preferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notificationPreferences: preferences, notificationDelivery: delivery } = app.services;
  const security = [{ bearerAuth: [] }];

  app.get(
    '/',
    {
      preHandler: app.authenticate,
      schema: { tags: ['notifications'], summary: 'Your notification preferences: channels per event, quiet hours, the cells that cannot be turned off', security, response: { 200: Envelope(PreferencesSchema) } },
    },
    async (request) => ({ data: await preferences.get(request.session!.userId) }),
  );

  app.put(
    '/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Change any subset of events and channels, and the quiet hours (null: none)',
        description: 'A locked cell turned off, an unknown event or channel, a time that is not HH:MM, or an unknown time zone: 400 naming the field, and nothing changes.',
        security,
        body: PreferencesUpdateSchema,
        response: { 200: Envelope(PreferencesSchema) },
      },
    },
    async (request) => {
      const updated = await preferences.update(request.session!.userId, request.body);
      if (request.body.quietHours !== undefined) await delivery.quietHoursChanged(request.session!.userId);
      return { data: updated };
    },
  );

  // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` (multipart or urlencoded) to the
  // header's URL, which carries the token; the body says nothing more.
  await app.register(async (oneClick) => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
      oneClick.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4_096 }, (_request, _body, done) => done(null, {}));
    }
    oneClick.post(
      '/unsubscribe',
      {
        schema: {
          tags: ['notifications'],
          summary: "Stop one event's emails from the link in such an email (no sign-in)",
          description: 'The signed token names the user and the event. A forged, altered or malformed token: 400, nothing changes. Locked cells stay on.',
          querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
          response: { 200: Envelope(Type.Object({ event: StringEnum(NOTIFICATION_EVENTS) })) },
        },
      },
      async (request) => {
        const token = (request.query as { token?: string }).token;
        if (!token) throw validationFailed([{ field: 'token', message: 'This unsubscribe link is not valid' }]);
        return { data: await preferences.unsubscribe(token) };
      },
    );
  });
};

export default preferenceRoutes;
