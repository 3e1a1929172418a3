import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../../../db/client.ts';
import { bids, cars, chatMessages, sellers, sessions, users } from '../../../db/schema/index.ts';
import { SHARED_ADDRESS_WINDOW_DAYS } from '@common/back-office.ts';
import { carVisibleTo } from '@common/listing.ts';
import { minimumBid } from '@common/bid-rules.ts';
import { AUCTION_BID_LIMIT, endAfterBid } from '@common/auction-rules.ts';
import type { IdempotencyClaim, IdempotencyKeys } from './idempotency.ts';
import { conflict, forbidden, notFound } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import { carTitle, toChatMessage, type ChatMessage } from './chat.ts';
import type { NotificationsService } from './notifications.ts';
import type { Bid, PlacedBid, UserBid } from '@common/api-types.ts';

export type { Bid, PlacedBid } from '@common/api-types.ts';

export type { CarSummary } from '@common/api-types.ts';

const HISTORY_LIMIT = 200;
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

export interface BidsServiceOptions {
  /** Soft close: a bid this close to an auction's end moves the end this far past the bid. */
  auctionExtensionSeconds: number;
}

export class BidsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
    private readonly idempotency: IdempotencyKeys,
    private readonly options: BidsServiceOptions,
  ) {}

  /**
   * Accepts a bid only if it meets the minimum at the moment it holds the car's row lock, so
   * concurrent bids are decided one after another by the database: accepted amounts strictly
   * increase in commit order and the car's counters always match its bids. On an auction the
   * database's clock, read under that lock, decides whether the bid is in time, and a bid near
   * the end moves the end (soft close).
   */
  async place(bidder: { userId: number; name: string }, input: { carId: number; amount: number }, claim?: IdempotencyClaim): Promise<PlacedBid> {
    return this.idempotency.once(claim, async (key) => {
      // Viewers wait for this transaction before they see the bid, so it is kept to four round
      // trips between BEGIN and COMMIT: statements that do not depend on each other are sent
      // together (postgres.js pipelines them on the transaction's connection).
      const outcome = await this.db.transaction(async (tx) => {
        const [, [car]] = await Promise.all([
          key.take(tx),
          tx
            .select({
              id: cars.id,
              make: cars.make,
              model: cars.model,
              year: cars.year,
              price: cars.price,
              status: cars.status,
              highestBid: cars.highestBid,
              currentBids: cars.currentBids,
              auctionEndsAt: cars.auctionEndsAt,
              auctionClosedAt: cars.auctionClosedAt,
              auctionReservePrice: cars.auctionReservePrice,
              sellerUserId: sellers.userId,
            })
            .from(cars)
            .innerJoin(sellers, eq(sellers.id, cars.sellerId))
            .where(eq(cars.id, input.carId))
            .for('update', { of: cars }),
        ]);
        if (!car || !carVisibleTo(car.status, { isSeller: false, isStaff: false })) throw notFound('Car not found');
        // Read after the lock is held, in a statement of its own (a new snapshot, which sees
        // the bid of any transaction this one waited for): the moment this bid is decided, who
        // leads until now, and the id the new bid will take.
        const { decidedAt, previousLeaderId, bidId } = await afterLock(tx, car.id, car.highestBid);
        if (car.auctionEndsAt && (car.auctionClosedAt || car.status !== 'active' || car.auctionEndsAt.getTime() <= decidedAt.getTime())) {
          throw conflict('AUCTION_ENDED', 'This auction has ended', { endsAt: car.auctionEndsAt.toISOString(), decidedAt: decidedAt.toISOString() });
        }
        if (car.status !== 'active') throw conflict('CAR_NOT_AVAILABLE', 'This car is no longer taking bids', { status: car.status });
        if (car.sellerUserId === bidder.userId) throw forbidden('CANNOT_BID_OWN_CAR', 'You cannot bid on your own car');
        if (car.auctionEndsAt && input.amount > AUCTION_BID_LIMIT) {
          throw conflict('ABOVE_ESCROW_LIMIT', `Auction bids can be at most ${usd(AUCTION_BID_LIMIT)}, the most escrow covers`, { maximumAmount: AUCTION_BID_LIMIT });
        }
        const minimumAmount = minimumBid(car.price, car.highestBid, { auction: car.auctionEndsAt !== null });
        if (input.amount < minimumAmount) {
          throw conflict('BID_TOO_LOW', `Your bid must be at least ${usd(minimumAmount)}`, { minimumAmount, highestBid: car.highestBid });
        }

        const endsAt = car.auctionEndsAt ? endAfterBid(car.auctionEndsAt, decidedAt, this.options.auctionExtensionSeconds) : null;
        const extended = endsAt !== null && endsAt.getTime() !== car.auctionEndsAt!.getTime();
        const title = carTitle(car);
        const bid: Bid = { id: bidId, carId: car.id, userId: bidder.userId, userName: bidder.name, amount: input.amount, timestamp: decidedAt.toISOString() };
        const reserveMet = car.auctionEndsAt === null ? null : car.auctionReservePrice === null || input.amount >= car.auctionReservePrice;
        // The car's row is locked, so its counters after this bid are known here.
        const placed: PlacedBid = { bid, car: { id: car.id, currentBids: car.currentBids + 1, highestBid: input.amount, endsAt: endsAt?.toISOString() ?? null, reserveMet } };
        // The writes, sent together in this order (the announcement refers to the bid).
        const [, , [announcement], notified] = await Promise.all([
          tx
            .insert(bids)
            .overridingSystemValue()
            .values({ id: bidId, carId: car.id, userId: bidder.userId, amount: input.amount, createdAt: decidedAt, flagReason: sharedAddressFlag(bidder.userId, car.sellerUserId, decidedAt) }),
          tx
            .update(cars)
            .set({
              currentBids: sql`${cars.currentBids} + 1`,
              highestBid: input.amount,
              updatedAt: decidedAt,
              ...(extended ? { auctionEndsAt: endsAt, auctionExtensions: sql`${cars.auctionExtensions} + 1` } : {}),
            })
            .where(eq(cars.id, car.id)),
          tx
            .insert(chatMessages)
            .values({ carId: car.id, userId: bidder.userId, userName: bidder.name, message: `Placed a bid of ${usd(input.amount)}`, type: 'bid', bidId, createdAt: decidedAt })
            .returning(),
          this.notifications.create(tx, [
            ...(car.sellerUserId !== null
              ? [{ userId: car.sellerUserId, type: 'bid' as const, title: 'New bid on your car', message: `${bidder.name} bid ${usd(input.amount)} on your ${title}.`, carId: car.id }]
              : []),
            ...(previousLeaderId !== null && previousLeaderId !== bidder.userId
              ? [{ userId: previousLeaderId, type: 'bid' as const, title: "You've been outbid", message: `Someone bid ${usd(input.amount)} on the ${title}. Place a higher bid to lead again.`, carId: car.id }]
              : []),
          ]),
          key.record(tx, placed),
        ]);
        return { placed, chat: toChatMessage(announcement!, car.sellerUserId), notified };
      });
      const { placed, chat, notified } = outcome;
      const { currentBids, highestBid, endsAt, reserveMet } = placed.car;
      this.events.publish('bid.placed', { carId: placed.bid.carId, bid: placed.bid, currentBids, highestBid, endsAt, reserveMet });
      this.events.publish('chat.posted', { message: chat satisfies ChatMessage });
      await this.notifications.announce(notified);
      return placed;
    });
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

  async listForUser(userId: number): Promise<UserBid[]> {
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

/**
 * One statement after the car's lock: the database's clock, the user whose bid is the highest
 * so far (outbid by this one), and an id for the new bid, so the writes that follow need nothing
 * from each other and go out together.
 */
async function afterLock(tx: Executor, carId: number, highestBid: number | null): Promise<{ decidedAt: Date; previousLeaderId: number | null; bidId: number }> {
  const leader = highestBid === null ? sql`null::int` : sql`(select ${bids.userId} from ${bids} where ${bids.carId} = ${carId} and ${bids.amount} = ${highestBid} limit 1)`;
  const [row] = rowsOf(
    await tx.execute(sql`select clock_timestamp() as decided_at, ${leader} as leader_id, nextval(pg_get_serial_sequence('bids', 'id'))::int as bid_id`),
  );
  return { decidedAt: new Date(row!.decided_at as string | Date), previousLeaderId: row!.leader_id === null ? null : Number(row!.leader_id), bidId: Number(row!.bid_id) };
}

function toBid(row: typeof bids.$inferSelect, userName: string): Bid {
  return { id: row.id, carId: row.carId, userId: row.userId, userName, amount: row.amount, timestamp: row.createdAt.toISOString() };
}


/**
 * Why a bid looks like the seller bidding on their own car: its bidder signed in from a client
 * address the seller also signed in from, both within the window. Evaluated in the bid's insert
 * (no extra round trip); null when nothing matches. The bid is recorded either way.
 */
function sharedAddressFlag(bidderId: number, sellerUserId: number | null, at: Date): SQL | null {
  if (sellerUserId === null) return null;
  const since = new Date(at.getTime() - SHARED_ADDRESS_WINDOW_DAYS * 86_400_000);
  return sql`(
    select 'Signed in from the same address as the seller (' || b.ip_address || ') within ${sql.raw(String(SHARED_ADDRESS_WINDOW_DAYS))} days'
    from ${sessions} b
    join ${sessions} s on s.ip_address = b.ip_address
    where b.user_id = ${bidderId} and s.user_id = ${sellerUserId}
      and b.created_at > ${since.toISOString()}::timestamptz and s.created_at > ${since.toISOString()}::timestamptz
    limit 1)`;
}
