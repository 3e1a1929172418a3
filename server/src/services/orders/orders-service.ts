import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../../../db/client.ts';
import { orders } from '../../../../db/schema/index.ts';
import { carStatusesFor } from '@common/car-lifecycle.ts';
import type { PaymentMethod } from '@common/enums.ts';
import { ORDER_TRANSITIONS, transitionFor, type OperatorAction, type OrderActor, type PartyAction } from '@common/order-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';
import type { Order, OrderWithEvents } from '@common/schemas/orders.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import { recordAudit, type AuditActor } from '../audit.ts';
import { IdempotencyKeys, type IdempotencyClaim } from '../idempotency.ts';
import type { Mailer } from '../mailer.ts';
import { NotificationsService } from '../notifications.ts';
import { verifyPurchaseTestimonials } from '../testimonials.ts';
import { MarketValues } from '../valuation.ts';
import { OrderAnnouncements, type OrderChanges } from './announcements.ts';
import { OrderDeadlines, type OrderDeadline } from './deadlines.ts';
import { OrderMoney } from './money.ts';
import { listOrders, readOrder, type OrderRecord } from './order-views.ts';
import { SimulatedBank, type PaymentProvider } from './payment-provider.ts';
import { OrderPlacement, type NewOrder, type Party } from './placement.ts';
import { OrderTransitions, STATUS_WORDS, moveOrderCar } from './transitions.ts';
import { OfferTransitions } from '../offers/offer-transitions.ts';
import { citedItems } from '../dossier/dossier-records.ts';
import type { OrderActionBodies, PlaceOrder } from '@common/schemas/commerce.ts';
import { ErrorCode } from '@common/error-codes.ts';

export type { OrderDeadline } from './deadlines.ts';
export type { Party } from './placement.ts';

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
/** Any move's body: each move reads the fields of its own. */
export type ActionInput = Partial<OrderActionBodies['pay'] & OrderActionBodies['ship'] & OrderActionBodies['dispute'] & OrderActionBodies['cancel']>;

const ACTION_WORDS: Record<PartyAction, string> = {
  pay: 'pay for',
  ship: 'ship',
  'confirm-delivery': 'confirm delivery of',
  accept: 'accept',
  dispute: 'dispute',
  cancel: 'cancel',
};

/** Cars an order can be paid for: listed, or an auction that closed with this sale. */
const SELLABLE_CAR_STATUSES = carStatusesFor('pay');

/**
 * Escrow orders: what the parties, the due jobs and the operator ask of them. The pieces live
 * beside this file: placement.ts opens orders, transitions.ts moves them through the lifecycle
 * (the only code that changes an order's status), money.ts charges, pays out and refunds through
 * the payment provider, deadlines.ts schedules the periods' jobs, and announcements.ts tells the
 * parties and, after each commit, the rest of the app.
 */
export class OrdersService {
  private readonly announcements: OrderAnnouncements;
  private readonly transitions: OrderTransitions;
  private readonly money: OrderMoney;
  private readonly deadlines: OrderDeadlines;
  private readonly placement: OrderPlacement;
  /** Offers move with the car's orders: declined when one is funded or the car leaves the market. */
  readonly offerTransitions: OfferTransitions;

