import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MakeOfferSchema, OFFER_MOVE_BODIES, SecondChanceSchema } from '@common/schemas/commerce.ts';
import { type OfferPartyMove } from '@common/offer-lifecycle.ts';
import { Envelope, errorResponses, type DeclaredError } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam, IdempotencyHeaders } from '@common/schemas/kit.ts';
import { OfferSchema, OffersSchema } from '@common/schemas/offers.ts';
import { OrderWithEventsSchema } from '@common/schemas/orders.ts';
import { idempotencyClaim } from '../idempotency-header.ts';
import { pathId } from '../path-id.ts';

const OfferIdParams = IdParam('id');
const CarIdParams = IdParam('id');

/** Each move on an offer, who may make it, its effect and its refusals beyond a party's wrong turn (404, 409). */
const MOVES: { move: Exclude<OfferPartyMove, 'accept'>; who: string; summary: string; errors?: DeclaredError[] }[] = [
  {
    move: 'counter',
    who: 'The party who did not make the amount on the table',
    summary:
      "Counter with a new amount: the seller's between the buyer's last amount and the asking price (an auction's reserve; on a second-chance offer, the seller's opening amount), the buyer's between their last amount and the seller's counter (both exclusive; else 400). The turn passes and the offer's 2 escrow days start again.",
  },
  { move: 'decline', who: 'The party who did not make the amount on the table', summary: 'Decline the amount on the table: the offer is closed.' },
  { move: 'withdraw', who: 'The party who made the amount on the table', summary: 'Take the amount back: the offer is closed. The other party: 403 NOT_ALLOWED.', errors: [ErrorCode.NOT_ALLOWED] },
];

const MOVE_ERRORS =
  'Not a party: 404. Counter, accept or decline by the party who made the amount on the table, or any move on a closed offer: 409 INVALID_TRANSITION with details {status}. Every move notifies the other party and pushes offer:updated to both. Send an Idempotency-Key to make retries safe.';

const offerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const offers = app.services.offers;
  const security = [{ bearerAuth: [] }];
  const offerId = (raw: string) => pathId(raw, 'Offer not found');
  const carId = (raw: string) => pathId(raw, 'Car not found');
  // Moves without fields may be sent without a body.
  const emptyBodyAllowed = async (request: { body: unknown }) => {
    request.body ??= {};
  };

  app.post(
    '/cars/:id/offers',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['offers'],
        summary: 'Make a private offer on a car (verified buyer, not the seller)',
        description:
          'On a fixed-price listing the amount is 1 .. price - 1, and at most $1,000,000, what escrow covers (else 400); on an auction that ended with its reserve not met, any amount up to $1,000,000. A running auction: 409 AUCTION_IN_PROGRESS; a car not open to offers: 409 CAR_NOT_AVAILABLE; a second open offer on the car: 409 OFFER_EXISTS; the car\'s seller: 403 NOT_ALLOWED. The offer expires 2 escrow days after its last move. The seller is notified.',
        security,
        headers: IdempotencyHeaders,
        params: CarIdParams,
        body: MakeOfferSchema,
        response: {
          201: Envelope(OfferSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED, ErrorCode.AUCTION_IN_PROGRESS, ErrorCode.CAR_NOT_AVAILABLE, ErrorCode.OFFER_EXISTS),
        },
      },
    },
    async (request, reply) => {
      const offer = await offers.make({ userId: request.session!.userId }, carId(request.params.id), request.body, idempotencyClaim(request));
      return reply.status(201).send({ data: offer });
    },
  );

  app.post(
    '/cars/:id/second-chance',
    {
      preValidation: emptyBodyAllowed,
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['offers'],
        summary: "The seller offers the car to the auction's runner-up at that bidder's highest bid",
        description:
          "After the auction winner's order was cancelled unpaid. The offer is by the seller, secondChance: true, and expires after 1 escrow day. Not the seller: 404. The winner's order not cancelled (or the car sold or under offer since): 409 INVALID_TRANSITION; nobody else bid: 409 NO_RUNNER_UP; an open offer to the runner-up already: 409 OFFER_EXISTS.",
        security,
        headers: IdempotencyHeaders,
        params: CarIdParams,
        body: SecondChanceSchema,
        response: { 201: Envelope(OfferSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION, ErrorCode.NO_RUNNER_UP, ErrorCode.OFFER_EXISTS) },
      },
    },
    async (request, reply) => {
      const offer = await offers.secondChance({ userId: request.session!.userId }, carId(request.params.id), idempotencyClaim(request));
      return reply.status(201).send({ data: offer });
    },
  );

  app.get(
    '/offers',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['offers'],
        summary: "The signed-in user's offers, as buyer and as seller, newest first (at most 200)",
        security,
        response: { 200: Envelope(OffersSchema) },
      },
    },
    async (request) => ({ data: { offers: await offers.list(request.session!.userId) } }),
  );

  app.get(
    '/offers/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['offers'],
        summary: 'One offer with its history; only its buyer and seller see it (404 for anyone else)',
        security,
        params: OfferIdParams,
        response: { 200: Envelope(OfferSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await offers.get(request.session!.userId, offerId(request.params.id)) }),
  );

  app.post(
    '/offers/:id/accept',
    {
      preValidation: emptyBodyAllowed,
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['offers'],
        summary: 'The party who did not make the amount on the table: accept it, opening the escrow order at that amount',
        description: `The order uses the smallest plan that covers the amount and awaits the buyer's payment for 3 escrow days. A car no longer for sale: 409 CAR_NOT_AVAILABLE; the buyer already has an open order for the car: 409 ORDER_EXISTS. ${MOVE_ERRORS} Under any concurrency an offer becomes one order.`,
        security,
        headers: IdempotencyHeaders,
        params: OfferIdParams,
        body: OFFER_MOVE_BODIES.accept,
        response: {
          201: Envelope(OrderWithEventsSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION, ErrorCode.CAR_NOT_AVAILABLE, ErrorCode.ABOVE_ESCROW_LIMIT, ErrorCode.ORDER_EXISTS),
        },
      },
    },
    async (request, reply) => {
      const order = await offers.accept({ userId: request.session!.userId }, offerId(request.params.id), idempotencyClaim(request));
      return reply.status(201).send({ data: order });
    },
  );

  for (const { move, who, summary, errors = [] } of MOVES) {
    app.post(
      `/offers/:id/${move}`,
      {
        preValidation: emptyBodyAllowed,
        preHandler: app.requireVerifiedUser,
        schema: {
          tags: ['offers'],
          summary: `${who}: ${summary}`,
          description: MOVE_ERRORS,
          security,
          headers: IdempotencyHeaders,
          params: OfferIdParams,
          body: OFFER_MOVE_BODIES[move],
          response: { 200: Envelope(OfferSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION, ...errors) },
        },
      },
      async (request) => {
        const body = request.body as { amount?: number };
        return { data: await offers.respond({ userId: request.session!.userId }, offerId(request.params.id), move, body, idempotencyClaim(request)) };
      },
    );
  }
};

export default offerRoutes;
