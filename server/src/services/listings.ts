import type { NotificationEvent } from '@common/notifications.ts';
import type { ListingEdit, NewListing } from '@common/schemas/listing.ts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Transaction } from '../../../db/client.ts';
import { cars, sellers, watchlist, type StoredPhoto } from '../../../db/schema/index.ts';
import { carSearchText } from '../../../db/search-text.ts';
import { PHOTO_LIMITS, latestModelYear, modelYearMessage } from '@common/listing.ts';
import { formatUsd } from '@common/pricing.ts';
import type { CarDetail, Gallery } from '@common/schemas/cars.ts';
import { carMayMove, type CarStatus } from '@common/car-lifecycle.ts';
import { conflict, notFound, validationFailed } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import { noViewers, readCarDetail, type ViewerCounts } from './cars.ts';
import { lockSellersCar, moveCar } from './car-transitions.ts';
import { carTitle } from './chat.ts';
import type { AuctionsService } from './auctions.ts';
import type { IdempotencyClaim, IdempotencyKeys } from './idempotency.ts';
import type { NotificationsService } from './notifications.ts';
import { OrderChanges } from './orders/announcements.ts';
import type { OrdersService } from './orders/orders-service.ts';
import type { PhotoProcessor } from './photos/photo-processing.ts';
import { newPhotoKey, type PhotoStorage } from './photos/photo-storage.ts';
import { estimateMarketValue, findComparables, type MarketValues } from './valuation.ts';
import { recordPrice } from './market/market-data.ts';
import type { SavedSearchesService } from './market/saved-searches.ts';
import { ErrorCode } from '@common/error-codes.ts';

declare module '../jobs/job-runner.ts' {
  interface JobPayloads {
    /** Removes stored photo files that no car refers to (a removed photo, or an upload that failed). */
    'photos.collect': { carId: number; keys: string[] };
  }
}

export type { ListingEdit, NewListing } from '@common/schemas/listing.ts';



export interface ListingsServiceDeps {
  db: Database;
  jobs: JobRunner;
  events: EventBus;
  notifications: NotificationsService;
  orders: OrdersService;
  auctions: AuctionsService;
  marketValues: MarketValues;
  /** Told of publications and price drops, to alert matching saved searches. */
  savedSearches: SavedSearchesService;
  storage: PhotoStorage;
  photos: PhotoProcessor;
  idempotency: IdempotencyKeys;
  viewers?: ViewerCounts;
  log: FastifyBaseLogger;
  escrowDaySeconds: number;
}

/** A stored photo that a failed upload left behind is removed this long after the attempt. */
const ORPHAN_PHOTO_GRACE_MS = 60 * 60 * 1000;

type CarRow = typeof cars.$inferSelect;
type NotificationRows = Awaited<ReturnType<NotificationsService['create']>>;

/**
 * The seller's side of the catalogue: listing a car, editing it, its photos, withdrawing it.
 * Only the car's seller may touch it (anyone else is told it does not exist), and nothing
 * changes once an escrow order holds the buyer's money.
 */
export class ListingsService {
  constructor(private readonly deps: ListingsServiceDeps) {
    deps.jobs.define({ name: 'photos.collect', handle: (payload) => this.collectPhotos(payload) });
  }

  private get db(): Database {
    return this.deps.db;
  }

  async create(seller: { userId: number; name: string }, input: NewListing, claim?: IdempotencyClaim): Promise<CarDetail> {
    assertModelYear(input.year);
    const listing = normalizedListing(input);
    const auction = input.auction ? this.deps.auctions.validate(input.auction) : null;
    return this.deps.idempotency.once(claim, async (key) => {
      const detail = await this.db.transaction(async (tx) => {
        await key.take(tx);
        const sellerId = await this.sellerProfileFor(tx, seller);
        const [car] = await tx
          .insert(cars)
          .values({
            sellerId,
            ...listing,
            searchText: carSearchText(listing),
            status: input.draft ? 'draft' : 'active',
            auctionEndsAt: auction?.endsAt ?? null,
            auctionReservePrice: auction?.reservePrice ?? null,
          })
          .returning();
        await this.estimate(tx, car!);
        await this.deps.marketValues.refreshLater(tx, car!.id);
        if (auction && !input.draft) await this.deps.auctions.schedule(tx, car!.id, auction.endsAt);
        if (!input.draft) await this.listed(tx, car!.id, car!.price);
        const detail = (await this.detailIn(tx, car!.id, seller.userId))!;
        await key.record(tx, detail);
        return detail;
      });
      this.changed(detail.id);
      return detail;
    });
  }

  /** A car went on the market: its first price point, and saved searches to match it against. */
  private async listed(tx: Executor, carId: number, price: number): Promise<void> {
    await recordPrice(tx, carId, price);
    await this.deps.savedSearches.matchLater(tx, carId, 'listed');
  }

