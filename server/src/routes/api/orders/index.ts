import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_ESCROW_PLAN, type EscrowPlanId } from '@common/escrow-plans.ts';
import { ORDER_ACTION_BODIES, PlaceOrderSchema } from '@common/schemas/commerce.ts';
import { ORDER_TRANSITIONS, type PartyAction } from '@common/order-lifecycle.ts';
import { Envelope, errorResponses, type DeclaredError } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam, IdempotencyHeaders } from '@common/schemas/kit.ts';
import { OrderWithEventsSchema, OrdersSchema } from '@common/schemas/orders.ts';
import { InspectionEditSchema, InspectionSchema } from '@common/schemas/dossier.ts';
import { isStaff } from '@common/back-office.ts';
import type { ActionInput } from '../../../services/orders/orders-service.ts';
import { idempotencyClaim } from '../idempotency-header.ts';
import { pathId } from '../path-id.ts';

const OrderIdParams = IdParam('id');

/** Each move a party may request, with who may request it, its effect, and the refusals of its own beyond every move's. */
const ACTIONS: { action: PartyAction; who: string; summary: string; errors?: DeclaredError[] }[] = [
  {
    action: 'pay',
    who: 'buyer',
    summary: 'Pay amount + escrowFee into escrow: awaiting_payment → funded. The car becomes pending and other unpaid orders for it are cancelled. 409 DEADLINE_PASSED after paymentDueAt, 409 CAR_NOT_AVAILABLE, 402 PAYMENT_DECLINED.',
    errors: [ErrorCode.DEADLINE_PASSED, ErrorCode.CAR_NOT_AVAILABLE, ErrorCode.PAYMENT_DECLINED],
  },
  {
    action: 'ship',
    who: 'seller',
    summary: 'Record the shipment: funded → in_transit.',
  },
  {
    action: 'confirm-delivery',
    who: 'buyer',
    summary: "The car arrived: in_transit → inspection. inspectionEndsAt = now + the plan's inspection days.",
  },
  {
    action: 'accept',
    who: 'buyer',
    summary: 'Accept the car: inspection → accepted; released once the payout to the seller is recorded (within seconds).',
  },
  {
    action: 'dispute',
    who: 'buyer',
    summary:
      'Open a dispute before inspectionEndsAt: inspection → disputed; an operator then refunds or releases. items: ids of the frozen dossier found not as described (an id not in it: 400); without items, the dispute cites those the buyer marked not_as_described on the checklist. 409 DEADLINE_PASSED after the inspection period.',
    errors: [ErrorCode.DEADLINE_PASSED],
  },
  {
    action: 'cancel',
    who: 'buyer or seller',
    summary: 'Cancel an unpaid order: awaiting_payment → cancelled.',
  },
];

