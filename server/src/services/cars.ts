import { and, asc, count, desc, eq, gte, inArray, lt, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { cars, offers, orders, reviews, sellers, watchlist } from '../../../db/schema/index.ts';
import { secondChanceRunnerUp } from './offers/second-chance.ts';
import { dossierOf, readDossierParts, type DossierParts } from './dossier/dossier-records.ts';
import { normalizeSearchText } from '../../../db/search-text.ts';
import { notFound } from '../lib/errors.ts';
import { cachedLoad, loadingCache, type LoadingCache } from '../lib/loading-cache.ts';
import type { AuctionDetail, AuctionSummary, CarDetail, CarListItem, OwnListing, Pagination } from '@common/schemas/cars.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';
import { LUXURY_MIN_PRICE, carVisibleTo, type ListingSort } from '@common/listing.ts';
import type { ListingCriteria, ListingQuery as WireListingQuery } from '@common/schemas/listing.ts';

export type { CarDetail, CarListItem, Pagination, Review } from '@common/schemas/cars.ts';

/** `GET /api/cars`'s query with its defaults applied. */
export type ListingQuery = ListingCriteria & Required<Pick<WireListingQuery, 'filter' | 'sort' | 'page' | 'limit'>>;

/** Where live viewer numbers come from; the real-time layer provides them. */
export interface ViewerCounts {
  countFor(carId: number): number;
  /** Cars with at least one viewer, most viewed first. */
  ranking(): { carId: number; viewers: number }[];
}

export const noViewers: ViewerCounts = { countFor: () => 0, ranking: () => [] };

export interface SearchCriteria {
  /** Four-digit numbers: each must equal the car's year. */
  years: number[];
  /** Other words, normalised: each must appear in make or model, allowing small typos. */
  words: string[];
}

const MAX_SEARCH_WORDS = 6;

/** Splits free text into what each part of the query must match. */
export function parseSearch(search: string | undefined): SearchCriteria {
  const criteria: SearchCriteria = { years: [], words: [] };
  if (!search) return criteria;
  for (const token of normalizeSearchText(search).split(' ')) {
    if (!token) continue;
    if (/^\d{4}$/.test(token)) criteria.years.push(Number(token));
    else if (criteria.words.length < MAX_SEARCH_WORDS) criteria.words.push(token);
  }
  return criteria;
}

export function paginate(total: number, page: number, limit: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

/** Escapes LIKE wildcards so user text only ever matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function listingConditions(query: ListingQuery): SQL[] {
  const conditions: SQL[] = [eq(cars.status, 'active')];
  if (query.filter === 'luxury') conditions.push(gte(cars.price, LUXURY_MIN_PRICE));
  if (query.filter === 'sports') conditions.push(eq(cars.bodyStyle, 'sports'));
  if (query.filter === 'below-market') conditions.push(lt(cars.price, cars.marketValue));
  // Live auctions: listed and not past their end (the close job may not have run yet).
  if (query.filter === 'auctions') conditions.push(sql`${cars.auctionEndsAt} > now()`);
  conditions.push(...criteriaConditions(query));
  return conditions;
}

/** The conditions of a search's criteria on `cars` (make, model, body, ranges, free text). */
export function criteriaConditions(query: ListingCriteria): SQL[] {
  const conditions: SQL[] = [];
  // Make and model compare case-insensitively, through the expression index on lower(make), lower(model):
  // both sides lowered by the database, whose case rules differ from JavaScript's outside ASCII (final sigma).
  if (query.make !== undefined) conditions.push(sql`lower(${cars.make}) = lower(${query.make})`);
  if (query.model !== undefined) conditions.push(sql`lower(${cars.model}) = lower(${query.model})`);
  if (query.bodyStyle !== undefined) conditions.push(eq(cars.bodyStyle, query.bodyStyle));
  if (query.minYear !== undefined) conditions.push(gte(cars.year, query.minYear));
  if (query.maxYear !== undefined) conditions.push(lte(cars.year, query.maxYear));
  if (query.minPrice !== undefined) conditions.push(gte(cars.price, query.minPrice));
  if (query.maxPrice !== undefined) conditions.push(lte(cars.price, query.maxPrice));
  const { years, words } = parseSearch(query.search);
  for (const year of years) conditions.push(eq(cars.year, year));
  for (const word of words) {
    // Substring first; `<%` (trigram word similarity, index-backed) forgives a typo in longer words.
    const substring = sql`${cars.searchText} like ${`%${escapeLike(word)}%`}`;
    conditions.push(word.length >= 4 ? or(substring, sql`${word} <% ${cars.searchText}`)! : substring);
  }
  return conditions;
}

function listingOrder(sort: ListingSort): SQL[] {
  switch (sort) {
    case 'price-low':
      return [asc(cars.price), asc(cars.id)];
    case 'price-high':
      return [desc(cars.price), desc(cars.id)];
    case 'year-new':
      return [desc(cars.year), desc(cars.id)];
    case 'year-old':
      return [asc(cars.year), asc(cars.id)];
    case 'popular':
      return [desc(cars.currentBids), desc(cars.createdAt), desc(cars.id)];
    case 'ending-soon':
      // Auctions by their end, then fixed-price listings newest first.
      return [sql`${cars.auctionEndsAt} asc nulls last`, desc(cars.createdAt), asc(cars.id)];
  }
}

const listingColumns = {
  id: cars.id,
  year: cars.year,
  make: cars.make,
  model: cars.model,
  price: cars.price,
  marketValue: cars.marketValue,
  condition: cars.condition,
  location: cars.location,
  primaryImage: sql<string | null>`coalesce(${cars.cardImage}, ${cars.images}[1])`,
  sellerName: sellers.name,
  sellerVerified: sellers.verified,
  mileage: cars.mileage,
  currentBids: cars.currentBids,
  ...auctionColumns(),
};

/** What an auction's summary is made of, read with every listing row. */
function auctionColumns() {
  return {
    status: cars.status,
    highestBid: cars.highestBid,
    auctionEndsAt: cars.auctionEndsAt,
    auctionReservePrice: cars.auctionReservePrice,
    auctionExtensions: cars.auctionExtensions,
    auctionClosedAt: cars.auctionClosedAt,
    auctionOutcome: cars.auctionOutcome,
  };
}

type AuctionColumns = Pick<
  typeof cars.$inferSelect,
  'status' | 'highestBid' | 'auctionEndsAt' | 'auctionReservePrice' | 'auctionExtensions' | 'auctionClosedAt' | 'auctionOutcome'
>;

/** The auction as every visitor sees it; null for a fixed-price listing. */
export function auctionSummary(car: AuctionColumns): AuctionSummary | null {
  if (!car.auctionEndsAt) return null;
  return {
    endsAt: car.auctionEndsAt.toISOString(),
    reserveMet: car.auctionReservePrice === null || (car.highestBid !== null && car.highestBid >= car.auctionReservePrice),
    ended: car.auctionClosedAt !== null || car.status !== 'active',
    hasReserve: car.auctionReservePrice !== null,
    extensions: car.auctionExtensions,
  };
}

/**
 * The auction on the car page. A closed auction whose reserve was not met may still be sold to
 * its highest bidder for one escrow day (`acceptUntil`); only the seller sees the reserve.
 */
export function auctionDetail(car: AuctionColumns, options: { isSeller: boolean; escrowDaySeconds: number }): AuctionDetail | null {
  const summary = auctionSummary(car);
  if (!summary) return null;
  const acceptUntil =
    car.auctionOutcome === 'reserve_not_met' && car.auctionClosedAt ? new Date(car.auctionClosedAt.getTime() + options.escrowDaySeconds * 1000).toISOString() : null;
  return { ...summary, outcome: car.auctionOutcome, acceptUntil, ...(options.isSeller ? { reservePrice: car.auctionReservePrice } : {}) };
}

interface ListingRow extends AuctionColumns {
  id: number;
  year: number;
  make: string;
  model: string;
  price: number;
  marketValue: number | null;
  condition: string;
  location: string;
  primaryImage: string | null;
  sellerName: string;
  sellerVerified: boolean;
  mileage: number;
  currentBids: number;
}


export interface CarsServiceOptions {
  /** Length of an escrow day: a reserve-not-met auction may be sold for one. */
  escrowDaySeconds?: number;
  /**
   * How long a listing query's result (which cars, in which order, and the total) is reused.
   * Rows are always read fresh, so counters shown are current; only membership and order can
   * lag, and they change only when the catalogue does. 0 disables caching.
   */
  listingCacheMs?: number;
}

/** Distinct listing queries whose results are held at once (each filter, sort and page is one). */
const LISTING_CACHE_ENTRIES = 5_000;

export class CarsService {
  private readonly totals: LoadingCache<number> | null;
  private readonly escrowDaySeconds: number;
  private readonly pageIds: LoadingCache<number[]> | null;
  /** Popular order moves with every bid, so its pages are kept only briefly and dropped on each bid. */
  private readonly popularIds = loadingCache<number[]>(1_000, LISTING_CACHE_ENTRIES);
  // The hot reads are built once: building a drizzle query costs more than running it.
  private readonly rowsByIdsQuery;
  private readonly detailQuery;
  private readonly reviewsQuery;

  constructor(
    private readonly db: Database,
    private readonly viewers: ViewerCounts = noViewers,
    options: CarsServiceOptions = {},
  ) {
    this.totals = loadingCache(options.listingCacheMs ?? 0, LISTING_CACHE_ENTRIES);
    this.escrowDaySeconds = options.escrowDaySeconds ?? 86_400;
    this.pageIds = loadingCache(options.listingCacheMs ?? 0, LISTING_CACHE_ENTRIES);
    this.rowsByIdsQuery = db
      .select(listingColumns)
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(sql`${cars.id} = any(${sql.placeholder('ids')}::int[])`)
      .prepare('cars_by_ids');
    this.detailQuery = db
      .select({ car: cars, seller: detailSellerColumns })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, sql.placeholder('id')))
      .prepare('car_detail');
    this.reviewsQuery = db
      .select()
      .from(reviews)
      .where(eq(reviews.carId, sql.placeholder('carId')))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .prepare('car_reviews');
  }

  /** Forgets cached listing results, after the catalogue itself changed. */
  clearListingCache(): void {
    this.totals?.clear();
    this.pageIds?.clear();
    this.popularIds?.clear();
  }

  /** A bid changed some car's place in the popular order. */
  bidPlaced(): void {
    this.popularIds?.clear();
  }

  async list(query: ListingQuery): Promise<{ cars: CarListItem[]; pagination: Pagination }> {
    const conditions = listingConditions(query);
    const offset = (query.page - 1) * query.limit;
    const { search, make, model, bodyStyle, minYear, maxYear, minPrice, maxPrice } = query;
    const criteria = JSON.stringify([query.filter, parseSearch(search), make?.toLowerCase(), model?.toLowerCase(), bodyStyle, minYear, maxYear, minPrice, maxPrice]);
    const [rows, total] = await Promise.all([
      // Popular order moves with live viewers and bids: see popularPage.
      query.sort === 'popular'
        ? this.popularPage(conditions, criteria, offset, query.limit)
        : cachedLoad(this.pageIds, `${criteria}|${query.sort}|${offset}|${query.limit}`, async () =>
            (await this.page(conditions, listingOrder(query.sort), offset, query.limit)).map((row) => row.id),
          ).then((ids) => this.rowsByIds(ids)),
      cachedLoad(this.totals, criteria, async () => (await this.db.select({ total: count() }).from(cars).where(and(...conditions)))[0]?.total ?? 0),
    ]);
    return {
      cars: rows.map((row) => this.toListItem(row)),
      pagination: paginate(total, query.page, query.limit),
    };
  }

  /**
   * Most live viewers first, then most bids, then newest. Viewer numbers live in memory, so the
   * few cars being watched are ranked here and the rest come from the bids/newest index.
   */
  private async popularPage(conditions: SQL[], criteria: string, offset: number, limit: number): Promise<ListingRow[]> {
    const ranking = this.viewers.ranking();
    const byBids = listingOrder('popular');
    if (ranking.length === 0) {
      const ids = await cachedLoad(this.popularIds, `${criteria}|${offset}|${limit}`, async () => (await this.page(conditions, byBids, offset, limit)).map((row) => row.id));
      return this.rowsByIds(ids);
    }
    const watchedIds = ranking.map((r) => r.carId);
    const rank = new Map(ranking.map((r, i) => [r.carId, i]));
    const watched = (await this.page([...conditions, inArray(cars.id, watchedIds)], byBids, 0, watchedIds.length)).sort(
      (a, b) => rank.get(a.id)! - rank.get(b.id)!,
    );
    const fromWatched = watched.slice(offset, offset + limit);
    if (fromWatched.length === limit) return fromWatched;
    const rest = await this.page(
      [...conditions, notInArray(cars.id, watchedIds)],
      byBids,
      Math.max(0, offset - watched.length),
      limit - fromWatched.length,
    );
    return [...fromWatched, ...rest];
  }

  /**
   * The seller's own listings, every status, newest first: the listing shape plus what the
   * seller manages them by.
   */
  async listOwn(userId: number): Promise<OwnListing[]> {
    const rows = await this.db
      .select({
        ...listingColumns,
        watchers: sql<number>`(select count(*)::int from ${watchlist} where ${watchlist.carId} = ${cars.id})`,
        // The order holding the buyer's money if there is one, else the newest unpaid one.
        openOrderId: sql<number | null>`(select ${orders.id} from ${orders} where ${orders.carId} = ${cars.id} and ${orders.status} not in ('released', 'cancelled', 'refunded') order by (${orders.status} = 'awaiting_payment'), ${orders.id} desc limit 1)`,
      })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(sellers.userId, userId))
      .orderBy(desc(cars.createdAt), desc(cars.id));
    return Promise.all(rows.map(async (row) => {
      const auction = auctionDetail(row, { isSeller: true, escrowDaySeconds: this.escrowDaySeconds });
      return {
        ...this.toListItem(row),
        status: row.status,
        highestBid: row.highestBid,
        openOrderId: row.openOrderId,
        watchers: row.watchers,
        auctionOutcome: auction?.outcome ?? null,
        acceptUntil: auction?.acceptUntil ?? null,
        secondChance: await this.secondChanceFor(row),
      };
    }));
  }

  /** Only an auction sold to a winner who then did not pay can have one; the rest skip the queries. */
  private async secondChanceFor(row: ListingRow & { status: CarStatus }): Promise<OwnListing['secondChance']> {
    if (row.status !== 'ended' || row.auctionOutcome !== 'sold') return null;
    const runnerUp = await secondChanceRunnerUp(this.db, row);
    if ('code' in runnerUp) return null;
    const [open] = await this.db.select({ id: offers.id }).from(offers).where(and(eq(offers.carId, row.id), eq(offers.buyerId, runnerUp.userId), eq(offers.status, 'open')));
    return open ? null : { buyerName: runnerUp.name, amount: runnerUp.amount };
  }

  /** The given cars in the listing shape, in the order given; unknown ids are skipped. */
  async listByIds(ids: number[]): Promise<CarListItem[]> {
    return (await this.rowsByIds(ids)).map((row) => this.toListItem(row));
  }

  private async rowsByIds(ids: number[]): Promise<ListingRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.rowsByIdsQuery.execute({ ids });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  private toListItem(row: ListingRow): CarListItem {
    return {
      id: row.id,
      year: row.year,
      make: row.make,
      model: row.model,
      price: row.price,
      market_value: row.marketValue,
      condition: row.condition,
      location: row.location,
      primary_image: row.primaryImage,
      seller_name: row.sellerName,
      seller_verified: row.sellerVerified,
      mileage: row.mileage,
      current_bids: row.currentBids,
      highest_bid: row.highestBid,
      viewing_count: this.viewers.countFor(row.id),
      auction: auctionSummary(row),
    };
  }

  /**
   * One page in `order`. The page's ids are found first, from the listing indexes alone, and
   * only those rows are then read and joined: deep pages skip over index entries, not rows.
   */
  private page(conditions: SQL[], order: SQL[], offset: number, limit: number): Promise<ListingRow[]> {
    const pageIds = this.db.select({ id: cars.id }).from(cars).where(and(...conditions)).orderBy(...order).limit(limit).offset(offset);
    return this.db
      .select(listingColumns)
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(inArray(cars.id, pageIds))
      .orderBy(...order);
  }

  /** One car, if the viewer may see it (`carVisibleTo`); anyone else is told it does not exist. */
  async get(id: number, viewerUserId: number | null = null, viewerIsStaff = false): Promise<CarDetail> {
    const [[row], carReviews, dossierParts] = await Promise.all([this.detailQuery.execute({ id }), this.reviewsQuery.execute({ carId: id }), readDossierParts(this.db, id)]);
    const isSeller = viewerUserId !== null && row?.seller.userId === viewerUserId;
    if (!row || !carVisibleTo(row.car.status, { isSeller, isStaff: viewerIsStaff })) throw notFound('Car not found');
    return toCarDetail(row, carReviews, dossierParts, { viewingCount: this.viewers.countFor(row.car.id), viewerUserId, escrowDaySeconds: this.escrowDaySeconds });
  }
}

