import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_ESCROW_PLAN, ESCROW_PLAN_IDS, type EscrowPlanId } from '../../../../../common/escrow-plans.ts';
import { ORDER_STATUSES } from '../../../../../db/schema/index.ts';
import { notFound } from '../../../lib/errors.ts';
import { Envelope, ErrorBody, IsoDateTime, StringEnum, commonErrors } from '../../../lib/schemas.ts';
import { parseId } from '../../../services/cars.ts';

export const OrderSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    buyerId: Type.Integer(),
    sellerId: Type.Integer({ description: 'The seller (as in CarDetail.seller.id)' }),
    amount: Type.Integer({ description: 'Purchase price, whole US dollars' }),
    plan: StringEnum(ESCROW_PLAN_IDS),
    escrowFee: Type.Integer({ description: "The plan's fee, whole US dollars" }),
    status: StringEnum(ORDER_STATUSES, { description: 'Starts as awaiting_payment' }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    title: 'Order',
    examples: [{ id: 12, carId: 3, buyerId: 41, sellerId: 2, amount: 189_500, plan: 'premium', escrowFee: 399, status: 'awaiting_payment', createdAt: '2026-11-22T10:15:00.000Z', updatedAt: '2026-11-22T10:15:00.000Z' }],
  },
);

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const orders = app.services.orders;
  const security = [{ bearerAuth: [] }];

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['orders'],
        summary: 'Order a car through escrow (signed in, verified email, not your own car)',
        description: 'Plans: basic ($199, up to $100,000), premium ($399, up to $500,000; the default), platinum ($799, up to $1,000,000). An amount above the plan limit is a 400. A second open order by the same buyer for the same car is a 409 ORDER_EXISTS. Both parties are notified.',
        security,
        body: Type.Object(
          {
            carId: Type.Integer({ minimum: 1 }),
            amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Whole US dollars' }),
            plan: Type.Optional(StringEnum(ESCROW_PLAN_IDS, { default: DEFAULT_ESCROW_PLAN })),
          },
          { additionalProperties: false, examples: [{ carId: 3, amount: 189_500, plan: 'premium' }] },
        ),
        response: { 201: Envelope(OrderSchema), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...commonErrors },
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const order = await orders.place(
        { userId: session.userId, name: session.name },
        { carId: request.body.carId, amount: request.body.amount, plan: (request.body.plan ?? DEFAULT_ESCROW_PLAN) as EscrowPlanId },
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
        response: { 200: Envelope(Type.Object({ orders: Type.Array(OrderSchema) })), 401: ErrorBody, ...commonErrors },
      },
    },
    async (request) => ({ data: { orders: await orders.listFor(request.session!.userId) } }),
  );

  app.get(
    '/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'One order; only its buyer and seller see it (404 for anyone else)',
        security,
        params: Type.Object({ id: Type.String({ maxLength: 20 }) }),
        response: { 200: Envelope(OrderSchema), 401: ErrorBody, 404: ErrorBody, ...commonErrors },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      if (id === null) throw notFound('Order not found');
      return { data: await orders.getFor(request.session!.userId, id) };
    },
  );
};

export default orderRoutes;
