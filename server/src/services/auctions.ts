import type { NotificationEvent } from '@common/notifications.ts';
import type { AuctionResult } from '@common/socket-events.ts';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { databaseNow, type Database, type Executor, type Transaction } from '../../../db/client.ts';
import { auctionEndingNotices, bids, cars, sellers, watchlist } from '../../../db/schema/index.ts';
import { AUCTION_MAX_DAYS, auctionOutcome, type AuctionOutcome } from '@common/auction-rules.ts';
import { durationInWords } from '@common/durations.ts';
import { carMayMove } from '@common/car-lifecycle.ts';
import { smallestPlanFor } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { conflict, validationFailed } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import { moveCar } from './car-transitions.ts';
import { carTitle } from './chat.ts';
import type { NotificationsService, NewNotification } from './notifications.ts';
import { OrderChanges } from './orders/announcements.ts';
import type { OrdersService } from './orders/orders-service.ts';
import { formatDeadline } from './orders/order-messages.ts';
import { leadingBid } from './leading-bid.ts';
import { ErrorCode } from '@common/error-codes.ts';

declare module '../jobs/job-runner.ts' {
  interface JobPayloads {
    /** An auction's end came due: decide it (or wait for a later end a late bid set). */
    'auction.close': { carId: number };
    /**
     * One of the `auction_ending` milestones came due: tell bidders and watchers. Jobs queued
     * before milestones were configurable carry no `secondsBefore`; theirs was the hour.
     */
    'auction.reminder': { carId: number; secondsBefore?: number };
  }
}

export interface AuctionsServiceDeps {
  db: Database;
  jobs: JobRunner;
  events: EventBus;
  notifications: NotificationsService;
  orders: OrdersService;
  log: FastifyBaseLogger;
  /** The shortest auction a seller may start. */
  minSeconds: number;
  /** The `auction_ending` milestones: seconds before the end (AUCTION_ENDING_NOTICES). */
  endingNotices: readonly number[];
}

/** A milestone job that finds the end further off than this (the end moved later) waits for the new time; jobs and this check read the same (database) clock. */
const EARLY_REMINDER_SLACK_SECONDS = 1;
/** What a milestone job queued before milestones were configurable stood for. */
const LEGACY_REMINDER_SECONDS = 3_600;

/** How often each process looks up the next auction end (late bids may move it). */
const CLOCK_REFRESH_MS = 2_000;
const CLOCK_SLACK_MS = 25;

/** What a seller asks for when listing a car at auction. */
export interface AuctionRequest {
  endsAt: string;
  reservePrice?: number;
}

/** What `auction:ended` tells the car's viewers. */
export type { AuctionResult } from '@common/socket-events.ts';

/**
 * Timed auctions: scheduling their close, closing them, and reminding people before the end.
 * The close runs as a job at the end; it decides under the car's row lock by the database's
 * clock, so a bid racing the close is either in time (and counts) or refused, never both.
 */
export class AuctionsService {
  private timer: NodeJS.Timeout | null = null;
  private refresher: NodeJS.Timeout | null = null;
  private armedFor: number | null = null;

  constructor(private readonly deps: AuctionsServiceDeps) {
    // `short` keeps one waiting job per car, however often a close is scheduled.
    deps.jobs.define({
      name: 'auction.close',
      policy: 'short',
      handle: async ({ carId }) => {
        await this.close(carId);
      },
    });
    deps.jobs.define({ name: 'auction.reminder', policy: 'short', handle: ({ carId, secondsBefore }) => this.remind(carId, secondsBefore ?? LEGACY_REMINDER_SECONDS) });
  }

  /** Checks a seller's auction settings: an end far enough ahead (and not too far), by now. */
  validate(request: AuctionRequest, now = new Date()): { endsAt: Date; reservePrice: number | null } {
    const endsAt = new Date(request.endsAt);
    const earliest = now.getTime() + this.deps.minSeconds * 1000;
    const latest = now.getTime() + AUCTION_MAX_DAYS * 86_400_000;
    if (Number.isNaN(endsAt.getTime())) throw validationFailed([{ field: 'auction.endsAt', message: 'auction.endsAt must be a date and time' }]);
    if (endsAt.getTime() < earliest) {
      throw validationFailed([{ field: 'auction.endsAt', message: `An auction must run at least until ${new Date(earliest).toISOString()}` }]);
    }
    if (endsAt.getTime() > latest) throw validationFailed([{ field: 'auction.endsAt', message: `An auction may run at most ${AUCTION_MAX_DAYS} days` }]);
    return { endsAt, reservePrice: request.reservePrice ?? null };
  }

  /** A draft being published: its auction must still run long enough. */
  assertStillOpen(endsAt: Date, now = new Date()): void {
    if (endsAt.getTime() < now.getTime() + this.deps.minSeconds * 1000) {
      throw conflict(ErrorCode.AUCTION_ENDS_TOO_SOON, undefined, { endsAt: endsAt.toISOString() });
    }
  }