  constructor(private readonly deps: OrdersServiceDeps) {
    this.announcements = new OrderAnnouncements(deps);
    this.transitions = new OrderTransitions(this.announcements);
    this.money = new OrderMoney(deps);
    this.deadlines = new OrderDeadlines(deps);
    this.offerTransitions = new OfferTransitions({ jobs: deps.jobs, notifications: deps.notifications, deadlines: this.deadlines });
    this.placement = new OrderPlacement({ idempotency: deps.idempotency, announcements: this.announcements, transitions: this.transitions, deadlines: this.deadlines });
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

  // ── Reads ─────────────────────────────────────────────────────────────────────────────

  list(userId: number): Promise<Order[]> {
    return listOrders(this.deps.db, userId);
  }

  /** One order, for its parties only; anyone else is told it does not exist. */
  async get(userId: number, orderId: number): Promise<OrderWithEvents> {
    const order = await readOrder(this.deps.db, orderId, userId);
    if (!order) throw notFound('Order not found');
    return order;
  }

  /** Any order, for the operator. */
  timeline(orderId: number): Promise<OrderWithEvents | null> {
    return readOrder(this.deps.db, orderId);
  }

  // ── New orders ────────────────────────────────────────────────────────────────────────

  /** Buys a listed car at its asking price. */
  place(buyer: Party, input: Required<PlaceOrder>, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.placement.place(buyer, input, claim);
  }

  /** Sells the car to its highest bidder at their bid: an order awaiting that buyer's payment. */
  acceptBid(seller: Party, carId: number, bidId: number, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.placement.acceptBid(seller, carId, bidId, claim);
  }

  /** Opens an order awaiting payment in the caller's transaction, which has locked the car (an auction's close). */
  openOrder(tx: Transaction, changes: OrderChanges, input: NewOrder): Promise<number> {
    return this.placement.openOrder(tx, changes, input);
  }

  // ── The parties' moves ────────────────────────────────────────────────────────────────

  async act(party: Party, orderId: number, action: PartyAction, input: ActionInput, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.announcements.transaction(async (tx, changes) => {
        await key.take(tx);
        let record = await this.transitions.lock(tx, orderId);
        if (!record || (record.buyer.id !== party.userId && record.seller.userId !== party.userId)) throw notFound('Order not found');
        const role: OrderActor = record.buyer.id === party.userId ? 'buyer' : 'seller';
        const mayEver = ORDER_TRANSITIONS.filter((t) => t.action === action).flatMap((t) => t.by);
        if (!mayEver.includes(role)) {
          throw forbidden(ErrorCode.NOT_ALLOWED, `Only the ${mayEver[0]} can ${ACTION_WORDS[action]} this order`);
        }
        const status = record.order.status;
        if (!transitionFor(action, status)) {
          throw conflict(ErrorCode.INVALID_TRANSITION, `You cannot ${ACTION_WORDS[action]} an order that is ${STATUS_WORDS[status]}`, { status });
        }
        const by = { actorUserId: party.userId };
        switch (action) {
          case 'pay':
            record = await this.pay(tx, changes, record, input.method ?? 'wire');
            break;
          case 'ship':
            record = await this.transitions.move(tx, changes, record, 'ship', role, {
              ...by,
              note: `${input.carrier} ${input.trackingNumber}`,
              set: { shipmentCarrier: input.carrier!, shipmentTrackingNumber: input.trackingNumber!, shippedAt: sql`now()` },
            });
            break;
          case 'confirm-delivery':
            record = await this.transitions.move(tx, changes, record, 'confirm-delivery', role, {
              ...by,
              set: { inspectionEndsAt: this.deadlines.fromNow(record.order.inspectionDays) },
            });
            await this.deadlines.schedulePeriod(tx, orderId, 'inspection-period', record.order.inspectionEndsAt!, record.order.inspectionDays);
            break;
          case 'accept':
            record = await this.transitions.move(tx, changes, record, 'accept', role, by);
            await this.money.startDisbursement(tx, changes, record.order, 'payout');
            break;
          case 'dispute':
            if (record.inspectionOver) {
              throw conflict(ErrorCode.DEADLINE_PASSED, 'The inspection period has ended, so the car counts as accepted', { status, deadline: record.order.inspectionEndsAt });
            }
            record = await this.transitions.move(tx, changes, record, 'dispute', role, {
              ...by,
              note: input.reason!,
              set: { disputedItems: await citedItems(tx, orderId, input.items) },
            });
            break;
          case 'cancel':
            record = await this.transitions.move(tx, changes, record, 'cancel', role, { ...by, note: input.reason ?? null });
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
      throw conflict(ErrorCode.DEADLINE_PASSED, 'The payment window for this order has closed', { status: order.status, deadline: order.paymentDueAt });
    }
    if (!SELLABLE_CAR_STATUSES.includes(car.status)) throw conflict(ErrorCode.CAR_NOT_AVAILABLE, undefined, { status: car.status });
    const { amount, reference } = await this.money.charge(tx, order, method);
    const funded = await this.transitions.move(tx, changes, record, 'pay', 'buyer', { actorUserId: order.buyerId, note: `${formatUsd(amount)} by ${method === 'card' ? 'card' : 'wire transfer'} (${reference})` });
    await moveOrderCar(tx, changes, car.id, 'pay', 'buyer');
    // The car is taken: every other unpaid order and every open offer for it ends now.
    await this.transitions.voidOpenOrders(tx, changes, car.id, 'Another buyer paid for this car first.', order.id);
    await this.offerTransitions.declineOpenOffers(tx, changes, car.id, 'the car was sold to another buyer.');
    return funded;
  }

  /**
   * The car left the market: its unpaid orders are cancelled and its open offers declined, in the
   * caller's transaction, which holds the car's lock.
   */
  async closeOpenDeals(tx: Transaction, changes: OrderChanges, carId: number, reason: string): Promise<void> {
    await this.transitions.voidOpenOrders(tx, changes, carId, `${reason}.`);
    await this.offerTransitions.declineOpenOffers(tx, changes, carId, `${reason.charAt(0).toLowerCase()}${reason.slice(1)}.`);
  }

  /** Runs `work` in a transaction, then tells the parties what it changed (orders and offers alike). */
  transaction<T>(work: (tx: Transaction, changes: OrderChanges) => Promise<T>): Promise<T> {
    return this.announcements.transaction(work);
  }

  // ── The operator ──────────────────────────────────────────────────────────────────────

  /**
   * Decides a dispute (refund the buyer, or release the funds to the seller): the console (`actor` an operator) and the command line (`cli`) both come
   * here. The audit entry is written in the same transaction as the move and the money's leg.
   */
  async resolveDispute(orderId: number, decision: OperatorAction, note: string, actor: AuditActor = 'cli'): Promise<OrderWithEvents> {
    return this.announcements.transaction(async (tx, changes) => {
      let record = await this.transitions.lock(tx, orderId);
      if (!record) throw notFound('Order not found');
      if (!transitionFor(decision, record.order.status)) {
        throw conflict(ErrorCode.INVALID_TRANSITION, `Order #${orderId} is ${STATUS_WORDS[record.order.status]}; only a disputed order can be resolved`, { status: record.order.status });
      }
      const before = { status: record.order.status };
      record = await this.transitions.move(tx, changes, record, decision, 'operator', { note, actorUserId: actor === 'cli' ? undefined : actor.userId });
      if (decision === 'refund') {
        await this.money.startDisbursement(tx, changes, record.order, 'refund');
        // The sale fell through: the car is back on the market.
        await moveOrderCar(tx, changes, record.car.id, 'relist', 'operator');
        await this.revalue(tx, changes, record.car.id);
      } else {
        await this.money.startDisbursement(tx, changes, record.order, 'payout');
        await this.completeSale(tx, changes, record, 'operator');
      }
      // Last, so the log's chain lock is held only for the moment the entry takes.
      await recordAudit(tx, {
        actor,
        action: 'dispute.resolve',
        targetType: 'order',
        targetId: orderId,
        reason: note,
        before,
        after: { status: record.order.status, outcome: decision, disbursement: decision === 'refund' ? 'refund' : 'payout', amount: record.order.amount },
      });
      return (await readOrder(tx, orderId))!;
    });
  }

  // ── Due work ──────────────────────────────────────────────────────────────────────────

  /** A deadline came due. Does nothing when the order has moved on, so a run twice is harmless. */
  async runDeadline({ orderId, deadline }: { orderId: number; deadline: OrderDeadline }): Promise<void> {
    await this.announcements.transaction(async (tx, changes) => {
      const record = await this.transitions.lock(tx, orderId);
      if (!record) return;
      const { order } = record;
      switch (deadline) {
        case 'payment-window':
          if (order.status !== 'awaiting_payment') return;
          if (!record.paymentOverdue) return this.deadlines.schedule(tx, orderId, deadline, order.paymentDueAt);
          await this.transitions.move(tx, changes, record, 'expire-payment-window', 'system', { note: 'The payment window ended without payment.' });
          return;
        case 'inspection-period': {
          if (order.status !== 'inspection') return;
          if (!record.inspectionOver) return this.deadlines.schedule(tx, orderId, deadline, order.inspectionEndsAt!);
          const accepted = await this.transitions.move(tx, changes, record, 'end-inspection', 'system', { note: 'The inspection period ended without a dispute.' });
          await this.money.startDisbursement(tx, changes, accepted.order, 'payout');
          return;
        }
        case 'payment-reminder':
          if (order.status !== 'awaiting_payment' || record.paymentOverdue) return;
          if (await this.deadlines.markReminded(tx, orderId, 'payment')) await this.announcements.tell(tx, changes, { kind: 'payment-reminder' }, record);
          return;
        case 'inspection-reminder':
          if (order.status !== 'inspection' || record.inspectionOver) return;
          if (await this.deadlines.markReminded(tx, orderId, 'inspection')) await this.announcements.tell(tx, changes, { kind: 'inspection-reminder' }, record);
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
    const pending = await this.money.pendingDisbursement(orderId);
    if (!pending) return;
    const reference = await this.money.disburse(pending);

    await this.announcements.transaction(async (tx, changes) => {
      let record = await this.transitions.lock(tx, orderId);
      if (!record) return;
      if (!(await this.money.markSettled(tx, pending, reference))) return;
      // The order changed (its payout or refund arrived): clients keep the newest copy by this.
      await tx.update(orders).set({ updatedAt: sql`now()` }).where(eq(orders.id, orderId));
      changes.orders.add(orderId);
      if (pending.kind !== 'payout') return;
      await this.money.keepFee(tx, record.order);
      if (record.order.status === 'accepted') {
        record = await this.transitions.move(tx, changes, record, 'record-payout', 'system', { note: `${formatUsd(pending.amount)} paid out (${reference})` });
        await this.completeSale(tx, changes, record, 'system');
      }
    });
  }

  /**
   * Catches up on deadlines that passed with no job to act on them (orders from before the job
   * queue existed, or jobs that exhausted their retries). Run at start.
   */
  async sweepOverdue(): Promise<number> {
    const overdue = await this.deadlines.overdue(this.deps.db);
    for (const order of overdue) {
      await this.runDeadline({ orderId: order.id, deadline: order.status === 'inspection' ? 'inspection-period' : 'payment-window' });
    }
    const unsettled = await this.money.unsettledOrders();
    for (const orderId of unsettled) await this.settle({ orderId });
    return overdue.length + unsettled.length;
  }

  /** After the transaction that made `changes` has committed: notifications, pushes, jobs. */
  announce(changes: OrderChanges): Promise<void> {
    return this.announcements.announce(changes);
  }

  // ── The sale's consequences ───────────────────────────────────────────────────────────

  /** The car is sold; the buyer's testimonials now speak of a verified purchase. */
  private async completeSale(tx: Transaction, changes: OrderChanges, record: OrderRecord, by: 'system' | 'operator'): Promise<void> {
    await moveOrderCar(tx, changes, record.car.id, 'sell', by);
    // A completed sale is a comparable for the market value of cars like it.
    await this.revalue(tx, changes, record.car.id);
    await verifyPurchaseTestimonials(tx, { buyerId: record.buyer.id, amount: record.order.amount, carTitle: `${record.car.year} ${record.car.make} ${record.car.model}` });
  }

  /** The car's market value is estimated again once this transaction commits. */
  private async revalue(tx: Transaction, changes: OrderChanges, carId: number): Promise<void> {
    await this.deps.marketValues.refreshLater(tx, carId);
    changes.valuation = true;
  }
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
