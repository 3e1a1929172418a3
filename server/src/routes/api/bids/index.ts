import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BID_RULE_DESCRIPTION, PROXY_BID_DESCRIPTION } from '@common/bid-rules.ts';
import { CarBidsSchema, PlacedBidSchema, UserBidsSchema } from '@common/schemas/bids.ts';
import { PlaceBidSchema } from '@common/schemas/commerce.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam, IdempotencyHeaders } from '@common/schemas/kit.ts';
import { idempotencyClaim } from '../idempotency-header.ts';
import { pathId } from '../path-id.ts';

const PROXY_RULE = `${PROXY_BID_DESCRIPTION} Optional maxAmount (at least amount, else 400; on an auction at most $1,000,000, else 409 ABOVE_ESCROW_LIMIT) is your maximum for the car: it replaces your earlier one and only rises (a lower one leaves your standing maximum). The leader is the bidder with the largest maximum, on equal maximums the one who set it first. If a rival's maximum is at least yours, your bid is recorded at your maximum and the rival's automatic bid at min(their maximum, your maximum + increment); if yours is larger, the previous leader's automatic bid is recorded at their maximum (when above the highest bid) and yours at max(amount, min(your maximum, their maximum + increment)). Automatic bids are ordinary bids with auto: true, pushed as bid:placed in order and extend an auction like any bid. A maximum is private: only this answer (maxAmount, leading) and your own GET /api/bids/user show it.`;

const bidRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const bids = app.services.bids;

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['bids'],
        summary: 'Place a bid (signed in, verified email, not on your own car)',
        description: `${BID_RULE_DESCRIPTION} ${PROXY_RULE} A bid below the minimum gets 409 BID_TOO_LOW with details {minimumAmount, highestBid}. On an auction: after the end 409 AUCTION_ENDED; above $1,000,000 409 ABOVE_ESCROW_LIMIT; a bid less than AUCTION_EXTENSION_SECONDS before the end moves the end that far past the bid. A car off the market: 409 CAR_NOT_AVAILABLE. Send an Idempotency-Key header to make retries safe.`,
        security: [{ bearerAuth: [] }],
        headers: IdempotencyHeaders,
        body: PlaceBidSchema,
        response: {
          201: Envelope(PlacedBidSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.CANNOT_BID_OWN_CAR, ErrorCode.AUCTION_ENDED, ErrorCode.CAR_NOT_AVAILABLE, ErrorCode.ABOVE_ESCROW_LIMIT, ErrorCode.BID_TOO_LOW),
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
        response: { 200: Envelope(CarBidsSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
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
        description: 'The latest bid for each car also carries maxAmount, your maximum for that car (private to you).',
        security: [{ bearerAuth: [] }],
        response: { 200: Envelope(UserBidsSchema) },
      },
    },
    async (request) => ({ data: { bids: await bids.listForUser(request.session!.userId) } }),
  );
};

export default bidRoutes;
