import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { bids, cars, chatMessages, sellers, users } from '../../../db/schema/index.ts';
import { minimumBid } from '../../../common/bid-rules.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import { carTitle, toChatMessage, type ChatMessage } from './chat.ts';
import type { NotificationsService } from './notifications.ts';
import type { Bid, PlacedBid } from '../../../common/api-types.ts';

export type { Bid, PlacedBid } from '../../../common/api-types.ts';

export interface CarSummary {
  id: number;
  make: string;
  model: string;
  year: number;
  price: number;
  primaryImage: string | null;
  currentBids: number;
  highestBid: number | null;
}

const HISTORY_LIMIT = 200;
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

/** Thrown inside the transaction when a concurrent request with the same key won; rolls it back. */
class DuplicateIdempotencyKey extends Error {}

export class BidsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Accepts a bid only if it meets the minimum at the moment it holds the car's row lock, so
   * concurrent bids are decided one after another by the database: accepted amounts strictly
   * increase in commit order and the car's counters always match its bids.
   */
  async place(bidder: { userId: number; name: string }, input: { carId: number; amount: number }, idempotencyKey?: string): Promise<PlacedBid> {
    if (idempotencyKey) {
      const earlier = await this.findByIdempotencyKey(bidder.userId, idempotencyKey);
      if (earlier) return earlier;
    }
    let outcome;
    try {
      outcome = await this.db.transaction(async (tx) => {
        const [car] = await tx
          .select({
            id: cars.id,
            make: cars.make,
            model: cars.model,
            year: cars.year,
            price: cars.price,
            status: cars.status,
            highestBid: cars.highestBid,
            currentBids: cars.currentBids,
            sellerUserId: sellers.userId,
          })
          .from(cars)
          .innerJoin(sellers, eq(sellers.id, cars.sellerId))
          .where(eq(cars.id, input.carId))
          .for('update', { of: cars });
        // A concurrent request with the same key may have committed while this one waited for the lock.
        if (idempotencyKey) {
          const [earlier] = await tx.select({ id: bids.id }).from(bids).where(and(eq(bids.userId, bidder.userId), eq(bids.idempotencyKey, idempotencyKey)));
          if (earlier) throw new DuplicateIdempotencyKey();
        }
        if (!car || car.status === 'draft') throw notFound('Car not found');
        if (car.status !== 'active') throw conflict('CAR_NOT_AVAILABLE', 'This car is no longer taking bids', { status: car.status });
        if (car.sellerUserId === bidder.userId) throw forbidden('CANNOT_BID_OWN_CAR', 'You cannot bid on your own car');
        const minimumAmount = minimumBid(car.price, car.highestBid);
        if (input.amount < minimumAmount) {
          throw conflict('BID_TOO_LOW', `Your bid must be at least ${usd(minimumAmount)}`, { minimumAmount, highestBid: car.highestBid });
        }

        const [previousLeader] =
          car.highestBid === null
            ? []
            : await tx.select({ userId: bids.userId }).from(bids).where(and(eq(bids.carId, car.id), eq(bids.amount, car.highestBid)));
        const [inserted] = await tx
          .insert(bids)
          .values({ carId: car.id, userId: bidder.userId, amount: input.amount, idempotencyKey: idempotencyKey ?? null })
          .onConflictDoNothing({ target: [bids.userId, bids.idempotencyKey] })
          .returning();
        if (!inserted) throw new DuplicateIdempotencyKey();
        const [updated] = await tx
          .update(cars)
          .set({ currentBids: sql`${cars.currentBids} + 1`, highestBid: input.amount, updatedAt: inserted.createdAt })
          .where(eq(cars.id, car.id))
          .returning({ currentBids: cars.currentBids, highestBid: cars.highestBid });
        const [announcement] = await tx
          .insert(chatMessages)
          .values({
            carId: car.id,
            userId: bidder.userId,
            userName: bidder.name,
            message: `Placed a bid of ${usd(input.amount)}`,
            type: 'bid',
            bidId: inserted.id,
            createdAt: inserted.createdAt,
          })
          .returning();
        const title = carTitle(car);
        const notified = await this.notifications.create(tx, [
          ...(car.sellerUserId !== null
            ? [{ userId: car.sellerUserId, type: 'bid' as const, title: 'New bid on your car', message: `${bidder.name} bid ${usd(input.amount)} on your ${title}.`, carId: car.id }]
            : []),
          ...(previousLeader && previousLeader.userId !== bidder.userId
            ? [{ userId: previousLeader.userId, type: 'bid' as const, title: "You've been outbid", message: `Someone bid ${usd(input.amount)} on the ${title}. Place a higher bid to lead again.`, carId: car.id }]
            : []),
        ]);
        const bid: Bid = { id: inserted.id, carId: car.id, userId: bidder.userId, userName: bidder.name, amount: inserted.amount, timestamp: inserted.createdAt.toISOString() };
        return { bid, counters: updated!, chat: toChatMessage(announcement!, car.sellerUserId), notified };
      });
    } catch (error) {
      if (error instanceof DuplicateIdempotencyKey && idempotencyKey) {
        const earlier = await this.findByIdempotencyKey(bidder.userId, idempotencyKey);
        if (earlier) return earlier;
      }
      throw error;
    }
    const { bid, counters, chat, notified } = outcome;
    this.events.publish('bid.placed', { carId: bid.carId, bid, currentBids: counters.currentBids, highestBid: counters.highestBid! });
    this.events.publish('chat.posted', { message: chat satisfies ChatMessage });
    await this.notifications.announce(notified);
    return { bid, car: { id: bid.carId, currentBids: counters.currentBids, highestBid: counters.highestBid! } };
  }

  /** The result the first request with this key got: the bid, and the car's counters as that bid left them. */
  private async findByIdempotencyKey(userId: number, key: string): Promise<PlacedBid | null> {
    const [row] = await this.db
      .select({ bid: bids, userName: users.name })
      .from(bids)
      .innerJoin(users, eq(users.id, bids.userId))
      .where(and(eq(bids.userId, userId), eq(bids.idempotencyKey, key)));
    if (!row) return null;
    const [position] = await this.db
      .select({ n: count() })
      .from(bids)
      .where(and(eq(bids.carId, row.bid.carId), lte(bids.id, row.bid.id)));
    return {
      bid: toBid(row.bid, row.userName),
      car: { id: row.bid.carId, currentBids: position?.n ?? 1, highestBid: row.bid.amount },
    };
  }

  async listForCar(carId: number): Promise<Bid[]> {
    const [car] = await this.db.select({ id: cars.id }).from(cars).where(eq(cars.id, carId));
    if (!car) throw notFound('Car not found');
    const rows = await this.db
      .select({ bid: bids, userName: users.name })
      .from(bids)
      .innerJoin(users, eq(users.id, bids.userId))
      .where(eq(bids.carId, carId))
      .orderBy(desc(bids.id))
      .limit(HISTORY_LIMIT);
    return rows.map((r) => toBid(r.bid, r.userName));
  }

  async listForUser(userId: number): Promise<(Bid & { car: CarSummary; status: 'leading' | 'outbid' })[]> {
    const rows = await this.db
      .select({
        bid: bids,
        userName: users.name,
        car: {
          id: cars.id,
          make: cars.make,
          model: cars.model,
          year: cars.year,
          price: cars.price,
          primaryImage: sql<string | null>`${cars.images}[1]`,
          currentBids: cars.currentBids,
          highestBid: cars.highestBid,
        },
      })
      .from(bids)
      .innerJoin(users, eq(users.id, bids.userId))
      .innerJoin(cars, eq(cars.id, bids.carId))
      .where(eq(bids.userId, userId))
      .orderBy(desc(bids.id))
      .limit(HISTORY_LIMIT);
    return rows.map((r) => ({
      ...toBid(r.bid, r.userName),
      car: r.car,
      status: r.car.highestBid === r.bid.amount ? 'leading' : 'outbid',
    }));
  }
}

function toBid(row: typeof bids.$inferSelect, userName: string): Bid {
  return { id: row.id, carId: row.carId, userId: row.userId, userName, amount: row.amount, timestamp: row.createdAt.toISOString() };
}