  /**
   * The close is a job, due at the end; a job is only picked up at the worker's next poll. So
   * that an auction closes as the clock reaches zero rather than up to a poll later, each
   * process also keeps a timer for the next end among live auctions, which wakes the worker
   * then. The timer only hurries the job: a process without it still closes every auction.
   */
  startClock(): void {
    const refresh = () => void this.armNextEnd().catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not read the next auction end'));
    refresh();
    this.refresher = setInterval(refresh, CLOCK_REFRESH_MS);
    this.refresher.unref();
  }

  stopClock(): void {
    if (this.refresher) clearInterval(this.refresher);
    if (this.timer) clearTimeout(this.timer);
    this.refresher = this.timer = null;
  }

  /** An auction (on this process) ends at `endsAt`, or later than before: wake the close worker then. */
  arm(endsAt: Date): void {
    const at = endsAt.getTime();
    if (this.armedFor !== null && this.armedFor <= at && this.armedFor > Date.now()) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = at;
    // A little after the end, so the database's clock has passed it too.
    this.timer = setTimeout(() => {
      this.armedFor = null;
      this.deps.jobs.wake('auction.close');
      void this.armNextEnd().catch(() => {});
    }, Math.max(0, at - Date.now()) + CLOCK_SLACK_MS);
    this.timer.unref();
  }

  private async armNextEnd(): Promise<void> {
    const [next] = await this.deps.db
      .select({ endsAt: cars.auctionEndsAt })
      .from(cars)
      .where(and(eq(cars.status, 'active'), isNotNull(cars.auctionEndsAt), isNull(cars.auctionClosedAt)))
      .orderBy(cars.auctionEndsAt)
      .limit(1);
    if (next?.endsAt) this.arm(next.endsAt);
  }

  /** In the listing's transaction: the close at the end, and each `auction_ending` milestone still ahead. */
  async schedule(tx: Executor, carId: number, endsAt: Date): Promise<void> {
    await this.deps.jobs.enqueue(tx, 'auction.close', { carId }, { startAfter: endsAt, singletonKey: `car-${carId}` });
    for (const secondsBefore of this.deps.endingNotices) await this.scheduleReminder(tx, carId, endsAt, secondsBefore);
  }

  private async scheduleReminder(tx: Executor, carId: number, endsAt: Date, secondsBefore: number): Promise<void> {
    const remindAt = new Date(endsAt.getTime() - secondsBefore * 1000);
    if (remindAt.getTime() <= Date.now()) return;
    await this.deps.jobs.enqueue(tx, 'auction.reminder', { carId, secondsBefore }, { startAfter: remindAt, singletonKey: `car-${carId}-${secondsBefore}` });
  }

  /**
   * Closes the auction if it has ended by the database's clock. A late bid may have moved the end
   * since this job was scheduled: then it schedules itself for the new end. Running twice, or on
   * two processes at once, closes it once: the second finds it closed.
   */
  async close(carId: number): Promise<AuctionResult | null> {
    const changes = new OrderChanges();
    const outcome = await this.deps.db.transaction(async (tx) => {
      const [car] = await tx.select().from(cars).where(eq(cars.id, carId)).for('no key update');
      if (!car?.auctionEndsAt || car.auctionClosedAt || !carMayMove('close-auction', car, 'system')) return null;
      const decidedAt = await databaseNow(tx);
      if (car.auctionEndsAt.getTime() > decidedAt.getTime()) {
        await this.deps.jobs.enqueue(tx, 'auction.close', { carId }, { startAfter: car.auctionEndsAt, singletonKey: `car-${carId}` });
        this.arm(car.auctionEndsAt);
        return null;
      }
      const winning = car.highestBid === null ? null : await leadingBid(tx, carId);
      const result = auctionOutcome(car.highestBid, car.auctionReservePrice);
      await moveCar(tx, car, 'close-auction', 'system', { auctionOutcome: result, auctionClosedAt: decidedAt });
      let orderId: number | null = null;
      if (result === 'sold' && winning && car.highestBid !== null) {
        orderId = await this.deps.orders.openOrder(tx, changes, {
          carId,
          buyerId: winning.userId,
          amount: car.highestBid,
          // Bids on auctions stop at the largest plan's limit, so a plan always covers the price.
          plan: smallestPlanFor(car.highestBid)!,
          actor: 'system',
          actorUserId: null,
          note: `Won at auction with a bid of ${formatUsd(car.highestBid)}`,
          via: 'auction',
        });
      }
      const told = await this.deps.notifications.create(tx, await this.resultMessages(tx, car, result, winning?.userId ?? null));
      return { result: { carId, outcome: result, highestBid: car.highestBid, winnerId: result === 'sold' ? (winning?.userId ?? null) : null, orderId }, told };
    });
    if (!outcome) return null;
    this.deps.events.publish('car.status', { carId, status: 'ended' });
    this.deps.events.publish('auction.ended', outcome.result);
    await this.deps.orders.announce(changes);
    await this.deps.notifications.announce(outcome.told);
    return outcome.result;
  }

