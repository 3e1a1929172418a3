import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ErrorBody, commonErrors } from '../../../lib/schemas.ts';
import { UsersService } from '../../../services/users.ts';
import { ProfileChangesSchema, UserSchema } from './schemas.ts';

const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UsersService(app.db);
  const security = [{ bearerAuth: [] }];

  app.get(
    '/profile',
    {
      preHandler: app.authenticate,
      schema: { tags: ['users'], summary: 'The signed-in user', security, response: { 200: Envelope(UserSchema), 401: ErrorBody, ...commonErrors } },
    },
    async (request) => ({ data: await users.profile(request.session!.userId) }),
  );

  app.put(
    '/profile',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Change name, avatar, bio, phone or location; any other field is refused and nothing changes',
        security,
        body: ProfileChangesSchema,
        response: { 200: Envelope(UserSchema), 401: ErrorBody, ...commonErrors },
      },
    },
    async (request) => ({ data: await users.updateProfile(request.session!.userId, request.body) }),
  );
};

export default userRoutes;