type DetailRow = { car: typeof cars.$inferSelect; seller: CarDetail['seller'] };

/** The same detail as `CarsService.get`, read in a transaction (for answers stored with a write). */
export async function readCarDetail(
  executor: Executor,
  id: number,
  options: { viewers?: ViewerCounts; viewerUserId?: number | null; escrowDaySeconds: number },
): Promise<CarDetail | null> {
  const [[row], carReviews, dossierParts] = await Promise.all([
    executor
      .select({ car: cars, seller: detailSellerColumns })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, id)),
    executor.select().from(reviews).where(eq(reviews.carId, id)).orderBy(desc(reviews.createdAt), desc(reviews.id)),
    readDossierParts(executor, id),
  ]);
  return row
    ? toCarDetail(row, carReviews, dossierParts, { viewingCount: (options.viewers ?? noViewers).countFor(id), viewerUserId: options.viewerUserId ?? null, escrowDaySeconds: options.escrowDaySeconds })
    : null;
}

const detailSellerColumns = { id: sellers.id, name: sellers.name, rating: sellers.rating, verified: sellers.verified, userId: sellers.userId };

function toCarDetail(
  { car, seller }: DetailRow,
  carReviews: (typeof reviews.$inferSelect)[],
  dossierParts: DossierParts,
  context: { viewingCount: number; viewerUserId: number | null; escrowDaySeconds: number },
): CarDetail {
  const viewingCount = context.viewingCount;
  return {
    id: car.id,
    status: car.status,
    auction: auctionDetail(car, { isSeller: seller.userId !== null && seller.userId === context.viewerUserId, escrowDaySeconds: context.escrowDaySeconds }),
    serverTime: new Date().toISOString(),
    make: car.make,
    model: car.model,
    year: car.year,
    price: car.price,
    marketValue: car.marketValue,
    marketValueBasis: car.marketValueBasis,
    mileage: car.mileage,
    condition: car.condition,
    images: car.images,
    photos: car.photos.map(({ width, height, card, gallery }) => ({ width, height, card, gallery })),
    description: car.description,
    seller,
    currentBids: car.currentBids,
    highestBid: car.highestBid,
    viewingCount,
    dossier: dossierOf(car, dossierParts),
    location: car.location,
    features: car.features,
    bodyStyle: car.bodyStyle,
    reviews: carReviews.map((r) => ({
      id: r.id,
      carId: r.carId,
      userId: r.userId,
      userName: r.userName,
      rating: r.rating,
      comment: r.comment,
      date: r.createdAt.toISOString(),
      verified: r.verified,
    })),
  };
}
