import { PlaceBidSchema } from '@common/schemas/commerce.ts';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BID_RULE_DESCRIPTION } from '@common/bid-rules.ts';
import { Envelope, ErrorBody, IsoDateTime, commonErrors } from '../../../lib/schemas.ts';
import { IdempotencyHeaders, idempotencyClaim } from '../idempotency-header.ts';
import { BidSchema, CarSummarySchema, IdParam, pathId } from '../shared-schemas.ts';

const bidRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const bids = app.services.bids;

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['bids'],
        summary: 'Place a bid (signed in, verified email, not on your own car)',
        description: `${BID_RULE_DESCRIPTION} A bid below the minimum gets 409 BID_TOO_LOW with details {minimumAmount, highestBid}. On an auction: after the end 409 AUCTION_ENDED; above $1,000,000 409 ABOVE_ESCROW_LIMIT; a bid less than AUCTION_EXTENSION_SECONDS before the end moves the end that far past the bid. A car off the market: 409 CAR_NOT_AVAILABLE. Send an Idempotency-Key header to make retries safe.`,
        security: [{ bearerAuth: [] }],
        headers: IdempotencyHeaders,
        body: PlaceBidSchema,
        response: {
          201: Envelope(
            Type.Object({
              bid: BidSchema,
              car: Type.Object({
                id: Type.Integer(),
                currentBids: Type.Integer(),
                highestBid: Type.Integer(),
                endsAt: Type.Union([IsoDateTime, Type.Null()], { description: "The auction's end after this bid (a bid near the end moves it); null when not an auction" }),
                reserveMet: Type.Union([Type.Boolean(), Type.Null()], { description: 'Whether the highest bid now meets the reserve (true without one); null when not an auction' }),
              }),
            }),
          ),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const result = await bids.place({ userId: session.userId, name: session.name }, request.body, idempotencyClaim(request));
      return reply.status(201).send({ data: result });
    },
  );

  app.get(
    '/car/:carId',
    {
      schema: {
        tags: ['bids'],
        summary: "A car's accepted bids, newest first (public)",
        params: IdParam('carId'),
        response: { 200: Envelope(Type.Object({ bids: Type.Array(BidSchema) })), 404: ErrorBody, ...commonErrors },
      },
    },
    async (request) => ({ data: { bids: await bids.listForCar(pathId(request.params.carId, 'Car not found')) } }),
  );

  app.get(
    '/user',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['bids'],
        summary: "The signed-in user's bids, newest first, each leading or outbid",
        security: [{ bearerAuth: [] }],
        response: {
          200: Envelope(
            Type.Object({
              bids: Type.Array(Type.Intersect([BidSchema, Type.Object({ car: CarSummarySchema, status: Type.String({ enum: ['leading', 'outbid'] }) })])),
            }),
          ),
          401: ErrorBody,
          ...commonErrors,
        },
      },
    },
    async (request) => ({ data: { bids: await bids.listForUser(request.session!.userId) } }),
  );
};

export default bidRoutes;
