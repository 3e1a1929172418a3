import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Transaction } from '../../../../db/client.ts';
import { cars, offerEvents, offers, sellers } from '../../../../db/schema/index.ts';
import { carVisibleTo } from '@common/listing.ts';
import { ESCROW_PLANS, smallestPlanFor } from '@common/escrow-plans.ts';
import {
  OFFER_EXPIRY_DAYS,
  SECOND_CHANCE_EXPIRY_DAYS,
  askingPriceForOffers,
  counterRange,
  moverFor,
  offerTransitionFor,
  openingOfferRange,
  type OfferParty,
  type OfferPartyMove,
  type OfferRange,
} from '@common/offer-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';
import type { Offer } from '@common/schemas/offers.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { conflict, forbidden, isUniqueViolation, notFound, validationFailed } from '../../lib/errors.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { IdempotencyClaim, IdempotencyKeys } from '../idempotency.ts';
import type { OrderChanges } from '../orders/announcements.ts';
import type { OrdersService, Party } from '../orders/orders-service.ts';
import { readOrder } from '../orders/order-views.ts';
import type { OfferTransitions } from './offer-transitions.ts';
import { listOffers, readOffer, selectOffers, type OfferRecord } from './offer-views.ts';
import { secondChanceRunnerUp } from './second-chance.ts';
import type { MakeOffer, OfferMoveBodies } from '@common/schemas/commerce.ts';
import { ErrorCode } from '@common/error-codes.ts';

export interface OffersServiceDeps {
  db: Database;
  jobs: JobRunner;
  orders: OrdersService;
  idempotency: IdempotencyKeys;
  log: FastifyBaseLogger;
}

/** The car columns the offer rules read, under the car's lock. */
interface CarForOffers {
  id: number;
  price: number;
  status: string;
  auctionEndsAt: Date | null;
  auctionReservePrice: number | null;
  auctionOutcome: string | null;
  sellerId: number;
  sellerUserId: number | null;
}

/**
 * Private offers between a buyer and a car's seller, and the seller's second-chance offer to an
 * auction's runner-up (contract §"Offers and second chance"). Every move goes through
 * `OfferTransitions`; accepting opens the escrow order through the orders service, in the same
 * transaction, so an offer is accepted exactly when its order exists.
 */
export class OffersService {
  private readonly transitions: OfferTransitions;

  constructor(private readonly deps: OffersServiceDeps) {
    this.transitions = deps.orders.offerTransitions;
    deps.jobs.define({ name: 'offer.expire', handle: (payload) => this.expire(payload.offerId) });
  }

  // ── Reads ─────────────────────────────────────────────────────────────────────────────

  list(userId: number): Promise<Offer[]> {
    return listOffers(this.deps.db, userId);
  }

  /** One offer, for its parties only; anyone else is told it does not exist. */
  async get(userId: number, offerId: number): Promise<Offer> {
    const offer = await readOffer(this.deps.db, offerId, userId);
    if (!offer) throw notFound('Offer not found');
    return offer;
  }

  // ── The buyer's offer ─────────────────────────────────────────────────────────────────

