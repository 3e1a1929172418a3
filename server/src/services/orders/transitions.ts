import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor, Transaction } from '../../../../db/client.ts';
import { cars, orderEvents, orders } from '../../../../db/schema/index.ts';
import { transitionFor, type OrderAction, type OrderActor, type OrderStatus } from '@common/order-lifecycle.ts';
import type { CarActor } from '@common/car-lifecycle.ts';
import { conflict } from '../../lib/errors.ts';
import { lockCarPosition, moveCar } from '../car-transitions.ts';
import type { OrderAnnouncements, OrderChanges } from './announcements.ts';
import { selectOrders, type OrderRecord } from './order-views.ts';
import { ErrorCode } from '@common/error-codes.ts';

/** How an order's status reads in a sentence ("an order that is in transit"). */
export const STATUS_WORDS: Record<OrderStatus, string> = {
  awaiting_payment: 'awaiting payment',
  funded: 'funded',
  in_transit: 'in transit',
  inspection: 'in inspection',
  accepted: 'accepted',
  disputed: 'disputed',
  released: 'released',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

export interface MoveOptions {
  actorUserId?: number;
  note?: string | null;
  /** Columns the move sets with the status (the shipment, the end of the inspection period). */
  set?: PgUpdateSetSource<typeof orders>;
}

/**
 * The order lifecycle's one driver. Every status change, whoever asks for it (a party through
 * the API, a due job, the operator command), goes through `move`, which applies the lifecycle
 * table (common/order-lifecycle.ts) with a conditional update in the caller's transaction and
 * records the event; the database refuses any other change. Each transaction locks the car
 * first and then its orders (`lock`), so two moves on one car never deadlock and never interleave.
 */
export class OrderTransitions {
  constructor(private readonly announcements: OrderAnnouncements) {}

  /** Locks the order's car, then the order, and reads both (null for an unknown order). */
  async lock(tx: Transaction, orderId: number): Promise<OrderRecord | null> {
    const [head] = await tx.select({ carId: orders.carId }).from(orders).where(eq(orders.id, orderId));
    if (!head) return null;
    await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, head.carId)).for('no key update');
    const [record] = await selectOrders(tx, eq(orders.id, orderId)).for('no key update', { of: orders });
    return record ?? null;
  }

  /** The first event of a new order, which enters the lifecycle awaiting payment. */
  async recordOpening(tx: Transaction, orderId: number, by: { actor: OrderActor; actorUserId: number | null; note?: string }): Promise<void> {
    await tx.insert(orderEvents).values({
      orderId,
      fromStatus: null,
      toStatus: 'awaiting_payment',
      actor: by.actor,
      actorUserId: by.actorUserId,
      note: by.note ?? 'Order placed',
    });
  }

  /**
   * The one way an order changes status: the lifecycle table decides, a conditional update
   * applies it (losing a race is a 409, never a second move), and the event and both parties'
   * notifications are written in the same transaction.
   */
  async move(tx: Transaction, changes: OrderChanges, record: OrderRecord, action: OrderAction, actor: OrderActor, options: MoveOptions = {}): Promise<OrderRecord> {
    const from = record.order.status;
    const transition = transitionFor(action, from);
    if (!transition || !transition.by.includes(actor)) {
      throw conflict(ErrorCode.INVALID_TRANSITION, `Order #${record.order.id} cannot ${action} while ${STATUS_WORDS[from]}`, { status: from });
    }
    const [row] = await tx
      .update(orders)
      .set({ ...options.set, status: transition.to, updatedAt: sql`now()` })
      .where(and(eq(orders.id, record.order.id), eq(orders.status, from)))
      .returning();
    if (!row) throw conflict(ErrorCode.INVALID_TRANSITION, `Order #${record.order.id} changed meanwhile`, { status: from });
    const note = options.note ?? null;
    await tx.insert(orderEvents).values({ orderId: row.id, fromStatus: from, toStatus: transition.to, actor, actorUserId: options.actorUserId ?? null, note });
    const moved: OrderRecord = { ...record, order: row };
    changes.orders.add(row.id);
    await this.announcements.tell(tx, changes, { kind: 'moved', action, to: transition.to, actor, note }, moved);
    return moved;
  }

  /**
   * Cancels the car's unpaid orders (the car is taken, or no longer for sale), in the caller's
   * transaction, which holds the car's lock.
   */
  async voidOpenOrders(tx: Transaction, changes: OrderChanges, carId: number, reason: string, except?: number): Promise<void> {
    const open = await selectOrders(
      tx,
      and(eq(orders.carId, carId), eq(orders.status, 'awaiting_payment'), except === undefined ? undefined : ne(orders.id, except))!,
    ).for('no key update', { of: orders });
    for (const order of open) await this.move(tx, changes, order, 'void', 'system', { note: reason });
  }
}

/**
 * The car's side of an order's move (taken by a payment, sold, back on the market), through the
 * car lifecycle in the caller's transaction, which holds the car's lock.
 */
export async function moveOrderCar(tx: Executor, changes: OrderChanges, carId: number, action: 'pay' | 'sell' | 'relist', actor: CarActor): Promise<void> {
  const car = await lockCarPosition(tx, carId);
  if (!car) return;
  const moved = await moveCar(tx, car, action, actor);
  if (moved.visible) changes.cars.set(carId, moved.status);
}
