import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Transaction } from '../../../../db/client.ts';
import { bids, cars, orderEvents, orders, payments, sellers, testimonials } from '../../../../db/schema/index.ts';
import type { PaymentMethod } from '@common/enums.ts';
import { ESCROW_PLANS, smallestPlanFor, type EscrowPlanId } from '@common/escrow-plans.ts';
import {
  DEADLINE_REMINDER_DAYS,
  ORDER_TRANSITIONS,
  PAYMENT_WINDOW_DAYS,
  transitionFor,
  type OperatorAction,
  type OrderAction,
  type OrderActor,
  type OrderStatus,
  type PartyAction,
} from '@common/order-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';
import type { CarStatus, Order, OrderWithEvents } from '@common/api-types.ts';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Mailer } from '../mailer.ts';
import { IdempotencyKeys, type IdempotencyClaim } from '../idempotency.ts';
import { MarketValues } from '../valuation.ts';
import { NotificationsService } from '../notifications.ts';
import { orderMessages, type OrderNews } from './order-messages.ts';
import { listOrders, readOrder, selectOrders, type OrderRecord } from './order-views.ts';
import { PaymentDeclined, SimulatedBank, type PaymentProvider } from './payment-provider.ts';

/** The deadlines the job runner watches for each order. */
export type OrderDeadline = 'payment-window' | 'payment-reminder' | 'inspection-period' | 'inspection-reminder';

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    'order.deadline': { orderId: number; deadline: OrderDeadline };
    /** Moves an order's pending payout or refund through the payment provider. */
    'payment.settle': { orderId: number };
  }
}

export interface OrdersServiceDeps {
  db: Database;
  jobs: JobRunner;
  mailer: Mailer;
  notifications: NotificationsService;
  events: EventBus;
  provider: PaymentProvider;
  idempotency: IdempotencyKeys;
  marketValues: MarketValues;
  log: FastifyBaseLogger;
  /** Length of an escrow day in seconds (`ESCROW_DAY_SECONDS`). */
  escrowDaySeconds: number;
  appUrl: string;
}

/** What a party sends with an action (validated by the route's schema). */
export interface ActionInput {
  method?: PaymentMethod;
  carrier?: string;
  trackingNumber?: string;
  reason?: string;
}

export interface Party {
  userId: number;
}

type NotificationRows = Awaited<ReturnType<NotificationsService['create']>>;

/** What a transaction did to orders, announced (`OrdersService.announce`) once it has committed. */
export class OrderChanges {
  readonly notifications: NotificationRows = [];
  readonly orders = new Set<number>();
  readonly cars = new Map<number, CarStatus>();
  settle = false;
  mail = false;
  valuation = false;
}