  /** A buyer's opening offer on a fixed-price listing, or on an auction that ended below its reserve. */
  make(buyer: Party, carId: number, input: MakeOffer, claim?: IdempotencyClaim): Promise<Offer> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.orders.transaction(async (tx, changes) => {
        await key.take(tx);
        const car = await this.lockCar(tx, carId);
        if (!car || !carVisibleTo(car.status, { isSeller: car.sellerUserId === buyer.userId, isStaff: false })) throw notFound('Car not found');
        if (car.sellerUserId === buyer.userId) throw forbidden(ErrorCode.NOT_ALLOWED, 'You cannot make an offer on your own car');
        const isAuction = car.auctionEndsAt !== null;
        if (isAuction && car.status === 'active') throw conflict(ErrorCode.AUCTION_IN_PROGRESS, 'The auction is still running: place a bid instead');
        const open = isAuction ? car.status === 'ended' && car.auctionOutcome === 'reserve_not_met' : car.status === 'active';
        if (!open) throw conflict(ErrorCode.CAR_NOT_AVAILABLE, 'This car is not open to offers', { status: car.status });
        requireWithin(input.amount, openingOfferRange({ price: car.price, isAuction }), isAuction ? 'Offer' : 'Offer less than the asking price:');
        const offerId = await this.open(tx, changes, {
          carId,
          buyerId: buyer.userId,
          sellerId: car.sellerId,
          amount: input.amount,
          by: 'buyer',
          days: OFFER_EXPIRY_DAYS,
          secondChance: false,
          message: input.message ?? null,
        });
        const view = (await readOffer(tx, offerId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  // ── The parties' moves ────────────────────────────────────────────────────────────────

  /** Counter, decline or withdraw: the offer after the move. */
  async respond(party: Party, offerId: number, move: Exclude<OfferPartyMove, 'accept'>, input: Partial<OfferMoveBodies['counter']>, claim?: IdempotencyClaim): Promise<Offer> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.orders.transaction(async (tx, changes) => {
        await key.take(tx);
        const { record, role } = await this.lockAsParty(tx, party, offerId, move);
        if (move === 'counter') {
          const history = await this.amountsOf(tx, offerId);
          const buyerLast = history.findLast((entry) => entry.actor === 'buyer')?.amount ?? null;
          const askingPrice = askingPriceForOffers(record.car, { secondChance: record.offer.secondChance, history });
          const range = counterRange(role, { buyerLast, onTable: record.offer.amount, askingPrice });
          if (range.min > range.max) {
            throw validationFailed([{ field: 'amount', message: 'There is no room left to counter: accept or decline the amount on the table.' }]);
          }
          requireWithin(input.amount!, range, 'Counter with');
        }
        await this.transitions.move(tx, changes, record, move, role, { actorUserId: party.userId, amount: input.amount });
        const view = (await readOffer(tx, offerId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  /** Accepts the amount on the table: the escrow order at that amount, awaiting the buyer's payment. */
  async accept(party: Party, offerId: number, claim?: IdempotencyClaim): Promise<OrderWithEvents> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.orders.transaction(async (tx, changes) => {
        await key.take(tx);
        const { record, role } = await this.lockAsParty(tx, party, offerId, 'accept');
        const { offer, car } = record;
        const sellable =
          car.auctionEndsAt === null
            ? car.status === 'active'
            : car.status === 'ended' && car.auctionOutcome === (offer.secondChance ? 'sold' : 'reserve_not_met');
        if (!sellable) throw conflict(ErrorCode.CAR_NOT_AVAILABLE, 'This car is no longer for sale', { status: car.status });
        const plan = smallestPlanFor(offer.amount);
        if (!plan) throw conflict(ErrorCode.ABOVE_ESCROW_LIMIT, `Escrow covers sales up to ${formatUsd(ESCROW_PLANS.platinum.maxValue)}`);
        const orderId = await this.deps.orders.openOrder(tx, changes, {
          carId: car.id,
          buyerId: offer.buyerId,
          amount: offer.amount,
          plan,
          actor: role,
          actorUserId: party.userId,
          note: `Offer #${offer.id} accepted at ${formatUsd(offer.amount)}`,
          via: 'offer',
        });
        await this.transitions.move(tx, changes, record, 'accept', role, { actorUserId: party.userId, set: { orderId } });
        const view = (await readOrder(tx, orderId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  // ── Second chance ─────────────────────────────────────────────────────────────────────

  /** The seller offers the car to the auction's runner-up at their highest bid, for one escrow day. */
  secondChance(seller: Party, carId: number, claim?: IdempotencyClaim): Promise<Offer> {
    return this.deps.idempotency.once(claim, (key) =>
      this.deps.orders.transaction(async (tx, changes) => {
        await key.take(tx);
        const car = await this.lockCar(tx, carId);
        if (!car || car.sellerUserId !== seller.userId) throw notFound('Car not found');
        const runnerUp = await secondChanceRunnerUp(tx, car);
        if ('code' in runnerUp) throw conflict(runnerUp.code, runnerUp.message);
        const offerId = await this.open(tx, changes, {
          carId,
          buyerId: runnerUp.userId,
          sellerId: car.sellerId,
          amount: runnerUp.amount,
          by: 'seller',
          days: SECOND_CHANCE_EXPIRY_DAYS,
          secondChance: true,
          message: null,
        });
        const view = (await readOffer(tx, offerId))!;
        await key.record(tx, view);
        return view;
      }),
    );
  }

  // ── Due work ──────────────────────────────────────────────────────────────────────────

  /**
   * An offer's expiry came due. A move since then restarted its clock (and queued a later job),
   * so this one does nothing unless the offer is open and its time has passed by the database's
   * clock; run twice, or on two processes, it expires the offer once.
   */
  async expire(offerId: number): Promise<void> {
    await this.deps.orders.transaction(async (tx, changes) => {
      const record = await this.transitions.lock(tx, offerId);
      if (!record || record.offer.status !== 'open' || !record.lapsed) return;
      await this.transitions.move(tx, changes, record, 'expire', 'system');
    });
  }

  /** At start: offers whose time passed while no process ran (a lost job is caught up here too). */
  async sweepLapsed(): Promise<number> {
    const lapsed = await selectOffers(this.deps.db, and(eq(offers.status, 'open'), sql`${offers.expiresAt} <= now()`)!);
    for (const { offer } of lapsed) await this.expire(offer.id);
    return lapsed.length;
  }

  // ── Pieces ────────────────────────────────────────────────────────────────────────────

  private async lockCar(tx: Transaction, carId: number): Promise<CarForOffers | null> {
    const [car] = await tx
      .select({
        id: cars.id,
        price: cars.price,
        status: cars.status,
        auctionEndsAt: cars.auctionEndsAt,
        auctionReservePrice: cars.auctionReservePrice,
        auctionOutcome: cars.auctionOutcome,
        sellerId: cars.sellerId,
        sellerUserId: sellers.userId,
      })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, carId))
      .for('no key update', { of: cars });
    return car ?? null;
  }

  /**
   * Locks the offer for a party's move and checks who may make it: anyone but a party gets 404;
   * withdrawing is the maker's alone (403); every other wrong turn or closed offer is a 409.
   */
  private async lockAsParty(tx: Transaction, party: Party, offerId: number, move: OfferPartyMove): Promise<{ record: OfferRecord; role: OfferParty }> {
    const record = await this.transitions.lock(tx, offerId);
    const role: OfferParty | null = !record ? null : record.offer.buyerId === party.userId ? 'buyer' : record.seller.userId === party.userId ? 'seller' : null;
    if (!record || !role) throw notFound('Offer not found');
    const mover = moverFor(role, record.offer.amountBy);
    if (move === 'withdraw' && mover !== 'maker') throw forbidden(ErrorCode.NOT_ALLOWED, 'Only the party who made the amount on the table can withdraw it');
    const transition = offerTransitionFor(move, record.offer.status);
    if (!transition) throw conflict(ErrorCode.INVALID_TRANSITION, `This offer is ${record.offer.status}`, { status: record.offer.status });
    if (!transition.by.includes(mover)) throw conflict(ErrorCode.INVALID_TRANSITION, 'It is the other party\'s turn to answer', { status: record.offer.status, by: record.offer.amountBy });
    return { record, role };
  }

  /** Who named which amount on the offer, oldest first (an open offer's history holds only its opening and counters). */
  private amountsOf(tx: Executor, offerId: number): Promise<{ actor: string; amount: number }[]> {
    return tx.select({ actor: offerEvents.actor, amount: offerEvents.amount }).from(offerEvents).where(eq(offerEvents.offerId, offerId)).orderBy(asc(offerEvents.id));
  }

  /** A new open offer, its first history entry, its expiry job and the other party's notification. */
  private async open(
    tx: Transaction,
    changes: OrderChanges,
    input: { carId: number; buyerId: number; sellerId: number; amount: number; by: OfferParty; days: number; secondChance: boolean; message: string | null },
  ): Promise<number> {
    let row;
    try {
      [row] = await tx
        .insert(offers)
        .values({
          carId: input.carId,
          buyerId: input.buyerId,
          sellerId: input.sellerId,
          amount: input.amount,
          amountBy: input.by,
          expiresAt: this.transitions.expiryFromNow(input.days),
          secondChance: input.secondChance,
          message: input.message,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw conflict(ErrorCode.OFFER_EXISTS, input.secondChance ? 'The runner-up already has an open offer for this car' : 'You already have an open offer for this car');
      }
      throw error;
    }
    const buyerUserId = input.by === 'buyer' ? input.buyerId : null;
    const sellerUserId = input.by === 'seller' ? (await tx.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, input.sellerId)))[0]?.userId : null;
    await tx.insert(offerEvents).values({ offerId: row!.id, actor: input.by, action: 'offer', amount: input.amount, actorUserId: buyerUserId ?? sellerUserId ?? null });
    await this.transitions.scheduleExpiry(tx, row!.id, row!.expiresAt);
    const [record] = await selectOffers(tx, eq(offers.id, row!.id));
    await this.transitions.tell(tx, changes, { action: 'offer', actor: input.by }, record!);
    return row!.id;
  }
}

function requireWithin(amount: number, range: OfferRange, lead: string): void {
  if (amount >= range.min && amount <= range.max) return;
  const span = range.min === range.max ? formatUsd(range.min) : `between ${formatUsd(range.min)} and ${formatUsd(range.max)}`;
  throw validationFailed([{ field: 'amount', message: `${lead} ${span}.` }]);
}
