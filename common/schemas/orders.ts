import { Type, type Static } from 'typebox';
import { PAYMENT_METHODS } from '../enums.ts';
import { ESCROW_PLAN_IDS } from '../escrow-plans.ts';
import { ORDER_ACTORS, ORDER_STATUSES } from '../order-lifecycle.ts';
import { IsoDateTime, Nullable, StringEnum } from './kit.ts';

/** What the escrow routes answer; `order:updated` pushes the same order. */

/** One movement of an order's money out of escrow (payout to the seller, or refund to the buyer). */
export const PaymentLegSchema = Type.Object(
  {
    amount: Type.Integer(),
    reference: Nullable(Type.String()),
    status: StringEnum(['pending', 'settled'] as const),
    settledAt: Nullable(IsoDateTime),
  },
  { title: 'PaymentLeg' },
);
export type PaymentLeg = Static<typeof PaymentLegSchema>;

/** Contract §Orders, with the lifecycle fields of v2 and a few extensions for screens. */
export const OrderSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    buyerId: Type.Integer(),
    sellerId: Type.Integer({ description: 'The seller (as in CarDetail.seller.id)' }),
    amount: Type.Integer({ description: 'Purchase price, whole US dollars' }),
    plan: StringEnum(ESCROW_PLAN_IDS),
    escrowFee: Type.Integer({ description: "The plan's fee, whole US dollars" }),
    status: StringEnum(ORDER_STATUSES),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
    paymentDueAt: { ...IsoDateTime, description: 'An unpaid order is cancelled at this time (3 escrow days after it was placed)' },
    inspectionDays: Type.Integer({ description: "The plan's inspection period in escrow days" }),
    inspectionEndsAt: Nullable({ ...IsoDateTime, description: 'Set on delivery; without a dispute by then the car is accepted' }),
    shipment: Nullable(Type.Object({ carrier: Type.String(), trackingNumber: Type.String(), shippedAt: IsoDateTime })),
    payment: Nullable(
      Type.Object({
        reference: Type.String(),
        method: StringEnum(PAYMENT_METHODS),
        amountCharged: Type.Integer({ description: 'amount + escrowFee' }),
        paidAt: IsoDateTime,
      }),
    ),
    payout: Nullable({ ...PaymentLegSchema, description: "The seller's payout (the price; the fee is kept)" }),
    refund: Nullable({ ...PaymentLegSchema, description: "The buyer's refund (price and fee)" }),
    waitingOn: Nullable({ ...StringEnum(ORDER_ACTORS), description: 'Whose move carries the order forward; null once it is over' }),
    car: Type.Object({
      id: Type.Integer(),
      year: Type.Integer(),
      make: Type.String(),
      model: Type.String(),
      primaryImage: Nullable(Type.String()),
      status: Type.String(),
    }),
    buyerName: Type.String(),
    sellerName: Type.String(),
  },
  { title: 'Order' },
);
export type Order = Static<typeof OrderSchema>;

export const OrderEventSchema = Type.Object(
  {
    id: Type.Integer(),
    from: Nullable(StringEnum(ORDER_STATUSES)),
    to: StringEnum(ORDER_STATUSES),
    actor: StringEnum(ORDER_ACTORS),
    note: Nullable(Type.String()),
    at: IsoDateTime,
  },
  { title: 'OrderEvent' },
);
export type OrderEvent = Static<typeof OrderEventSchema>;

export const OrderWithEventsSchema = Type.Interface([OrderSchema], { events: Type.Array(OrderEventSchema, { description: 'Oldest first' }) }, { title: 'OrderWithEvents' });
export type OrderWithEvents = Static<typeof OrderWithEventsSchema>;

/** `GET /api/orders`: the user's orders as buyer or seller, newest first. */
export const OrdersSchema = Type.Object({ orders: Type.Array(OrderSchema) });
export type Orders = Static<typeof OrdersSchema>;