const STATUS_WORDS: Record<OrderStatus, string> = {
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

const ACTION_WORDS: Record<PartyAction, string> = {
  pay: 'pay for',
  ship: 'ship',
  'confirm-delivery': 'confirm delivery of',
  accept: 'accept',
  dispute: 'dispute',
  cancel: 'cancel',
};

/** Cars an order can be paid for: listed, or an auction that closed with this sale. */
const SELLABLE_CAR_STATUSES = ['active', 'ended'];

/**
 * Escrow orders and their lifecycle. Every status change, whoever asks for it (a party through
 * the API, a due job, the operator command), goes through `move`, which applies the lifecycle
 * table (common/order-lifecycle.ts) with a conditional update in the caller's transaction and
 * records the event; the database refuses any other change. Each transaction locks the car
 * first and then its orders, so two moves on one car never deadlock and never interleave.
 */
export class OrdersService {
  constructor(private readonly deps: OrdersServiceDeps) {
    deps.jobs.define({
      name: 'order.deadline',
      handle: (payload) => this.runDeadline(payload),
    });
    deps.jobs.define({
      name: 'payment.settle',
      // A provider that is down is retried for about a day before the job gives up.
      retry: { limit: 16, delaySeconds: 5, backoff: true },
      handle: (payload) => this.settle(payload),
    });
  }

  private get db(): Database {
    return this.deps.db;
  }

  private periodSql(days: number) {
    return sql`now() + make_interval(secs => ${days * this.deps.escrowDaySeconds})`;
  }

  // ── Reads ─────────────────────────────────────────────────────────────────────────────

  list(userId: number): Promise<Order[]> {
    return listOrders(this.db, userId);
  }

  /** One order, for its parties only; anyone else is told it does not exist. */
  async get(userId: number, orderId: number): Promise<OrderWithEvents> {
    const order = await readOrder(this.db, orderId, userId);
    if (!order) throw notFound('Order not found');
    return order;
  }

  /** Any order, for the operator. */
  timeline(orderId: number): Promise<OrderWithEvents | null> {
    return readOrder(this.db, orderId);
  }

  // ── Buying ────────────────────────────────────────────────────────────────────────────

  /** Buys a listed car at its asking price. */
  async place(buyer: Party, input: { carId: number; amount: number; plan: EscrowPlanId }, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.transaction(async (tx, changes) => {
        await key.take(tx);
        const [car] = await tx
          .select({ id: cars.id, price: cars.price, status: cars.status, auctionEndsAt: cars.auctionEndsAt, sellerUserId: sellers.userId })
          .from(cars)
          .innerJoin(sellers, eq(sellers.id, cars.sellerId))
          .where(eq(cars.id, input.carId))
          .for('update', { of: cars });
        if (!car || car.status === 'draft') throw notFound('Car not found');
        if (car.auctionEndsAt) throw conflict('AUCTION_LISTING', 'This car is sold at auction: place a bid instead');
        if (car.status !== 'active') throw conflict('CAR_NOT_AVAILABLE', 'This car is no longer available', { status: car.status });
        if (car.sellerUserId === buyer.userId) throw forbidden('CANNOT_BUY_OWN_CAR', 'You cannot order your own car');
        if (input.amount !== car.price) {
          throw conflict('PRICE_CHANGED', `The asking price is now ${formatUsd(car.price)}. Review it and order again.`, { price: car.price });
        }
        const orderId = await this.openOrder(tx, changes, { carId: car.id, buyerId: buyer.userId, amount: input.amount, plan: input.plan, actor: 'buyer', actorUserId: buyer.userId });
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  /**
   * Opens an order awaiting payment, in the caller's transaction (which has locked the car):
   * for a fixed-price purchase, an accepted bid or an auction's winner.
   */
  async openOrder(
    tx: Transaction,
    changes: OrderChanges,
    input: { carId: number; buyerId: number; amount: number; plan: EscrowPlanId; actor: OrderActor; actorUserId: number | null; note?: string },
  ): Promise<number> {
    const plan = ESCROW_PLANS[input.plan];
    if (input.amount > plan.maxValue) {
      throw validationFailed(
        [{ field: 'amount', message: `${plan.name} covers purchases up to ${formatUsd(plan.maxValue)}` }],
        `${plan.name} covers purchases up to ${formatUsd(plan.maxValue)}. Choose a higher plan for this amount.`,
      );
    }
    const [seller] = await tx.select({ sellerId: cars.sellerId }).from(cars).where(eq(cars.id, input.carId));
    let row;
    try {
      [row] = await tx
        .insert(orders)
        .values({
          carId: input.carId,
          buyerId: input.buyerId,
          sellerId: seller!.sellerId,
          amount: input.amount,
          plan: plan.id,
          escrowFee: plan.price,
          status: 'awaiting_payment',
          paymentDueAt: this.periodSql(PAYMENT_WINDOW_DAYS),
          inspectionDays: plan.guaranteeDays,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('ORDER_EXISTS', 'You already have an open order for this car');
      throw error;
    }
    await tx.insert(orderEvents).values({
      orderId: row!.id,
      fromStatus: null,
      toStatus: 'awaiting_payment',
      actor: input.actor,
      actorUserId: input.actorUserId,
      note: input.note ?? 'Order placed',
    });
    const [record] = await selectOrders(tx, eq(orders.id, row!.id));
    await this.tell(tx, changes, { kind: 'placed' }, record!);
    await this.schedule(tx, row!.id, 'payment-window', row!.paymentDueAt);
    await this.schedule(tx, row!.id, 'payment-reminder', this.reminderTime(row!.paymentDueAt, PAYMENT_WINDOW_DAYS));
    changes.orders.add(row!.id);
    return row!.id;
  }

  // ── The parties' moves ────────────────────────────────────────────────────────────────

  async act(party: Party, orderId: number, action: PartyAction, input: ActionInput, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.transaction(async (tx, changes) => {
        await key.take(tx);
        let record = await this.lock(tx, orderId);
        if (!record || (record.buyer.id !== party.userId && record.seller.userId !== party.userId)) throw notFound('Order not found');
        const role: OrderActor = record.buyer.id === party.userId ? 'buyer' : 'seller';
        const mayEver = ORDER_TRANSITIONS.filter((t) => t.action === action).flatMap((t) => t.by);
        if (!mayEver.includes(role)) {
          throw forbidden('NOT_ALLOWED', `Only the ${mayEver[0]} can ${ACTION_WORDS[action]} this order`);
        }
        const status = record.order.status;
        if (!transitionFor(action, status)) {
          throw conflict('INVALID_TRANSITION', `You cannot ${ACTION_WORDS[action]} an order that is ${STATUS_WORDS[status]}`, { status });
        }
        const by = { actorUserId: party.userId };
        switch (action) {
          case 'pay':
            record = await this.pay(tx, changes, record, input.method ?? 'wire');
            break;
          case 'ship':
            record = await this.move(tx, changes, record, 'ship', role, {
              ...by,
              note: `${input.carrier} ${input.trackingNumber}`,
              set: { shipmentCarrier: input.carrier!, shipmentTrackingNumber: input.trackingNumber!, shippedAt: sql`now()` },
            });
            break;
          case 'confirm-delivery':
            record = await this.move(tx, changes, record, 'confirm-delivery', role, {
              ...by,
              set: { inspectionEndsAt: this.periodSql(record.order.inspectionDays) },
            });
            await this.schedule(tx, orderId, 'inspection-period', record.order.inspectionEndsAt!);
            await this.schedule(tx, orderId, 'inspection-reminder', this.reminderTime(record.order.inspectionEndsAt!, record.order.inspectionDays));
            break;
          case 'accept':
            record = await this.move(tx, changes, record, 'accept', role, by);
            await this.startDisbursement(tx, changes, record, 'payout');
            break;
          case 'dispute':
            if (record.inspectionOver) {
              throw conflict('DEADLINE_PASSED', 'The inspection period has ended, so the car counts as accepted', { status, deadline: record.order.inspectionEndsAt });
            }
            record = await this.move(tx, changes, record, 'dispute', role, { ...by, note: input.reason! });
            break;
          case 'cancel':
            record = await this.move(tx, changes, record, 'cancel', role, { ...by, note: input.reason ?? null });
            break;
        }
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  private async pay(tx: Transaction, changes: OrderChanges, record: OrderRecord, method: PaymentMethod): Promise<OrderRecord> {
    const { order, car } = record;
    if (record.paymentOverdue) {
      throw conflict('DEADLINE_PASSED', 'The payment window for this order has closed', { status: order.status, deadline: order.paymentDueAt });
    }
    if (!SELLABLE_CAR_STATUSES.includes(car.status)) throw conflict('CAR_NOT_AVAILABLE', 'This car is no longer available', { status: car.status });
    const amount = order.amount + order.escrowFee;
    let reference: string;
    try {
      // The provider's idempotency key makes a retry after a crash charge nothing twice.
      ({ reference } = await this.deps.provider.charge({ idempotencyKey: `order-${order.id}-charge`, orderId: order.id, amount, method }));
    } catch (error) {
      if (error instanceof PaymentDeclined) throw new AppError(402, 'PAYMENT_DECLINED', error.message);
      throw error;
    }
    await tx.insert(payments).values({ orderId: order.id, kind: 'charge', amount, method, provider: this.deps.provider.name, reference, status: 'settled', settledAt: sql`now()` });
    const funded = await this.move(tx, changes, record, 'pay', 'buyer', { actorUserId: order.buyerId, note: `${formatUsd(amount)} by ${method === 'card' ? 'card' : 'wire transfer'} (${reference})` });
    await this.setCarStatus(tx, changes, car.id, 'pending');
    // The car is taken: every other unpaid order for it ends now.
    await this.voidOpenOrders(tx, changes, car.id, 'Another buyer paid for this car first.', order.id);
    return funded;
  }

  /**
   * Cancels the car's unpaid orders (the car is taken, or no longer for sale), in the caller's
   * transaction, which holds the car's lock.
   */
  async voidOpenOrders(tx: Transaction, changes: OrderChanges, carId: number, reason: string, except?: number): Promise<void> {
    const open = await selectOrders(
      tx,
      and(eq(orders.carId, carId), eq(orders.status, 'awaiting_payment'), except === undefined ? undefined : ne(orders.id, except))!,
    ).for('update', { of: orders });
    for (const order of open) await this.move(tx, changes, order, 'void', 'system', { note: reason });
  }

  /** Sells the car to its highest bidder at their bid: an order awaiting that buyer's payment. */
  async acceptBid(seller: Party, carId: number, bidId: number, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.transaction(async (tx, changes) => {
        await key.take(tx);
        const [car] = await tx
          .select({
            id: cars.id,
            status: cars.status,
            highestBid: cars.highestBid,
            auctionEndsAt: cars.auctionEndsAt,
            auctionOutcome: cars.auctionOutcome,
            // A reserve-not-met auction may be sold to its highest bidder for one escrow day.
            acceptable: sql<boolean>`coalesce(${cars.auctionClosedAt} + make_interval(secs => ${this.deps.escrowDaySeconds}) > now(), false)`,
            sellerUserId: sellers.userId,
          })
          .from(cars)
          .innerJoin(sellers, eq(sellers.id, cars.sellerId))
          .where(eq(cars.id, carId))
          .for('update', { of: cars });
        if (!car || car.sellerUserId !== seller.userId) throw notFound('Car not found');
        if (car.auctionEndsAt && car.status === 'active') {
          throw conflict('AUCTION_IN_PROGRESS', 'The auction is still running: the highest bid at the end wins');
        }
        const reserveNotMet = car.status === 'ended' && car.auctionOutcome === 'reserve_not_met';
        if (reserveNotMet && !car.acceptable) throw conflict('ACCEPT_WINDOW_CLOSED', 'The day to accept the highest bid after the auction has passed');
        if (car.status !== 'active' && !reserveNotMet) throw conflict('CAR_NOT_AVAILABLE', 'This car is no longer for sale', { status: car.status });
        const [bid] = await tx.select().from(bids).where(and(eq(bids.id, bidId), eq(bids.carId, carId)));
        if (!bid) throw notFound('Bid not found');
        if (bid.amount !== car.highestBid) {
          throw conflict('BID_NOT_HIGHEST', 'Only the highest bid can be accepted', { highestBid: car.highestBid });
        }
        const plan = smallestPlanFor(bid.amount);
        if (!plan) throw conflict('ABOVE_ESCROW_LIMIT', `Escrow covers sales up to ${formatUsd(ESCROW_PLANS.platinum.maxValue)}`);
        const orderId = await this.openOrder(tx, changes, {
          carId,
          buyerId: bid.userId,
          amount: bid.amount,
          plan,
          actor: 'seller',
          actorUserId: seller.userId,
          note: `The seller accepted the bid of ${formatUsd(bid.amount)}`,
        });
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  // ── The operator ──────────────────────────────────────────────────────────────────────

  /** Decides a dispute: refund the buyer, or release the funds to the seller. */
  async resolveDispute(orderId: number, decision: OperatorAction, note: string): Promise<OrderWithEvents> {
    return this.transaction(async (tx, changes) => {
      let record = await this.lock(tx, orderId);
      if (!record) throw notFound('Order not found');
      if (!transitionFor(decision, record.order.status)) {
        throw conflict('INVALID_TRANSITION', `Order #${orderId} is ${STATUS_WORDS[record.order.status]}; only a disputed order can be resolved`, { status: record.order.status });
      }
      record = await this.move(tx, changes, record, decision, 'operator', { note });
      if (decision === 'refund') {
        await this.startDisbursement(tx, changes, record, 'refund');
        // The sale fell through: the car is back on the market.
        await this.setCarStatus(tx, changes, record.car.id, 'active', ['pending']);
        await this.deps.marketValues.refreshLater(tx, record.car.id);
        changes.valuation = true;
      } else {
        await this.startDisbursement(tx, changes, record, 'payout');
        await this.completeSale(tx, changes, record);
      }
      return (await readOrder(tx, orderId))!;
    });
  }

  // ── Due work ──────────────────────────────────────────────────────────────────────────

  /** A deadline came due. Does nothing when the order has moved on, so a run twice is harmless. */
  async runDeadline({ orderId, deadline }: { orderId: number; deadline: OrderDeadline }): Promise<void> {
    await this.transaction(async (tx, changes) => {
      const record = await this.lock(tx, orderId);
      if (!record) return;
      const { order } = record;
      switch (deadline) {
        case 'payment-window':
          if (order.status !== 'awaiting_payment') return;
          if (!record.paymentOverdue) return this.schedule(tx, orderId, deadline, order.paymentDueAt);
          await this.move(tx, changes, record, 'expire-payment-window', 'system', { note: 'The payment window ended without payment.' });
          return;
        case 'inspection-period': {
          if (order.status !== 'inspection') return;
          if (!record.inspectionOver) return this.schedule(tx, orderId, deadline, order.inspectionEndsAt!);
          const accepted = await this.move(tx, changes, record, 'end-inspection', 'system', { note: 'The inspection period ended without a dispute.' });
          await this.startDisbursement(tx, changes, accepted, 'payout');
          return;
        }
        case 'payment-reminder':
          if (order.status !== 'awaiting_payment' || record.paymentOverdue) return;
          if (await this.markReminded(tx, orderId, 'payment')) await this.tell(tx, changes, { kind: 'payment-reminder' }, record);
          return;
        case 'inspection-reminder':
          if (order.status !== 'inspection' || record.inspectionOver) return;
          if (await this.markReminded(tx, orderId, 'inspection')) await this.tell(tx, changes, { kind: 'inspection-reminder' }, record);
          return;
      }
    });
  }

  /**
   * Moves an order's pending payout or refund through the payment provider, then records it
   * (and, for a payout after acceptance, releases the order). The provider call carries the
   * payment's idempotency key, so a run repeated after a crash moves the money once.
   */
  async settle({ orderId }: { orderId: number }): Promise<void> {
    const [pending] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), inArray(payments.kind, ['payout', 'refund']), eq(payments.status, 'pending')));
    if (!pending) return;
    const [context] = await this.db
      .select({ sellerId: orders.sellerId, chargeReference: payments.reference })
      .from(orders)
      .innerJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.kind, 'charge')))
      .where(eq(orders.id, orderId));
    if (!context) throw new Error(`order ${orderId} has a pending ${pending.kind} but no charge`);
    const idempotencyKey = `order-${orderId}-${pending.kind}`;
    const { reference } =
      pending.kind === 'payout'
        ? await this.deps.provider.payout({ idempotencyKey, orderId, sellerId: context.sellerId, amount: pending.amount })
        : await this.deps.provider.refund({ idempotencyKey, orderId, chargeReference: context.chargeReference!, amount: pending.amount });

    await this.transaction(async (tx, changes) => {
      let record = await this.lock(tx, orderId);
      if (!record) return;
      const [settled] = await tx
        .update(payments)
        .set({ status: 'settled', reference, settledAt: sql`now()` })
        .where(and(eq(payments.id, pending.id), eq(payments.status, 'pending')))
        .returning();
      if (!settled) return;
      // The order changed (its payout or refund arrived): clients keep the newest copy by this.
      await tx.update(orders).set({ updatedAt: sql`now()` }).where(eq(orders.id, orderId));
      changes.orders.add(orderId);
      if (pending.kind !== 'payout') return;
      const { order } = record;
      if (order.escrowFee > 0) {
        await tx.insert(payments).values({ orderId, kind: 'fee', amount: order.escrowFee, provider: 'luxemotors', reference: `LM-FEE-${orderId}`, status: 'settled', settledAt: sql`now()` });
      }
      if (order.status === 'accepted') {
        record = await this.move(tx, changes, record, 'record-payout', 'system', { note: `${formatUsd(pending.amount)} paid out (${reference})` });
        await this.completeSale(tx, changes, record);
      }
    });
  }

  /**
   * Catches up on deadlines that passed with no job to act on them (orders from before the job
   * queue existed, or jobs that exhausted their retries). Run at start.
   */
  async sweepOverdue(): Promise<number> {
    const overdue = await this.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(
        sql`(${orders.status} = 'awaiting_payment' and ${orders.paymentDueAt} <= now()) or (${orders.status} = 'inspection' and ${orders.inspectionEndsAt} <= now())`,
      );
    for (const order of overdue) {
      await this.runDeadline({ orderId: order.id, deadline: order.status === 'inspection' ? 'inspection-period' : 'payment-window' });
    }
    const unsettled = await this.db.select({ orderId: payments.orderId }).from(payments).where(eq(payments.status, 'pending'));
    for (const { orderId } of unsettled) await this.settle({ orderId });
    return overdue.length + unsettled.length;
  }

  // ── Machinery ─────────────────────────────────────────────────────────────────────────

  /**
   * The one way an order changes status: the lifecycle table decides, a conditional update
   * applies it (losing a race is a 409, never a second move), and the event and both parties'
   * notifications are written in the same transaction.
   */
  private async move(
    tx: Transaction,
    changes: OrderChanges,
    record: OrderRecord,
    action: OrderAction,
    actor: OrderActor,
    options: { actorUserId?: number; note?: string | null; set?: PgUpdateSetSource<typeof orders> } = {},
  ): Promise<OrderRecord> {
    const from = record.order.status;
    const transition = transitionFor(action, from);
    if (!transition || !transition.by.includes(actor)) {
      throw conflict('INVALID_TRANSITION', `Order #${record.order.id} cannot ${action} while ${STATUS_WORDS[from]}`, { status: from });
    }
    const [row] = await tx
      .update(orders)
      .set({ ...options.set, status: transition.to, updatedAt: sql`now()` })
      .where(and(eq(orders.id, record.order.id), eq(orders.status, from)))
      .returning();
    if (!row) throw conflict('INVALID_TRANSITION', `Order #${record.order.id} changed meanwhile`, { status: from });
    const note = options.note ?? null;
    await tx.insert(orderEvents).values({ orderId: row.id, fromStatus: from, toStatus: transition.to, actor, actorUserId: options.actorUserId ?? null, note });
    const moved: OrderRecord = { ...record, order: row };
    changes.orders.add(row.id);
    await this.tell(tx, changes, { kind: 'moved', action, to: transition.to, actor, note }, moved);
    return moved;
  }

  /** Locks the order's car, then the order, and reads both (null for an unknown order). */
  private async lock(tx: Transaction, orderId: number): Promise<OrderRecord | null> {
    const [head] = await tx.select({ carId: orders.carId }).from(orders).where(eq(orders.id, orderId));
    if (!head) return null;
    await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, head.carId)).for('update');
    const [record] = await selectOrders(tx, eq(orders.id, orderId)).for('update', { of: orders });
    return record ?? null;
  }

  /** Writes the payout or refund as pending, with the job that moves it, in the move's transaction. */
  private async startDisbursement(tx: Transaction, changes: OrderChanges, record: OrderRecord, kind: 'payout' | 'refund'): Promise<void> {
    const { order } = record;
    const amount = kind === 'payout' ? order.amount : order.amount + order.escrowFee;
    await tx.insert(payments).values({ orderId: order.id, kind, amount, provider: this.deps.provider.name, status: 'pending' });
    await this.deps.jobs.enqueue(tx, 'payment.settle', { orderId: order.id });
    changes.settle = true;
  }

  /** The car is sold; the buyer's testimonials now speak of a verified purchase. */
  private async completeSale(tx: Transaction, changes: OrderChanges, record: OrderRecord): Promise<void> {
    await this.setCarStatus(tx, changes, record.car.id, 'sold');
    // A completed sale is a comparable for the market value of cars like it.
    await this.deps.marketValues.refreshLater(tx, record.car.id);
    changes.valuation = true;
    const title = `${record.car.year} ${record.car.make} ${record.car.model}`;
    await tx
      .update(testimonials)
      .set({ verified: true, purchaseAmount: sql`coalesce(${testimonials.purchaseAmount}, ${record.order.amount})`, carPurchased: sql`coalesce(${testimonials.carPurchased}, ${title})` })
      .where(and(eq(testimonials.userId, record.buyer.id), eq(testimonials.verified, false)));
  }

  private async setCarStatus(tx: Executor, changes: OrderChanges, carId: number, status: CarStatus, onlyFrom?: CarStatus[]): Promise<void> {
    const where = onlyFrom ? and(eq(cars.id, carId), inArray(cars.status, onlyFrom)) : eq(cars.id, carId);
    const changed = await tx.update(cars).set({ status, updatedAt: sql`now()` }).where(where).returning({ id: cars.id });
    if (changed.length > 0) changes.cars.set(carId, status);
  }

  private async markReminded(tx: Transaction, orderId: number, which: 'payment' | 'inspection'): Promise<boolean> {
    const column = which === 'payment' ? orders.paymentReminderSentAt : orders.inspectionReminderSentAt;
    const set = which === 'payment' ? { paymentReminderSentAt: sql`now()` } : { inspectionReminderSentAt: sql`now()` };
    const marked = await tx.update(orders).set(set).where(and(eq(orders.id, orderId), sql`${column} is null`)).returning({ id: orders.id });
    return marked.length > 0;
  }

  /** A reminder one escrow day before `deadline`, when the period is longer than that. */
  private reminderTime(deadline: Date, periodDays: number): Date | null {
    if (periodDays <= DEADLINE_REMINDER_DAYS) return null;
    return new Date(deadline.getTime() - DEADLINE_REMINDER_DAYS * this.deps.escrowDaySeconds * 1000);
  }

  private async schedule(tx: Transaction, orderId: number, deadline: OrderDeadline, at: Date | null): Promise<void> {
    if (!at) return;
    await this.deps.jobs.enqueue(tx, 'order.deadline', { orderId, deadline }, { startAfter: at });
  }

  private async tell(tx: Transaction, changes: OrderChanges, news: OrderNews, record: OrderRecord): Promise<void> {
    const { notifications, mails } = orderMessages(news, record, this.deps.appUrl);
    changes.notifications.push(...(await this.deps.notifications.create(tx, notifications)));
    for (const mail of mails) await this.deps.mailer.send(mail, tx);
    if (mails.length > 0) changes.mail = true;
  }

  /** Runs `work` in a transaction, then tells everyone concerned what it changed. */
  private async transaction<T>(work: (tx: Transaction, changes: OrderChanges) => Promise<T>): Promise<T> {
    const changes = new OrderChanges();
    const result = await this.db.transaction((tx) => work(tx, changes));
    await this.announce(changes);
    return result;
  }

  /** After the transaction that made `changes` has committed: notifications, pushes, jobs. */
  async announce(changes: OrderChanges): Promise<void> {
    // The change has committed: a failure from here on must not turn its answer into an error.
    try {
      if (changes.settle) this.deps.jobs.wake('payment.settle');
      if (changes.mail) this.deps.mailer.wake();
      if (changes.valuation) this.deps.marketValues.wake();
      for (const [carId, status] of changes.cars) this.deps.events.publish('car.status', { carId, status });
      await this.deps.notifications.announce(changes.notifications);
      for (const orderId of changes.orders) {
        const order = await readOrder(this.db, orderId);
        if (!order) continue;
        const [seller] = await this.db.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, order.sellerId));
        const userIds = [order.buyerId, ...(seller?.userId ? [seller.userId] : [])];
        this.deps.events.publish('order.updated', { order, userIds });
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not announce an order change');
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** An order service with the default collaborators for whatever `deps` leaves out (commands, tests). */
export function createOrdersService(
  deps: Pick<OrdersServiceDeps, 'db' | 'jobs' | 'mailer' | 'events' | 'log' | 'escrowDaySeconds' | 'appUrl'> & Partial<OrdersServiceDeps>,
): OrdersService {
  return new OrdersService({
    notifications: new NotificationsService(deps.db, deps.events),
    provider: new SimulatedBank(),
    idempotency: new IdempotencyKeys(deps.db),
    marketValues: new MarketValues(deps.db, deps.jobs, deps.events),
    ...deps,
  });
}
