import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database, type Executor } from '../../../db/client.ts';
import { bids, cars, chatMessages, sellers, sessions, users } from '../../../db/schema/index.ts';
import { SHARED_ADDRESS_WINDOW_DAYS } from '@common/back-office.ts';
import { carVisibleTo } from '@common/listing.ts';
import { minimumBid, resolveProxyBid, type ProxyMax } from '@common/bid-rules.ts';
import { AUCTION_BID_LIMIT, endAfterBid } from '@common/auction-rules.ts';
import type { IdempotencyClaim, IdempotencyKeys } from './idempotency.ts';
import { conflict, forbidden, notFound, validationFailed } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import { carTitle, toChatMessage, type ChatMessage } from './chat.ts';
import type { NotificationsService } from './notifications.ts';
import type { PlacedBid, RecordedBid, UserBid } from '@common/schemas/bids.ts';
import type { PlaceBid } from '@common/schemas/commerce.ts';
import { ErrorCode } from '@common/error-codes.ts';

export type { Bid, PlacedBid } from '@common/schemas/bids.ts';

export type { CarSummary } from '@common/schemas/cars.ts';

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
   * concurrent bids are decided one after another by the database: accepted amounts increase in
   * commit order and the car's counters always match its bids. On an auction the database's
   * clock, read under that lock, decides whether the bid is in time, and a bid near the end moves
   * the end (soft close).
   *
   * Proxy bids (contract "Proxy bids (v3)"): under the same lock the bid is resolved against the
   * leader's maximum (`resolveProxyBid`), which may record an automatic bid for the leader too.
   * Each recorded bid is an ordinary bid (its own chat line, shill-bid flag and soft close) and
   * is pushed in order after commit. Maxima stay in the bids table's private column: only the
   * bidder's own answers show them.
   */
  async place(bidder: { userId: number; name: string }, input: PlaceBid, claim?: IdempotencyClaim): Promise<PlacedBid> {
    const max = input.maxAmount ?? input.amount;
    if (max < input.amount) throw validationFailed([{ field: 'maxAmount', message: 'Your maximum must be at least your bid' }]);
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
            .for('no key update', { of: cars }),
        ]);
        if (!car || !carVisibleTo(car.status, { isSeller: false, isStaff: false })) throw notFound('Car not found');
        // Read after the lock is held, in a statement of its own (a new snapshot, which sees
        // the bids of any transaction this one waited for): the moment this bid is decided, who
        // leads until now with what maximum, and the ids the recorded bids will take.
        const { decidedAt, leader, ids } = await afterLock(tx, car.id, car.highestBid, bidder.userId, max);
        if (car.auctionEndsAt && (car.auctionClosedAt || car.status !== 'active' || car.auctionEndsAt.getTime() <= decidedAt.getTime())) {
          throw conflict(ErrorCode.AUCTION_ENDED, undefined, { endsAt: car.auctionEndsAt.toISOString(), decidedAt: decidedAt.toISOString() });
        }
        if (car.status !== 'active') throw conflict(ErrorCode.CAR_NOT_AVAILABLE, 'This car is no longer taking bids', { status: car.status });
        if (car.sellerUserId === bidder.userId) throw forbidden(ErrorCode.CANNOT_BID_OWN_CAR);
        if (car.auctionEndsAt && max > AUCTION_BID_LIMIT) {
          throw conflict(ErrorCode.ABOVE_ESCROW_LIMIT, `Auction bids and maximums can be at most ${usd(AUCTION_BID_LIMIT)}, the most escrow covers`, { maximumAmount: AUCTION_BID_LIMIT });
        }
        const minimumAmount = minimumBid(car.price, car.highestBid, { auction: car.auctionEndsAt !== null });
        // A maximum below the highest bid is refused the same way, though it cannot get past this
        // check: the maximum is at least the amount.
        if (input.amount < minimumAmount) {
          throw conflict(ErrorCode.BID_TOO_LOW, `Your bid must be at least ${usd(minimumAmount)}`, { minimumAmount, highestBid: car.highestBid });
        }

        const resolved = resolveProxyBid({ highestBid: car.highestBid, leader }, { userId: bidder.userId, amount: input.amount, max });
        const names = new Map([[bidder.userId, bidder.name], ...(leader ? [[leader.userId, leader.name] as const] : [])]);
        const maxOf = (userId: number) => (userId === bidder.userId ? resolved.bidderMax : leader!.max);
        const title = carTitle(car);
        let endsAt = car.auctionEndsAt;
        const recorded = resolved.steps.map((step, i) => {
          // Soft close applies to each recorded bid (all decided at the same moment).
          endsAt = endsAt ? endAfterBid(endsAt, decidedAt, this.options.auctionExtensionSeconds) : null;
          const bid: RecordedBid = { id: ids[i]!, carId: car.id, userId: step.userId, userName: names.get(step.userId)!, amount: step.amount, timestamp: decidedAt.toISOString(), auto: step.auto };
          const reserveMet = car.auctionEndsAt === null ? null : car.auctionReservePrice === null || step.amount >= car.auctionReservePrice;
          const state: PlacedBid['car'] = { id: car.id, currentBids: car.currentBids + i + 1, highestBid: step.amount, endsAt: endsAt?.toISOString() ?? null, reserveMet };
          return { bid, state };
        });
        const last = recorded[recorded.length - 1]!;
        const own = recorded.find((r) => r.bid.userId === bidder.userId && !r.bid.auto)!;
        const extended = endsAt !== null && endsAt.getTime() !== car.auctionEndsAt!.getTime();
        const placed: PlacedBid = { bid: own.bid, car: last.state, maxAmount: resolved.bidderMax, leading: resolved.leaderId === bidder.userId };
        // Told "outbid" only when a bidder loses the lead; automatic bids placed for a leader who
        // keeps it tell nobody. Messages name recorded amounts only, never a maximum.
        const previousLeaderId = leader?.userId ?? null;
        const lostLead = previousLeaderId !== null && previousLeaderId !== resolved.leaderId ? previousLeaderId : null;
        const leaderName = names.get(resolved.leaderId)!;
        const sellerMessage =
          resolved.leaderId === bidder.userId
            ? `${bidder.name} bid ${usd(last.bid.amount)} on your ${title}.`
            : `${bidder.name} bid ${usd(own.bid.amount)} on your ${title}; an automatic bid for ${leaderName} leads at ${usd(last.bid.amount)}.`;
        // The writes, sent together in this order (the announcements refer to the bids).
        const [, , announcements, notified] = await Promise.all([
          tx
            .insert(bids)
            .overridingSystemValue()
            .values(
              recorded.map(({ bid }) => ({
                id: bid.id,
                carId: car.id,
                userId: bid.userId,
                amount: bid.amount,
                auto: bid.auto,
                maxAmount: maxOf(bid.userId),
                createdAt: decidedAt,
                flagReason: sharedAddressFlag(bid.userId, car.sellerUserId, decidedAt),
              })),
            ),
          tx
            .update(cars)
            .set({
              currentBids: sql`${cars.currentBids} + ${recorded.length}`,
              highestBid: last.bid.amount,
              updatedAt: decidedAt,
              ...(extended ? { auctionEndsAt: endsAt, auctionExtensions: sql`${cars.auctionExtensions} + 1` } : {}),
            })
            .where(eq(cars.id, car.id)),
          tx
            .insert(chatMessages)
            .values(
              recorded.map(({ bid }) => ({
                carId: car.id,
                userId: bid.userId,
                userName: bid.userName,
                message: bid.auto ? `Placed an automatic bid of ${usd(bid.amount)}` : `Placed a bid of ${usd(bid.amount)}`,
                type: 'bid' as const,
                bidId: bid.id,
                createdAt: decidedAt,
              })),
            )
            .returning(),
          this.notifications.create(tx, [
            ...(car.sellerUserId !== null ? [{ userId: car.sellerUserId, type: 'bid' as const, event: 'bid_received' as const, title: 'New bid on your car', message: sellerMessage, carId: car.id, delivery: { amount: last.bid.amount } }] : []),
            ...(lostLead !== null
              ? [{ userId: lostLead, type: 'bid' as const, event: 'outbid' as const, delivery: { amount: last.bid.amount, auctionEndsAt: endsAt }, title: "You've been outbid", message: `Someone bid ${usd(last.bid.amount)} on the ${title}. Place a higher bid to lead again.`, carId: car.id }]
              : []),
          ]),
          key.record(tx, placed),
        ]);
        const byBid = new Map(announcements.map((row) => [row.bidId, toChatMessage(row, car.sellerUserId)]));
        return { placed, recorded, chats: recorded.map(({ bid }) => byBid.get(bid.id)!), notified };
      });
      const { placed, recorded, chats, notified } = outcome;
      recorded.forEach(({ bid, state }, i) => {
        const { currentBids, highestBid, endsAt, reserveMet } = state;
        this.events.publish('bid.placed', { carId: bid.carId, bid, currentBids, highestBid, endsAt, reserveMet });
        this.events.publish('chat.posted', { message: chats[i]! satisfies ChatMessage });
      });
      await this.notifications.announce(notified);
      return placed;
    });
  }

  async listForCar(carId: number): Promise<RecordedBid[]> {
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
        // The leading bid: the latest at the highest amount (two equal maxima record two bids at
        // one amount, and the later one leads).
        leadingBidId: sql<number | null>`(select l.id from ${bids} l where l.car_id = ${cars.id} and l.amount = ${cars.highestBid} order by l.id desc limit 1)`,
      })
      .from(bids)
      .innerJoin(users, eq(users.id, bids.userId))
      .innerJoin(cars, eq(cars.id, bids.carId))
      .where(eq(bids.userId, userId))
      .orderBy(desc(bids.id))
      .limit(HISTORY_LIMIT);
    const seen = new Set<number>();
    return rows.map((r) => {
      // The user's maximum, private to them, on their latest bid for each car.
      const latest = !seen.has(r.car.id);
      seen.add(r.car.id);
      return {
        ...toBid(r.bid, r.userName),
        car: r.car,
        status: r.leadingBidId !== null && Number(r.leadingBidId) === r.bid.id ? 'leading' : 'outbid',
        ...(latest ? { maxAmount: r.bid.maxAmount ?? r.bid.amount } : {}),
      };
    });
  }
}