  async publish(userId: number, carId: number): Promise<CarDetail> {
    await this.db.transaction(async (tx) => {
      const car = await lockSellersCar(tx, userId, carId);
      if (!carMayMove('publish', car, 'seller')) throw conflict(ErrorCode.NOT_A_DRAFT, 'This listing is already published', { status: car.status });
      if (car.auctionEndsAt) this.deps.auctions.assertStillOpen(car.auctionEndsAt);
      await moveCar(tx, car, 'publish', 'seller', { createdAt: sql`now()` });
      await this.deps.marketValues.refreshLater(tx, carId);
      await this.listed(tx, carId, car.price);
      if (car.auctionEndsAt) await this.deps.auctions.schedule(tx, carId, car.auctionEndsAt);
    });
    this.changed(carId);
    return this.detail(carId, userId);
  }

  async update(userId: number, carId: number, edit: ListingEdit, claim?: IdempotencyClaim): Promise<CarDetail> {
    if (Object.keys(edit).length === 0) throw validationFailed([{ field: 'body', message: 'Send at least one field to change' }]);
    return this.deps.idempotency.once(claim, async (key) => {
      const { detail, notified } = await this.db.transaction(async (tx) => {
        await key.take(tx);
        const car = await lockSellersCar(tx, userId, carId);
        assertEditable(car);
        const changes = normalizedEdit(edit);
        if (changes.price !== undefined && car.auctionEndsAt && car.currentBids > 0) {
          throw conflict(ErrorCode.AUCTION_HAS_BIDS, undefined, { currentBids: car.currentBids });
        }
        const [updated] = await tx
          .update(cars)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(eq(cars.id, carId))
          .returning();
        if (changes.mileage !== undefined) await this.estimate(tx, updated!);
        if (changes.price !== undefined || changes.mileage !== undefined) await this.deps.marketValues.refreshLater(tx, carId);
        if (changes.price !== undefined && changes.price !== car.price && car.status !== 'draft') {
          await recordPrice(tx, carId, changes.price);
          if (changes.price < car.price && car.status === 'active') await this.deps.savedSearches.matchLater(tx, carId, 'price-drop');
        }
        const notified =
          changes.price !== undefined && changes.price < car.price
            ? await this.tellWatchers(tx, car, 'price_drop', 'Price drop', `The ${carTitle(car)} is now ${formatUsd(changes.price)} (was ${formatUsd(car.price)}).`)
            : [];
        const detail = (await this.detailIn(tx, carId, userId))!;
        await key.record(tx, detail);
        return { detail, notified };
      });
      this.changed(carId);
      await this.deps.notifications.announce(notified);
      return detail;
    });
  }

  /** Takes the listing off the market; unpaid orders for it are cancelled. Withdrawing twice is fine. */
  async withdraw(userId: number, carId: number): Promise<CarDetail> {
    const orderChanges = new OrderChanges();
    const { notified, withdrawn } = await this.db.transaction(async (tx) => {
      const car = await lockSellersCar(tx, userId, carId);
      if (car.status === 'withdrawn') return { notified: [], withdrawn: false };
      if (car.status === 'pending' || car.status === 'sold') throw locked(car.status);
      await moveCar(tx, car, 'withdraw', 'seller');
      await this.deps.orders.closeOpenDeals(tx, orderChanges, carId, 'The seller withdrew the listing');
      await this.deps.marketValues.refreshLater(tx, carId);
      const notified = await this.tellWatchers(tx, car, 'price_drop', 'Listing withdrawn', `The seller withdrew the ${carTitle(car)} from sale.`);
      return { notified, withdrawn: true };
    });
    if (withdrawn) {
      this.deps.events.publish('car.status', { carId, status: 'withdrawn' });
      this.changed(carId);
    }
    await this.deps.orders.announce(orderChanges);
    await this.deps.notifications.announce(notified);
    return this.detail(carId, userId);
  }