  /**
   * An `auction_ending` milestone: the car's bidders and watchers are told the auction ends in
   * `secondsBefore`, each once per milestone (the notices table's key), however often the job
   * runs, on whichever process. A job that finds the end moved later (the seller's edit) waits
   * for the new time; one that finds it moved by a late bid's soft close tells nobody twice,
   * since the milestone was told already.
   */
  async remind(carId: number, secondsBefore: number): Promise<void> {
    const told = await this.deps.db.transaction(async (tx) => {
      const [car] = await tx
        .select()
        .from(cars)
        .where(and(eq(cars.id, carId), eq(cars.status, 'active'), isNotNull(cars.auctionEndsAt), isNull(cars.auctionClosedAt), sql`${cars.auctionEndsAt} > now()`));
      if (!car) return [];
      const now = await databaseNow(tx);
      const leftSeconds = (car.auctionEndsAt!.getTime() - now.getTime()) / 1000;
      if (leftSeconds > secondsBefore + EARLY_REMINDER_SLACK_SECONDS) {
        await this.scheduleReminder(tx, carId, car.auctionEndsAt!, secondsBefore);
        return [];
      }
      const audience = await this.audience(tx, car, { watchers: true });
      if (audience.length === 0) return [];
      const firstTime = await tx
        .insert(auctionEndingNotices)
        .values(audience.map((userId) => ({ carId, secondsBefore, userId })))
        .onConflictDoNothing()
        .returning({ userId: auctionEndingNotices.userId });
      const highest = car.highestBid !== null ? `; the highest bid is ${formatUsd(car.highestBid)}` : '';
      return this.deps.notifications.create(
        tx,
        firstTime.map(({ userId }) => ({
          userId,
          type: 'bid' as const,
          event: 'auction_ending' as const,
          title: `Auction ending in ${durationInWords(secondsBefore)}`,
          message: `The auction for the ${carTitle(car)} ends at ${formatDeadline(car.auctionEndsAt!)}${highest}.`,
          carId,
          delivery: { auctionEndsAt: car.auctionEndsAt },
        })),
      );
    });
    await this.deps.notifications.announce(told);
  }

  /**
   * At start: auctions whose end passed while no process ran are closed now, and every live
   * auction has its close scheduled (the sample catalogue's auctions get theirs here).
   */
  async sweep(): Promise<number> {
    const open = await this.deps.db
      .select({ id: cars.id, endsAt: cars.auctionEndsAt })
      .from(cars)
      .where(and(eq(cars.status, 'active'), isNotNull(cars.auctionEndsAt), isNull(cars.auctionClosedAt)));
    for (const car of open) {
      if (car.endsAt!.getTime() <= Date.now()) await this.close(car.id);
      else await this.schedule(this.deps.db, car.id, car.endsAt!);
    }
    return open.length;
  }

  /** The car's bidders (and watchers), never its seller. */
  private async audience(tx: Transaction, car: typeof cars.$inferSelect, options: { watchers: boolean }): Promise<number[]> {
    const [seller] = await tx.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, car.sellerId));
    const bidders = await tx.selectDistinct({ userId: bids.userId }).from(bids).where(eq(bids.carId, car.id));
    const watching = options.watchers ? await tx.select({ userId: watchlist.userId }).from(watchlist).where(eq(watchlist.carId, car.id)) : [];
    return [...new Set([...bidders, ...watching].map((r) => r.userId))].filter((id) => id !== seller?.userId);
  }

  private async resultMessages(tx: Transaction, car: typeof cars.$inferSelect, outcome: AuctionOutcome, winnerId: number | null): Promise<NewNotification[]> {
    const title = carTitle(car);
    const highest = car.highestBid === null ? '' : formatUsd(car.highestBid);
    const [seller] = await tx.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, car.sellerId));
    const others = (await this.audience(tx, car, { watchers: false })).filter((id) => id !== winnerId);
    const notes: NewNotification[] = [];
    // Only the winner's is one of the events delivered beyond the bell; the others' results stay in-app.
    const tell = (userId: number | null | undefined, heading: string, message: string, event: NotificationEvent = 'auction_won', delivery: NewNotification['delivery'] = false) => {
      if (userId) notes.push({ userId, type: 'bid', event, title: heading, message, carId: car.id, delivery });
    };
    if (outcome === 'sold') {
      tell(winnerId, 'You won the auction', `Your bid of ${highest} won the ${title}. Pay into escrow to complete the purchase.`, 'auction_won', { amount: car.highestBid });
      tell(seller?.userId, 'Your auction sold', `The ${title} sold for ${highest}. The buyer pays into escrow next.`);
      for (const id of others) tell(id, 'Auction ended', `The ${title} sold for ${highest}.`);
    } else if (outcome === 'reserve_not_met') {
      tell(seller?.userId, 'Reserve not met', `The auction for the ${title} ended at ${highest}, below your reserve. You can still accept the highest bid for one escrow day.`);
      for (const id of others) tell(id, 'Auction ended', `The auction for the ${title} ended at ${highest} without meeting the reserve.`);
    } else {
      tell(seller?.userId, 'Auction ended without bids', `The auction for the ${title} ended without bids.`);
    }
    return notes;
  }
}