/**
 * One statement after the car's lock: the database's clock, the leader until now (the bidder of
 * the latest bid at the highest amount) with their maximum and name, and ids for the bids this
 * one records: a second id only when the resolution will record an automatic bid for the leader
 * (see `resolveProxyBid`), so the writes that follow need nothing from each other and go out
 * together.
 */
async function afterLock(
  tx: Executor,
  carId: number,
  highestBid: number | null,
  bidderId: number,
  bidderMax: number,
): Promise<{ decidedAt: Date; leader: (ProxyMax & { name: string }) | null; ids: number[] }> {
  const nextId = sql`nextval(pg_get_serial_sequence('bids', 'id'))::int`;
  const [row] = rowsOf(
    await tx.execute(sql`
      with leader as (
        select b.user_id, coalesce(b.max_amount, b.amount) as max, u.name
        from ${bids} b join ${users} u on u.id = b.user_id
        where b.car_id = ${carId} and b.amount = ${highestBid ?? 0}::int
        order by b.id desc
        limit 1)
      select clock_timestamp() as decided_at, l.user_id as leader_id, l.max as leader_max, l.name as leader_name, ${nextId} as bid_id,
        case when l.user_id <> ${bidderId}::int and (l.max >= ${bidderMax}::int or l.max > ${highestBid ?? 0}::int) then ${nextId} end as auto_id
      from (select 1) as one left join leader l on true`),
  );
  const ids = [Number(row!.bid_id), ...(row!.auto_id === null ? [] : [Number(row!.auto_id)])].sort((a, b) => a - b);
  const leader = highestBid === null || row!.leader_id === null ? null : { userId: Number(row!.leader_id), max: Number(row!.leader_max), name: String(row!.leader_name) };
  return { decidedAt: new Date(row!.decided_at as string | Date), leader, ids };
}

function toBid(row: typeof bids.$inferSelect, userName: string): RecordedBid {
  return { id: row.id, carId: row.carId, userId: row.userId, userName, amount: row.amount, timestamp: row.createdAt.toISOString(), auto: row.auto };
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