  /**
   * Adds a photo at the end of the gallery. The file is decoded and stored in every size before
   * the car refers to it; a failure on the way removes what was stored, and a job removes it
   * later should this process die in between.
   */
  async addPhoto(userId: number, carId: number, file: Buffer): Promise<Gallery> {
    // Cheap refusals first, before any decoding.
    const [current] = await this.db
      .select({ car: cars, sellerUserId: sellers.userId })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, carId));
    if (!current || current.sellerUserId !== userId) throw notFound('Car not found');
    assertEditable(current.car);
    assertRoomForPhoto(current.car);

    const processed = await this.deps.photos.process(file);
    const base = newPhotoKey(carId);
    const files = (['card', 'gallery'] as const).flatMap((size) =>
      (['webp', 'jpeg'] as const).map((format) => ({ size, format, key: `${base}/${size}.${processed.files[size][format].extension}`, ...processed.files[size][format] })),
    );
    const keys = files.map((f) => f.key);
    await this.deps.jobs.enqueue(this.db, 'photos.collect', { carId, keys }, { startAfter: new Date(Date.now() + ORPHAN_PHOTO_GRACE_MS) });
    const url = (size: 'card' | 'gallery', format: 'webp' | 'jpeg') => this.deps.storage.url(files.find((f) => f.size === size && f.format === format)!.key);
    const photo: StoredPhoto = {
      keys,
      width: processed.width,
      height: processed.height,
      card: { webp: url('card', 'webp'), jpeg: url('card', 'jpeg') },
      gallery: { webp: url('gallery', 'webp'), jpeg: url('gallery', 'jpeg') },
    };
    try {
      // Every write settles before a failure is handled, so none lands after the clean-up.
      const stored = await Promise.allSettled(files.map((f) => this.deps.storage.put(f.key, f.body, f.contentType)));
      const failed = stored.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      await this.db.transaction(async (tx) => {
        const car = await lockSellersCar(tx, userId, carId);
        assertEditable(car);
        assertRoomForPhoto(car);
        await this.savePhotos(tx, carId, [...car.photos, photo]);
      });
      this.changed(carId);
      return this.gallery(carId);
    } catch (error) {
      await this.deps.storage.remove(keys).catch((removeError: unknown) => this.deps.log.warn({ err: removeError, keys }, 'could not remove the photo files of a failed upload'));
      throw error;
    }
  }

  /** Removes the photo at `index` (0 is the first) from the gallery. */
  async removePhoto(userId: number, carId: number, index: number): Promise<Gallery> {
    await this.db.transaction(async (tx) => {
      const car = await lockSellersCar(tx, userId, carId);
      assertEditable(car);
      if (car.photos.length === 0) {
        // The sample catalogue's illustrations have no stored files.
        if (index >= car.images.length) throw notFound('Photo not found');
        const images = car.images.filter((_, i) => i !== index);
        await tx.update(cars).set({ images, updatedAt: sql`now()` }).where(eq(cars.id, carId));
        return images;
      }
      const removed = car.photos[index];
      if (!removed) throw notFound('Photo not found');
      const images = await this.savePhotos(tx, carId, car.photos.filter((_, i) => i !== index));
      await this.deps.jobs.enqueue(tx, 'photos.collect', { carId, keys: removed.keys });
      return images;
    });
    this.deps.jobs.wake('photos.collect');
    this.changed(carId);
    return this.gallery(carId);
  }

  /** Puts the gallery in a new order: `order` lists every current index once, first photo first. */
  async reorderPhotos(userId: number, carId: number, order: number[]): Promise<Gallery> {
    await this.db.transaction(async (tx) => {
      const car = await lockSellersCar(tx, userId, carId);
      assertEditable(car);
      const count = car.photos.length > 0 ? car.photos.length : car.images.length;
      const isPermutation = order.length === count && new Set(order).size === count && order.every((i) => Number.isInteger(i) && i >= 0 && i < count);
      if (!isPermutation) throw validationFailed([{ field: 'order', message: `order must list each of the ${count} photo positions (0 to ${count - 1}) once` }]);
      if (car.photos.length === 0) {
        const images = order.map((i) => car.images[i]!);
        await tx.update(cars).set({ images, updatedAt: sql`now()` }).where(eq(cars.id, carId));
        return images;
      }
      return this.savePhotos(tx, carId, order.map((i) => car.photos[i]!));
    });
    this.changed(carId);
    return this.gallery(carId);
  }

  /** Job: removes the given files unless the car still shows them. */
  async collectPhotos({ carId, keys }: { carId: number; keys: string[] }): Promise<void> {
    const [car] = await this.db.select({ photos: cars.photos }).from(cars).where(eq(cars.id, carId));
    const inUse = new Set((car?.photos ?? []).flatMap((p) => p.keys));
    const unused = keys.filter((key) => !inUse.has(key));
    if (unused.length > 0) await this.deps.storage.remove(unused);
  }

  private async savePhotos(tx: Transaction, carId: number, photos: StoredPhoto[]): Promise<string[]> {
    const images = photos.map((p) => p.gallery.webp);
    await tx
      .update(cars)
      .set({ photos, images, cardImage: photos[0]?.card.webp ?? null, updatedAt: sql`now()` })
      .where(eq(cars.id, carId));
    return images;
  }

  /** The gallery as the photo endpoints answer it: the URLs, and every size of each photo. */
  async gallery(carId: number): Promise<Gallery> {
    const [car] = await this.db.select({ images: cars.images, photos: cars.photos }).from(cars).where(eq(cars.id, carId));
    return { images: car?.images ?? [], photos: (car?.photos ?? []).map(({ width, height, card, gallery }) => ({ width, height, card, gallery })) };
  }

  /** The user's seller profile, created with their name (unverified) on their first listing. */
  private async sellerProfileFor(tx: Transaction, user: { userId: number; name: string }): Promise<number> {
    const [created] = await tx.insert(sellers).values({ userId: user.userId, name: user.name, verified: false, rating: 0 }).onConflictDoNothing({ target: sellers.userId }).returning({ id: sellers.id });
    if (created) return created.id;
    const [existing] = await tx.select({ id: sellers.id }).from(sellers).where(eq(sellers.userId, user.userId));
    return existing!.id;
  }

  /** The car's own estimate, stored with it (its neighbours follow through the refresh job). */
  private async estimate(tx: Transaction, car: CarRow): Promise<void> {
    const valuation = estimateMarketValue(car, await findComparables(tx, car));
    if (valuation) await tx.update(cars).set({ marketValue: valuation.estimate, marketValueBasis: 'comparables' }).where(eq(cars.id, car.id));
    else if (car.marketValueBasis === 'comparables') await tx.update(cars).set({ marketValue: null, marketValueBasis: null }).where(eq(cars.id, car.id));
  }

  private async tellWatchers(tx: Transaction, car: CarRow, event: NotificationEvent, title: string, message: string): Promise<NotificationRows> {
    const [seller] = await tx.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, car.sellerId));
    const watchers = await tx
      .select({ userId: watchlist.userId })
      .from(watchlist)
      .where(seller?.userId ? and(eq(watchlist.carId, car.id), ne(watchlist.userId, seller.userId)) : eq(watchlist.carId, car.id));
    return this.deps.notifications.create(
      tx,
      watchers.map((w) => ({ userId: w.userId, type: 'system' as const, event, title, message, carId: car.id, ...(title === 'Price drop' ? {} : { delivery: false as const }) })),
    );
  }

  private changed(carId: number): void {
    this.deps.marketValues.wake();
    this.deps.events.publish('listing.changed', { carId });
  }

  private async detail(carId: number, viewerUserId: number): Promise<CarDetail> {
    return (await this.detailIn(this.db, carId, viewerUserId))!;
  }

  private detailIn(executor: Executor, carId: number, viewerUserId: number): Promise<CarDetail | null> {
    return readCarDetail(executor, carId, { viewers: this.deps.viewers ?? noViewers, viewerUserId, escrowDaySeconds: this.deps.escrowDaySeconds });
  }
}

