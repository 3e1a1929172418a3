import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../../db/client.ts';
import { cars, orderEvents, orders, payments, sellers, users } from '../../../../db/schema/index.ts';
import { waitingOn } from '@common/order-lifecycle.ts';
import type { Order, OrderEvent, OrderWithEvents, PaymentLeg } from '@common/schemas/orders.ts';

const sellerAccount = alias(users, 'seller_account');

/** Everything an order view and the lifecycle rules need, read in one statement. */
export const orderColumns = {
  order: orders,
  car: {
    id: cars.id,
    year: cars.year,
    make: cars.make,
    model: cars.model,
    status: cars.status,
    primaryImage: sql<string | null>`${cars.images}[1]`,
  },
  buyer: { id: users.id, name: users.name, email: users.email },
  seller: { id: sellers.id, name: sellers.name, userId: sellers.userId, email: sellerAccount.email },
  // Deadlines are judged by the database's clock, never a process's.
  paymentOverdue: sql<boolean>`(${orders.paymentDueAt} <= now())`,
  inspectionOver: sql<boolean>`coalesce(${orders.inspectionEndsAt} <= now(), false)`,
};

export function selectOrders(executor: Executor, where: SQL) {
  return executor
    .select(orderColumns)
    .from(orders)
    .innerJoin(cars, eq(cars.id, orders.carId))
    .innerJoin(users, eq(users.id, orders.buyerId))
    .innerJoin(sellers, eq(sellers.id, orders.sellerId))
    .leftJoin(sellerAccount, eq(sellerAccount.id, sellers.userId))
    .where(where);
}

export type OrderRecord = Awaited<ReturnType<typeof selectOrders>>[number];

/** Orders the user takes part in, as buyer or as the seller's account. */
export const partyOf = (userId: number) => or(eq(orders.buyerId, userId), eq(sellers.userId, userId))!;

type PaymentRow = typeof payments.$inferSelect;

function leg(row: PaymentRow | undefined): PaymentLeg | null {
  if (!row) return null;
  return { amount: row.amount, reference: row.reference, status: row.status, settledAt: row.settledAt?.toISOString() ?? null };
}

export function toOrder(record: OrderRecord, legs: PaymentRow[]): Order {
  const { order, car, buyer, seller } = record;
  const byKind = new Map(legs.map((p) => [p.kind, p]));
  const charge = byKind.get('charge');
  return {
    id: order.id,
    carId: order.carId,
    buyerId: order.buyerId,
    sellerId: order.sellerId,
    amount: order.amount,
    plan: order.plan,
    escrowFee: order.escrowFee,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    paymentDueAt: order.paymentDueAt.toISOString(),
    inspectionDays: order.inspectionDays,
    inspectionEndsAt: order.inspectionEndsAt?.toISOString() ?? null,
    shipment:
      order.shippedAt && order.shipmentCarrier && order.shipmentTrackingNumber
        ? { carrier: order.shipmentCarrier, trackingNumber: order.shipmentTrackingNumber, shippedAt: order.shippedAt.toISOString() }
        : null,
    payment:
      charge && charge.reference && charge.method && charge.settledAt
        ? { reference: charge.reference, method: charge.method, amountCharged: charge.amount, paidAt: charge.settledAt.toISOString() }
        : null,
    payout: leg(byKind.get('payout')),
    refund: leg(byKind.get('refund')),
    waitingOn: waitingOn(order.status),
    car: { id: car.id, year: car.year, make: car.make, model: car.model, primaryImage: car.primaryImage, status: car.status },
    buyerName: buyer.name,
    sellerName: seller.name,
  };
}

export async function paymentsFor(executor: Executor, orderIds: number[]): Promise<Map<number, PaymentRow[]>> {
  const byOrder = new Map<number, PaymentRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await executor.select().from(payments).where(inArray(payments.orderId, orderIds)).orderBy(asc(payments.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  return byOrder;
}

export async function eventsFor(executor: Executor, orderId: number): Promise<OrderEvent[]> {
  const rows = await executor.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
  return rows.map((e) => ({ id: e.id, from: e.fromStatus, to: e.toStatus, actor: e.actor, note: e.note, at: e.createdAt.toISOString() }));
}

/** One order with its history, or null. */
export async function readOrder(executor: Executor, orderId: number, visibleTo?: number): Promise<OrderWithEvents | null> {
  const where = visibleTo === undefined ? eq(orders.id, orderId) : and(eq(orders.id, orderId), partyOf(visibleTo))!;
  const [record] = await selectOrders(executor, where);
  if (!record) return null;
  const [legs, events] = await Promise.all([paymentsFor(executor, [orderId]), eventsFor(executor, orderId)]);
  return { ...toOrder(record, legs.get(orderId) ?? []), events };
}

/** The user's orders as buyer or seller, newest first. */
export async function listOrders(executor: Executor, userId: number): Promise<Order[]> {
  const records = await selectOrders(executor, partyOf(userId)).orderBy(desc(orders.createdAt), desc(orders.id));
  const legs = await paymentsFor(
    executor,
    records.map((r) => r.order.id),
  );
  return records.map((r) => toOrder(r, legs.get(r.order.id) ?? []));
}
