import { desc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bids, cars, sellers, users } from '../../../../db/schema/index.ts';
import type { FlaggedBid } from '@common/schemas/admin.ts';
import type { CarAction, CarStatus } from '@common/car-lifecycle.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { recordAudit } from '../audit.ts';
import { moveCar } from '../car-transitions.ts';
import { carTitle } from '../chat.ts';
import type { NotificationsService } from '../notifications.ts';
import { auditActor, type Staff } from './staff.ts';
import { ErrorCode } from '@common/error-codes.ts';

const FLAGGED_LIMIT = 200;

/**
 * Listings in the console: hide a car (off the market, 404 to the public, its seller told why)
 * and restore it to the status it had; and the bids flagged when they were placed.
 */
export class ListingModeration {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
    private readonly clock: Clock,
  ) {}

  async hide(staff: Staff, carId: number, reason: string): Promise<{ id: number; status: CarStatus }> {
    return this.moderate(staff, carId, reason, (car) => {
      if (car.status === 'hidden') throw conflict(ErrorCode.ALREADY_HIDDEN);
      return {
        move: 'hide',
        action: 'car.hide',
        title: 'Your listing was hidden',
        message: `${carTitle(car)} was taken off the market by our team: ${reason}`,
      };
    });
  }

  async restore(staff: Staff, carId: number, reason: string): Promise<{ id: number; status: CarStatus }> {
    return this.moderate(staff, carId, reason, (car) => {
      if (car.status !== 'hidden' || !car.hiddenFromStatus) throw conflict(ErrorCode.NOT_HIDDEN);
      if (car.hiddenBy === 'suspension') throw conflict(ErrorCode.SELLER_SUSPENDED);
      return {
        move: 'restore',
        action: 'car.restore',
        title: 'Your listing is back',
        message: `${carTitle(car)} is visible again: ${reason}`,
      };
    });
  }

  /** Bids flagged as placed from the seller's own client address, newest first. */
  async flaggedBids(): Promise<FlaggedBid[]> {
    const rows = await this.db
      .select({ bid: bids, userName: users.name })
      .from(bids)
      .innerJoin(users, eq(users.id, bids.userId))
      .where(isNotNull(bids.flagReason))
      .orderBy(desc(bids.id))
      .limit(FLAGGED_LIMIT);
    return rows.map(({ bid, userName }) => ({
      id: bid.id,
      carId: bid.carId,
      userId: bid.userId,
      userName,
      amount: bid.amount,
      timestamp: bid.createdAt.toISOString(),
      reason: bid.flagReason!,
    }));
  }

  private async moderate(
    staff: Staff,
    carId: number,
    reason: string,
    decide: (car: typeof cars.$inferSelect) => {
      move: Extract<CarAction, 'hide' | 'restore'>;
      action: 'car.hide' | 'car.restore';
      title: string;
      message: string;
    },
  ): Promise<{ id: number; status: CarStatus }> {
    const { car, notified } = await this.db.transaction(async (tx) => {
      const [found] = await tx.select().from(cars).where(eq(cars.id, carId)).for('no key update');
      if (!found) throw notFound('Car not found');
      const move = decide(found);
      const now = this.clock.now();
      const car = await moveCar(tx, found, move.move, 'operator', { updatedAt: now });
      await recordAudit(
        tx,
        { actor: auditActor(staff), action: move.action, targetType: 'car', targetId: carId, reason, before: { status: found.status }, after: { status: car.status } },
        now,
      );
      const [seller] = await tx.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, found.sellerId));
      const notified = seller?.userId ? await this.notifications.create(tx, [{ userId: seller.userId, type: 'system', event: 'moderation', title: move.title, message: move.message, carId }]) : [];
      return { car, notified };
    });
    this.events.publish('car.status', { carId: car.id, status: car.status });
    this.events.publish('listing.changed', { carId: car.id });
    await this.notifications.announce(notified);
    return { id: car.id, status: car.status };
  }
}
