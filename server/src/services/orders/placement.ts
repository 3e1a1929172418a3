import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../../../db/client.ts';
import { bids, cars, orders, sellers } from '../../../../db/schema/index.ts';
import { ESCROW_PLANS, smallestPlanFor, type EscrowPlanId } from '@common/escrow-plans.ts';
import { PAYMENT_WINDOW_DAYS, type OrderActor } from '@common/order-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';
import type { SaleRoute } from '@common/market-data.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { conflict, forbidden, isUniqueViolation, notFound, validationFailed } from '../../lib/errors.ts';
import type { IdempotencyClaim, IdempotencyKeys } from '../idempotency.ts';
import type { OrderAnnouncements, OrderChanges } from './announcements.ts';
import type { OrderDeadlines } from './deadlines.ts';
import { readOrder, selectOrders } from './order-views.ts';
import type { OrderTransitions } from './transitions.ts';
import { carVisibleTo } from '@common/listing.ts';
import { leadingBid } from '../leading-bid.ts';
import { freezeCarDossier } from '../dossier/dossier-records.ts';
import type { PlaceOrder } from '@common/schemas/commerce.ts';
import { ErrorCode } from '@common/error-codes.ts';

/** A buyer or seller, as the signed-in account acting. */
export interface Party {
  userId: number;
}

/** A new order: a fixed-price purchase, an accepted bid or an auction's winner. */
export interface NewOrder {
  carId: number;
  buyerId: number;
  amount: number;
  plan: EscrowPlanId;
  actor: OrderActor;
  actorUserId: number | null;
  note?: string;
  /** How the sale came to be (shown in sold results). */
  via: SaleRoute;
}

export interface OrderPlacementDeps {
  idempotency: IdempotencyKeys;
  announcements: OrderAnnouncements;
  transitions: OrderTransitions;
  deadlines: OrderDeadlines;
}

/** How orders come to be: a buyer orders a listed car, or a seller accepts the highest bid. */
export class OrderPlacement {
  constructor(private readonly deps: OrderPlacementDeps) {}

