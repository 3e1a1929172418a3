import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../../db/client.ts';
import { cars, offerEvents, offers, sellers, users } from '../../../../db/schema/index.ts';
import type { Offer, OfferHistoryEntry } from '@common/schemas/offers.ts';

/** Everything an offer view and the offer rules need, read in one statement. */
const offerColumns = {
  offer: offers,
  car: {
    id: cars.id,
    year: cars.year,
    make: cars.make,
    model: cars.model,
    price: cars.price,
    status: cars.status,
    primaryImage: sql<string | null>`${cars.images}[1]`,
    auctionEndsAt: cars.auctionEndsAt,
    auctionReservePrice: cars.auctionReservePrice,
    auctionOutcome: cars.auctionOutcome,
  },
  buyer: { id: users.id, name: users.name },
  seller: { id: sellers.id, name: sellers.name, userId: sellers.userId },
  // Expiry is judged by the database's clock, never a process's.
  lapsed: sql<boolean>`(${offers.expiresAt} <= now())`,
};

export function selectOffers(executor: Executor, where: SQL) {
  return executor
    .select(offerColumns)
    .from(offers)
    .innerJoin(cars, eq(cars.id, offers.carId))
    .innerJoin(users, eq(users.id, offers.buyerId))
    .innerJoin(sellers, eq(sellers.id, offers.sellerId))
    .where(where);
}

export type OfferRecord = Awaited<ReturnType<typeof selectOffers>>[number];

/** Offers the user takes part in, as buyer or as the seller's account. */
const partyOf = (userId: number) => or(eq(offers.buyerId, userId), eq(sellers.userId, userId))!;

async function historyFor(executor: Executor, offerIds: number[]): Promise<Map<number, OfferHistoryEntry[]>> {
  const byOffer = new Map<number, OfferHistoryEntry[]>();
  if (offerIds.length === 0) return byOffer;
  const rows = await executor.select().from(offerEvents).where(inArray(offerEvents.offerId, offerIds)).orderBy(asc(offerEvents.id));
  for (const e of rows) {
    byOffer.set(e.offerId, [...(byOffer.get(e.offerId) ?? []), { by: e.actor, action: e.action, amount: e.amount, at: e.createdAt.toISOString() }]);
  }
  return byOffer;
}

function toOffer(record: OfferRecord, history: OfferHistoryEntry[]): Offer {
  const { offer, car, buyer, seller } = record;
  return {
    id: offer.id,
    carId: offer.carId,
    buyer: { id: buyer.id, name: buyer.name },
    sellerId: seller.id,
    amount: offer.amount,
    by: offer.amountBy,
    status: offer.status,
    expiresAt: offer.expiresAt.toISOString(),
    orderId: offer.orderId,
    history,
    secondChance: offer.secondChance,
    message: offer.message,
    sellerName: seller.name,
    car: { id: car.id, year: car.year, make: car.make, model: car.model, primaryImage: car.primaryImage, price: car.price, isAuction: car.auctionEndsAt !== null, status: car.status },
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
  };
}

/** One offer with its history, or null (also for anyone but its parties, with `visibleTo`). */
export async function readOffer(executor: Executor, offerId: number, visibleTo?: number): Promise<Offer | null> {
  const where = visibleTo === undefined ? eq(offers.id, offerId) : and(eq(offers.id, offerId), partyOf(visibleTo))!;
  const [record] = await selectOffers(executor, where);
  if (!record) return null;
  const history = await historyFor(executor, [offerId]);
  return toOffer(record, history.get(offerId) ?? []);
}

/** How many offers one list answer holds at most (the newest). */
const LIST_LIMIT = 200;

/** The user's offers as buyer and as seller, newest first. */
export async function listOffers(executor: Executor, userId: number): Promise<Offer[]> {
  const records = await selectOffers(executor, partyOf(userId)).orderBy(desc(offers.id)).limit(LIST_LIMIT);
  const history = await historyFor(
    executor,
    records.map((r) => r.offer.id),
  );
  return records.map((r) => toOffer(r, history.get(r.offer.id) ?? []));
}

/** One offer and both parties' accounts, for the push that follows a move. */
export async function readOfferForParties(executor: Executor, offerId: number): Promise<{ offer: Offer; userIds: number[] } | null> {
  const [record] = await selectOffers(executor, eq(offers.id, offerId));
  if (!record) return null;
  const history = await historyFor(executor, [offerId]);
  const userIds = [record.buyer.id, ...(record.seller.userId !== null ? [record.seller.userId] : [])];
  return { offer: toOffer(record, history.get(offerId) ?? []), userIds };
}
