import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProfileChangesSchema } from '@common/schemas/auth.ts';
import { OwnListingsSchema } from '@common/schemas/cars.ts';
import { Envelope } from '@common/schemas/envelope.ts';
import { DashboardSummarySchema, UserSchema } from '@common/schemas/users.ts';
import { UsersService } from '../../../services/users.ts';

const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UsersService(app.db);
  const security = [{ bearerAuth: [] }];

  app.get(
    '/profile',
    {
      preHandler: app.authenticate,
      schema: { tags: ['users'], summary: 'The signed-in user', security, response: { 200: Envelope(UserSchema) } },
    },
    async (request) => ({ data: await users.profile(request.session!.userId) }),
  );

  app.get(
    '/dashboard',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "The dashboard's figures: active bids (cars still listed that you bid on), watchlist size, messages posted, and recent activity (last 30 days)",
        security,
        response: { 200: Envelope(DashboardSummarySchema) },
      },
    },
    async (request) => ({ data: await app.services.dashboard.summary(request.session!.userId, app.clock.now()) }),
  );

  app.get(
    '/me/listings',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['selling'],
        summary: "The signed-in seller's listings, every status, newest first",
        description:
          'Each is a CarListItem with status, highestBid, openOrderId (the order holding the payment, else the newest unpaid one), watchers, and for auctions auctionOutcome, acceptUntil and secondChance (extensions).',
        security,
        response: { 200: Envelope(OwnListingsSchema) },
      },
    },
    async (request) => ({ data: { listings: await app.services.cars.listOwn(request.session!.userId) } }),
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
        response: { 200: Envelope(UserSchema) },
      },
    },
    async (request) => ({ data: await users.updateProfile(request.session!.userId, request.body) }),
  );
};

export default userRoutes;
