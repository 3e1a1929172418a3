import { and, desc, eq, or } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { cars, orderEvents, orders, sellers, type OrderStatus } from '../../../db/schema/index.ts';
import { ESCROW_PLANS, type EscrowPlanId } from '../../../common/escrow-plans.ts';
import { conflict, forbidden, notFound, validationFailed } from '../lib/errors.ts';
import { carTitle } from './chat.ts';
import type { NotificationsService } from './notifications.ts';

export interface Order {
  id: number;
  carId: number;
  buyerId: number;
  sellerId: number;
  amount: number;
  plan: EscrowPlanId;
  escrowFee: number;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
}

type OrderRow = typeof orders.$inferSelect;

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    carId: row.carId,
    buyerId: row.buyerId,
    sellerId: row.sellerId,
    amount: row.amount,
    plan: row.plan,
    escrowFee: row.escrowFee,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Escrow orders. An order starts "awaiting_payment"; every status change is recorded in
 * order_events so the full lifecycle (funding, shipping, inspection, release, disputes) can be
 * added without reshaping the data.
 */
export class OrdersService {
  constructor(
    private readonly db: Database,
    private readonly notifications: NotificationsService,
  ) {}

  async place(buyer: { userId: number; name: string }, input: { carId: number; amount: number; plan: EscrowPlanId }): Promise<Order> {
    const plan = ESCROW_PLANS[input.plan];
    if (input.amount > plan.maxValue) {
      throw validationFailed(
        [{ field: 'amount', message: `${plan.name} covers purchases up to ${usd(plan.maxValue)}` }],
        `${plan.name} covers purchases up to ${usd(plan.maxValue)}. Choose a higher plan for this amount.`,
      );
    }
    const [car] = await this.db
      .select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model, status: cars.status, sellerId: sellers.id, sellerUserId: sellers.userId })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, input.carId));
    if (!car || car.status !== 'active') throw notFound('Car not found');
    if (car.sellerUserId === buyer.userId) throw forbidden('CANNOT_BUY_OWN_CAR', 'You cannot order your own car');

    let result;
    try {
      result = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(orders)
          .values({ carId: car.id, buyerId: buyer.userId, sellerId: car.sellerId, amount: input.amount, plan: plan.id, escrowFee: plan.price, status: 'awaiting_payment' })
          .returning();
        await tx.insert(orderEvents).values({ orderId: row!.id, fromStatus: null, toStatus: 'awaiting_payment', actorUserId: buyer.userId, note: 'Order placed' });
        const title = carTitle(car);
        const notified = await this.notifications.create(tx, [
          { userId: buyer.userId, type: 'system', title: 'Escrow order placed', message: `Your ${plan.name} order for the ${title} (${usd(input.amount)}) is awaiting payment.`, carId: car.id },
          ...(car.sellerUserId !== null
            ? [{ userId: car.sellerUserId, type: 'system' as const, title: 'New escrow order', message: `${buyer.name} ordered your ${title} for ${usd(input.amount)} with ${plan.name}. Awaiting the buyer's payment.`, carId: car.id }]
            : []),
        ]);
        return { order: toOrder(row!), notified };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('ORDER_EXISTS', 'You already have an open order for this car');
      throw error;
    }
    await this.notifications.announce(result.notified);
    return result.order;
  }

  /** Orders where the user is the buyer or the seller, newest first. */
  async listFor(userId: number): Promise<Order[]> {
    const rows = await this.db
      .select({ order: orders })
      .from(orders)
      .innerJoin(sellers, eq(sellers.id, orders.sellerId))
      .where(or(eq(orders.buyerId, userId), eq(sellers.userId, userId)))
      .orderBy(desc(orders.createdAt), desc(orders.id));
    return rows.map((r) => toOrder(r.order));
  }

  /** One order, for its parties only; anyone else is told it does not exist. */
  async getFor(userId: number, orderId: number): Promise<Order> {
    const [row] = await this.db
      .select({ order: orders })
      .from(orders)
      .innerJoin(sellers, eq(sellers.id, orders.sellerId))
      .where(and(eq(orders.id, orderId), or(eq(orders.buyerId, userId), eq(sellers.userId, userId))));
    if (!row) throw notFound('Order not found');
    return toOrder(row.order);
  }
}
