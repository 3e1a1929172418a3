import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../../../db/client.ts';
import { cars, offerEvents, offers } from '../../../../db/schema/index.ts';
import { OFFER_EXPIRY_DAYS, offerTransitionFor, type OfferActor, type OfferMove, type OfferMover } from '@common/offer-lifecycle.ts';
import { conflict } from '../../lib/errors.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { NotificationsService } from '../notifications.ts';
import type { OrderChanges } from '../orders/announcements.ts';
import type { OrderDeadlines } from '../orders/deadlines.ts';
import { offerNotifications, type OfferNews } from './offer-messages.ts';
import { selectOffers, type OfferRecord } from './offer-views.ts';
import { ErrorCode } from '@common/error-codes.ts';

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    'offer.expire': { offerId: number };
  }
}

const STATUS_WORDS = { open: 'open', accepted: 'accepted', declined: 'declined', withdrawn: 'withdrawn', expired: 'expired' } as const;

export interface OfferTransitionsDeps {
  jobs: JobRunner;
  notifications: NotificationsService;
  deadlines: OrderDeadlines;
}

export interface OfferMoveOptions {
  actorUserId?: number | null;
  /** A counter's amount; the other moves keep the amount on the table. */
  amount?: number;
  /** Columns the move sets with the status (the order an accepted offer became). */
  set?: PgUpdateSetSource<typeof offers>;
  /** Why the server declined it, for the parties' notifications. */
  reason?: string;
}

/**
 * The offer lifecycle's one driver, like `OrderTransitions` for orders: every move, whoever asks
 * for it (a party through the API, the expiry job, a funded order for the car), goes through
 * `move`, which applies the table in common/offer-lifecycle.ts with a conditional update in the
 * caller's transaction, records the history entry and tells the other party; the database refuses
 * any other change. Transactions lock the car first and then its offers, as orders do, so offer
 * and order moves on one car never deadlock.
 */
export class OfferTransitions {
  constructor(private readonly deps: OfferTransitionsDeps) {}

  /** Locks the offer's car, then the offer, and reads both (null for an unknown offer). */
  async lock(tx: Transaction, offerId: number): Promise<OfferRecord | null> {
    const [head] = await tx.select({ carId: offers.carId }).from(offers).where(eq(offers.id, offerId));
    if (!head) return null;
    await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, head.carId)).for('no key update');
    const [record] = await selectOffers(tx, eq(offers.id, offerId)).for('no key update', { of: offers });
    return record ?? null;
  }

  /**
   * The one way an offer moves: the table decides, a conditional update applies it (losing a race
   * is a 409, never a second move), and the history entry and notifications are written in the
   * same transaction. A counter restarts the expiry clock.
   */
  async move(tx: Transaction, changes: OrderChanges, record: OfferRecord, move: OfferMove, actor: OfferActor, options: OfferMoveOptions = {}): Promise<OfferRecord> {
    const { offer } = record;
    const transition = offerTransitionFor(move, offer.status);
    const mover: OfferMover = actor === 'system' ? 'system' : actor === offer.amountBy ? 'maker' : 'responder';
    if (!transition || !transition.by.includes(mover)) {
      const why = transition ? 'it is not your turn' : `it is ${STATUS_WORDS[offer.status]}`;
      throw conflict(ErrorCode.INVALID_TRANSITION, `Offer #${offer.id} cannot be ${PAST[move]} now: ${why}`, { status: offer.status, by: offer.amountBy });
    }
    const countered = move === 'counter' && actor !== 'system';
    const [row] = await tx
      .update(offers)
      .set({
        ...options.set,
        status: transition.to,
        ...(countered ? { amount: options.amount!, amountBy: actor, expiresAt: this.deps.deadlines.fromNow(OFFER_EXPIRY_DAYS) } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(offers.id, offer.id), eq(offers.status, offer.status), eq(offers.amountBy, offer.amountBy), eq(offers.amount, offer.amount)))
      .returning();
    if (!row) throw conflict(ErrorCode.INVALID_TRANSITION, `Offer #${offer.id} changed meanwhile`, { status: offer.status });
    await tx.insert(offerEvents).values({ offerId: row.id, actor, action: move, amount: row.amount, actorUserId: options.actorUserId ?? null });
    if (countered) await this.scheduleExpiry(tx, row.id, row.expiresAt);
    const moved: OfferRecord = { ...record, offer: row };
    await this.tell(tx, changes, { action: move, actor, reason: options.reason, orderId: row.orderId }, moved);
    return moved;
  }

  /** Notifications about `news` in the caller's transaction; the push follows the commit. */
  async tell(tx: Transaction, changes: OrderChanges, news: OfferNews, record: OfferRecord): Promise<void> {
    changes.notifications.push(...(await this.deps.notifications.create(tx, offerNotifications(news, record))));
    changes.offers.add(record.offer.id);
  }

  /** The end of an offer's life `days` escrow days from now, on the database's clock. */
  expiryFromNow(days: number) {
    return this.deps.deadlines.fromNow(days);
  }

  /** The job that expires the offer at `at`, if it is still open and untouched by then. */
  async scheduleExpiry(tx: Transaction, offerId: number, at: Date): Promise<void> {
    await this.deps.jobs.enqueue(tx, 'offer.expire', { offerId }, { startAfter: at });
  }

  /**
   * Declines the car's open offers (an order for it was funded, or it left the market), in the
   * caller's transaction, which holds the car's lock.
   */
  async declineOpenOffers(tx: Transaction, changes: OrderChanges, carId: number, reason: string): Promise<void> {
    const open = await selectOffers(tx, and(eq(offers.carId, carId), eq(offers.status, 'open'))!).for('no key update', { of: offers });
    for (const record of open) await this.move(tx, changes, record, 'decline', 'system', { reason });
  }
}

const PAST: Record<OfferMove, string> = { counter: 'countered', accept: 'accepted', decline: 'declined', withdraw: 'withdrawn', expire: 'expired' };
