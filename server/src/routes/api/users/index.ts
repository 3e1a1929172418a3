import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CAR_STATUSES } from '@common/car-lifecycle.ts';
import { AUCTION_OUTCOMES } from '@common/auction-rules.ts';
import { Envelope, ErrorBody, IsoDateTime, StringEnum, commonErrors } from '../../../lib/schemas.ts';
import { CarListItemSchema } from '../cars/schemas.ts';
import { UsersService } from '../../../services/users.ts';
import { ProfileChangesSchema } from '@common/schemas/auth.ts';
import { UserSchema } from './schemas.ts';

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

  app.get(
    '/dashboard',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "The dashboard's figures: active bids (cars still listed that you bid on), watchlist size, messages posted, and recent activity (last 30 days)",
        security,
        response: {
          200: Envelope(
            Type.Object({
              stats: Type.Object({ activeBids: Type.Integer(), watchlist: Type.Integer(), messages: Type.Integer(), activity: Type.Integer() }),
              recentActivity: Type.Array(
                Type.Object({
                  type: Type.String({ enum: ['bid', 'message', 'order', 'notification'] }),
                  title: Type.String(),
                  description: Type.String(),
                  carId: Type.Union([Type.Integer(), Type.Null()]),
                  timestamp: IsoDateTime,
                }),
              ),
            }),
          ),
          401: ErrorBody,
          ...commonErrors,
        },
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
        response: {
          200: Envelope(
            Type.Object({
              listings: Type.Array(
                Type.Intersect([
                  CarListItemSchema,
                  Type.Object({
                    status: StringEnum(CAR_STATUSES),
                    highestBid: Type.Union([Type.Integer(), Type.Null()]),
                    openOrderId: Type.Union([Type.Integer(), Type.Null()]),
                    watchers: Type.Integer({ description: 'People watching the car' }),
                    auctionOutcome: Type.Union([StringEnum(AUCTION_OUTCOMES), Type.Null()], { description: 'How the auction closed; null while it runs and for fixed-price listings' }),
                    acceptUntil: Type.Union([IsoDateTime, Type.Null()], { description: 'Reserve not met: until when you may accept the highest bid' }),
                    secondChance: Type.Union([Type.Object({ buyerName: Type.String(), amount: Type.Integer() }), Type.Null()], {
                      description: "The auction's runner-up and their highest bid, when a second-chance offer can go to them now (POST /api/cars/:id/second-chance)",
                    }),
                  }),
                ]),
              ),
            }),
          ),
          401: ErrorBody,
          ...commonErrors,
        },
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
        response: { 200: Envelope(UserSchema), 401: ErrorBody, ...commonErrors },
      },
    },
    async (request) => ({ data: await users.updateProfile(request.session!.userId, request.body) }),
  );
};

export default userRoutes;