function locked(status: CarStatus) {
  return conflict(
    ErrorCode.LISTING_LOCKED,
    status === 'withdrawn'
      ? 'This listing was withdrawn and can no longer be changed'
      : status === 'ended'
        ? 'This auction has ended and can no longer be changed'
        : 'An escrow order holds the payment for this car, so the listing can no longer be changed',
    { status },
  );
}

function assertEditable(car: CarRow): void {
  if (car.status === 'pending' || car.status === 'sold' || car.status === 'withdrawn' || car.status === 'ended') throw locked(car.status);
}

function assertRoomForPhoto(car: CarRow): void {
  if (car.photos.length >= PHOTO_LIMITS.maxPhotos) {
    throw conflict(ErrorCode.TOO_MANY_PHOTOS, `A listing can have at most ${PHOTO_LIMITS.maxPhotos} photos`, { limit: PHOTO_LIMITS.maxPhotos });
  }
}

/** Model years run up to next year's models. */
function assertModelYear(year: number): void {
  if (year > latestModelYear()) throw validationFailed([{ field: 'year', message: modelYearMessage() }]);
}

const trimmed = (text: string) => text.trim();

function normalizedListing(input: NewListing) {
  return {
    make: trimmed(input.make),
    model: trimmed(input.model),
    year: input.year,
    price: input.price,
    mileage: input.mileage,
    condition: input.condition,
    location: trimmed(input.location),
    description: trimmed(input.description),
    features: input.features.map(trimmed),
    bodyStyle: input.bodyStyle,
  };
}

function normalizedEdit(edit: ListingEdit): ListingEdit {
  return {
    ...(edit.price !== undefined ? { price: edit.price } : {}),
    ...(edit.mileage !== undefined ? { mileage: edit.mileage } : {}),
    ...(edit.condition !== undefined ? { condition: edit.condition } : {}),
    ...(edit.location !== undefined ? { location: trimmed(edit.location) } : {}),
    ...(edit.description !== undefined ? { description: trimmed(edit.description) } : {}),
    ...(edit.features !== undefined ? { features: edit.features.map(trimmed) } : {}),
  };
}