  /** Buys a listed car at its asking price. */
  async place(buyer: Party, input: Required<PlaceOrder>, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.announcements.transaction(async (tx, changes) => {
        await key.take(tx);
        const [car] = await tx
          .select({ id: cars.id, price: cars.price, status: cars.status, auctionEndsAt: cars.auctionEndsAt, sellerUserId: sellers.userId })
          .from(cars)
          .innerJoin(sellers, eq(sellers.id, cars.sellerId))
          .where(eq(cars.id, input.carId))
          .for('no key update', { of: cars });
        if (!car || !carVisibleTo(car.status, { isSeller: false, isStaff: false })) throw notFound('Car not found');
        if (car.auctionEndsAt) throw conflict(ErrorCode.AUCTION_LISTING);
        if (car.status !== 'active') throw conflict(ErrorCode.CAR_NOT_AVAILABLE, undefined, { status: car.status });
        if (car.sellerUserId === buyer.userId) throw forbidden(ErrorCode.CANNOT_BUY_OWN_CAR);
        if (input.amount !== car.price) {
          throw conflict(ErrorCode.PRICE_CHANGED, `The asking price is now ${formatUsd(car.price)}. Review it and order again.`, { price: car.price });
        }
        const orderId = await this.openOrder(tx, changes, { carId: car.id, buyerId: buyer.userId, amount: input.amount, plan: input.plan, actor: 'buyer', actorUserId: buyer.userId, via: 'buy_now' });
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  /** Sells the car to its highest bidder at their bid: an order awaiting that buyer's payment. */
  async acceptBid(seller: Party, carId: number, bidId: number, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.announcements.transaction(async (tx, changes) => {
        await key.take(tx);
        const [car] = await tx
          .select({
            id: cars.id,
            status: cars.status,
            highestBid: cars.highestBid,
            auctionEndsAt: cars.auctionEndsAt,
            auctionOutcome: cars.auctionOutcome,
            // A reserve-not-met auction may be sold to its highest bidder for one escrow day.
            acceptable: sql<boolean>`coalesce(${cars.auctionClosedAt} + ${this.deps.deadlines.interval(1)} > now(), false)`,
            sellerUserId: sellers.userId,
          })
          .from(cars)
          .innerJoin(sellers, eq(sellers.id, cars.sellerId))
          .where(eq(cars.id, carId))
          .for('no key update', { of: cars });
        if (!car || car.sellerUserId !== seller.userId) throw notFound('Car not found');
        if (car.auctionEndsAt && car.status === 'active') {
          throw conflict(ErrorCode.AUCTION_IN_PROGRESS, 'The auction is still running: the highest bid at the end wins');
        }
        const reserveNotMet = car.status === 'ended' && car.auctionOutcome === 'reserve_not_met';
        if (reserveNotMet && !car.acceptable) throw conflict(ErrorCode.ACCEPT_WINDOW_CLOSED);
        if (car.status !== 'active' && !reserveNotMet) throw conflict(ErrorCode.CAR_NOT_AVAILABLE, 'This car is no longer for sale', { status: car.status });
        const [bid] = await tx.select().from(bids).where(and(eq(bids.id, bidId), eq(bids.carId, carId)));
        if (!bid) throw notFound('Bid not found');
        if (bid.amount !== car.highestBid || (await leadingBid(tx, carId))?.id !== bid.id) {
          throw conflict(ErrorCode.BID_NOT_HIGHEST, undefined, { highestBid: car.highestBid });
        }
        const plan = smallestPlanFor(bid.amount);
        if (!plan) throw conflict(ErrorCode.ABOVE_ESCROW_LIMIT, `Escrow covers sales up to ${formatUsd(ESCROW_PLANS.platinum.maxValue)}`);
        const orderId = await this.openOrder(tx, changes, {
          carId,
          buyerId: bid.userId,
          amount: bid.amount,
          plan,
          actor: 'seller',
          actorUserId: seller.userId,
          note: `The seller accepted the bid of ${formatUsd(bid.amount)}`,
          via: 'bid',
        });
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  /**
   * Opens an order awaiting payment, in the caller's transaction (which has locked the car), and
   * schedules the end of its payment window.
   */
  async openOrder(tx: Transaction, changes: OrderChanges, input: NewOrder): Promise<number> {
    const plan = ESCROW_PLANS[input.plan];
    if (input.amount > plan.maxValue) {
      throw validationFailed(
        [{ field: 'amount', message: `${plan.name} covers purchases up to ${formatUsd(plan.maxValue)}` }],
        `${plan.name} covers purchases up to ${formatUsd(plan.maxValue)}. Choose a higher plan for this amount.`,
      );
    }
    const [seller] = await tx.select({ sellerId: cars.sellerId }).from(cars).where(eq(cars.id, input.carId));
    // The dossier as it stands now is what this buyer inspects against, whatever the listing says later.
    const frozen = await freezeCarDossier(tx, input.carId);
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
          via: input.via,
          paymentDueAt: this.deps.deadlines.fromNow(PAYMENT_WINDOW_DAYS),
          inspectionDays: plan.guaranteeDays,
          dossierSnapshot: frozen.snapshot,
          snapshotHash: frozen.hash,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(ErrorCode.ORDER_EXISTS);
      throw error;
    }
    await this.deps.transitions.recordOpening(tx, row!.id, input);
    const [record] = await selectOrders(tx, eq(orders.id, row!.id));
    await this.deps.announcements.tell(tx, changes, { kind: 'placed' }, record!);
    await this.deps.deadlines.schedulePeriod(tx, row!.id, 'payment-window', row!.paymentDueAt, PAYMENT_WINDOW_DAYS);
    changes.orders.add(row!.id);
    return row!.id;
  }
}