/** Whether one of the parties may never make this move (it is then refused with 403 NOT_ALLOWED). */
const closedToAParty = (action: PartyAction) => {
  const movers = ORDER_TRANSITIONS.filter((t) => t.action === action).flatMap((t) => t.by);
  return !movers.includes('buyer') || !movers.includes('seller');
};

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const orders = app.services.orders;
  const security = [{ bearerAuth: [] }];
  const orderId = (raw: string) => pathId(raw, 'Order not found');

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['orders'],
        summary: 'Buy a listed car at its asking price through escrow (signed in, verified email, not your own car)',
        description:
          'amount must equal the car\'s current price (409 PRICE_CHANGED with details {price}). Plans: basic ($199, up to $100,000), premium ($399, up to $500,000; the default), platinum ($799, up to $1,000,000); an amount above the plan limit is a 400. A car that is not on the market: 409 CAR_NOT_AVAILABLE. A second open order by the same buyer for the same car: 409 ORDER_EXISTS. The order awaits payment for 3 escrow days. Both parties are notified.',
        security,
        headers: IdempotencyHeaders,
        body: PlaceOrderSchema,
        response: {
          201: Envelope(OrderWithEventsSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.AUCTION_LISTING, ErrorCode.CAR_NOT_AVAILABLE, ErrorCode.CANNOT_BUY_OWN_CAR, ErrorCode.PRICE_CHANGED, ErrorCode.ORDER_EXISTS),
        },
      },
    },
    async (request, reply) => {
      const order = await orders.place(
        { userId: request.session!.userId },
        { carId: request.body.carId, amount: request.body.amount, plan: (request.body.plan ?? DEFAULT_ESCROW_PLAN) as EscrowPlanId },
        idempotencyClaim(request),
      );
      return reply.status(201).send({ data: order });
    },
  );

  app.get(
    '/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "The signed-in user's orders, as buyer or seller, newest first",
        security,
        response: { 200: Envelope(OrdersSchema) },
      },
    },
    async (request) => ({ data: { orders: await orders.list(request.session!.userId) } }),
  );

  app.get(
    '/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'One order with its history (events oldest first); only its buyer and seller see it (404 for anyone else)',
        security,
        params: OrderIdParams,
        response: { 200: Envelope(OrderWithEventsSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await orders.get(request.session!.userId, orderId(request.params.id)) }),
  );

  for (const { action, who, summary, errors = [] } of ACTIONS) {
    app.post(
      `/:id/${action}`,
      {
        // Moves without required fields may be sent without a body.
        preValidation: async (request) => {
          request.body ??= {};
        },
        preHandler: app.requireVerifiedUser,
        schema: {
          tags: ['orders'],
          summary: `${who}: ${summary}`,
          description:
            'Answers the order with its history. Not a party: 404. The other party: 403 NOT_ALLOWED. Not allowed from the current status: 409 INVALID_TRANSITION with details {status}. Under any concurrency the order moves at most once.',
          security,
          headers: IdempotencyHeaders,
          params: OrderIdParams,
          body: ORDER_ACTION_BODIES[action],
          response: {
            200: Envelope(OrderWithEventsSchema),
            ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION, ...(closedToAParty(action) ? [ErrorCode.NOT_ALLOWED] : []), ...errors),
          },
        },
      },
      async (request) => {
        const id = orderId(request.params.id);
        const order = await orders.act({ userId: request.session!.userId }, id, action, (request.body ?? {}) as ActionInput, idempotencyClaim(request));
        return { data: order };
      },
    );
  }

  app.get(
    '/:id/inspection',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "The inspection checklist: every item of the dossier frozen when the order was created, with the buyer's marks",
        description:
          'Known flaws, modifications, included items and service records as they stood when the order was created (later edits of the listing never change them); snapshotHash is the SHA-256 of that frozen dossier in canonical JSON (RFC 8785). For the parties and staff signed in with a second factor; anyone else: 404.',
        security,
        params: OrderIdParams,
        response: { 200: Envelope(InspectionSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const session = request.session!;
      // Staff read other people's orders only signed in with a second factor, as in the console.
      return { data: await app.services.dossiers.inspection({ userId: session.userId, isStaff: isStaff(session.role) && session.secondFactor }, orderId(request.params.id)) };
    },
  );

  app.put(
    '/:id/inspection',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['orders'],
        summary: 'buyer: mark items of the checklist as described or not as described, with a note; items left out keep their marks',
        description:
          'Only while the order is in inspection and its period has not ended (else 409 INVALID_TRANSITION). The seller: 403 NOT_ALLOWED; anyone else: 404. An itemId not in the frozen dossier: 400. A dispute opened afterwards without `items` cites the items marked not_as_described.',
        security,
        params: OrderIdParams,
        body: InspectionEditSchema,
        response: { 200: Envelope(InspectionSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED, ErrorCode.INVALID_TRANSITION) },
      },
    },
    async (request) => ({ data: await app.services.dossiers.mark(request.session!.userId, orderId(request.params.id), request.body) }),
  );
};

export default orderRoutes;
