import { and, between, eq, gte, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { EventBus } from '../lib/events.ts';
import { cars, orders } from '../../../db/schema/index.ts';

/**
 * Market value from comparable cars: the same make and model, a model year within two of the
 * car's, listed now or sold here recently (see RECENT_SALE_MONTHS). Each comparable's price is adjusted to the car's own year and
 * mileage; the estimate is their median and the range their middle half. Below three
 * comparables there is no estimate: the listing then shows no price label rather than a guess.
 */

export const COMPARABLE_YEAR_SPAN = 2;
export const MIN_COMPARABLES = 3;
/** The closest comparables used, at most. */
export const MAX_COMPARABLES = 25;
/** Value change per model year of difference. */
export const YEAR_ADJUSTMENT = 0.05;
/** Value change per 1,000 miles of difference. */
export const MILEAGE_ADJUSTMENT_PER_1000 = 0.005;
/** No comparable is moved by more than this share of its price by the mileage adjustment. */
export const MAX_MILEAGE_ADJUSTMENT = 0.3;
/**
 * A sale counts as a comparable for this many months after its money was released. Collector
 * car prices follow the market, which moves by tens of percent in a couple of years: an older
 * sale says what the car was worth then, not now, and no year or mileage adjustment corrects
 * for that. Two years still keeps a few sales for rare models, which sell a handful of times a
 * year. The car page names the sales used, so a buyer can see how recent they are.
 */
export const RECENT_SALE_MONTHS = 24;

/** The oldest release date of a sale still used at `now` (RECENT_SALE_MONTHS before it, in UTC). */
export function recentSalesSince(now: Date): Date {
  const since = new Date(now.getTime());
  since.setUTCMonth(since.getUTCMonth() - RECENT_SALE_MONTHS);
  return since;
}

export interface Comparable {
  carId: number;
  year: number;
  mileage: number;
  /** The asking price of a listing, or what a sale closed at. */
  price: number;
  source: 'listing' | 'sale';
  /** A sale's date (its money released to the seller); null for a listing. */
  soldAt?: Date | null;
}

export interface AdjustedComparable extends Comparable {
  /** The price this comparable suggests for the car being valued. */
  adjustedPrice: number;
}

/** The estimate from enough comparables (what `GET /api/cars/:id/valuation` answers builds on it). */
export interface MarketEstimate {
  estimate: number;
  low: number;
  high: number;
  comparables: AdjustedComparable[];
}

const roundTo100 = (n: number) => Math.round(n / 100) * 100;

/** The price `comparable` suggests for a car of `subject`'s year and mileage. */
export function adjustPrice(subject: { year: number; mileage: number }, comparable: Comparable): number {
  const yearFactor = 1 + YEAR_ADJUSTMENT * (subject.year - comparable.year);
  const rawMileage = MILEAGE_ADJUSTMENT_PER_1000 * ((comparable.mileage - subject.mileage) / 1_000);
  const mileageFactor = 1 + Math.max(-MAX_MILEAGE_ADJUSTMENT, Math.min(MAX_MILEAGE_ADJUSTMENT, rawMileage));
  return Math.round(comparable.price * yearFactor * mileageFactor);
}

/** The value at `fraction` (0..1) of sorted `values`, interpolated between neighbours. */
function quantile(sorted: number[], fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/** The estimate for `subject` from `comparables` (closest first are kept), or null below three. */
export function estimateMarketValue(subject: { year: number; mileage: number }, comparables: Comparable[]): MarketEstimate | null {
  const closest = [...comparables]
    .sort((a, b) => Math.abs(a.year - subject.year) - Math.abs(b.year - subject.year) || Math.abs(a.mileage - subject.mileage) - Math.abs(b.mileage - subject.mileage) || a.carId - b.carId)
    .slice(0, MAX_COMPARABLES);
  if (closest.length < MIN_COMPARABLES) return null;
  const adjusted = closest.map((c) => ({ ...c, adjustedPrice: adjustPrice(subject, c) }));
  const prices = adjusted.map((c) => c.adjustedPrice).sort((a, b) => a - b);
  return {
    estimate: roundTo100(quantile(prices, 0.5)),
    low: roundTo100(quantile(prices, 0.25)),
    high: roundTo100(quantile(prices, 0.75)),
    comparables: adjusted,
  };
}

/**
 * Listings live now and sales completed here in the last RECENT_SALE_MONTHS (as of `now`), of
 * the same make and model within two model years.
 */
export async function findComparables(executor: Executor, car: { id: number; searchText: string; year: number }, now: Date = new Date()): Promise<Comparable[]> {
  const sameModel = and(
    eq(cars.searchText, car.searchText),
    between(cars.year, car.year - COMPARABLE_YEAR_SPAN, car.year + COMPARABLE_YEAR_SPAN),
    ne(cars.id, car.id),
  );
  const [listings, sales] = await Promise.all([
    executor
      .select({ carId: cars.id, year: cars.year, mileage: cars.mileage, price: cars.price })
      .from(cars)
      .where(and(sameModel, eq(cars.status, 'active'))),
    executor
      .select({ carId: cars.id, year: cars.year, mileage: cars.mileage, price: orders.amount, soldAt: orders.updatedAt })
      .from(orders)
      .innerJoin(cars, eq(cars.id, orders.carId))
      .where(and(sameModel, eq(orders.status, 'released'), gte(orders.updatedAt, recentSalesSince(now)))),
  ]);
  return [...listings.map((c) => ({ ...c, source: 'listing' as const, soldAt: null })), ...sales.map((c) => ({ ...c, source: 'sale' as const }))];
}

/** The car's valuation from the comparables there are now (null below three). */
export async function valueCar(executor: Executor, carId: number): Promise<{ car: typeof cars.$inferSelect; valuation: MarketEstimate | null } | null> {
  const [car] = await executor.select().from(cars).where(eq(cars.id, carId));
  if (!car) return null;
  return { car, valuation: estimateMarketValue(car, await findComparables(executor, car)) };
}

/**
 * Stores fresh estimates for every car whose comparables include a car of this model and year:
 * the same model within two years. A reference value (the sample catalogue's) stays until
 * there are enough comparables to estimate.
 */
export async function refreshMarketValues(executor: Executor, around: { searchText: string; year: number }): Promise<number> {
  const affected = await executor
    .select({ id: cars.id })
    .from(cars)
    .where(
      and(
        eq(cars.searchText, around.searchText),
        between(cars.year, around.year - COMPARABLE_YEAR_SPAN, around.year + COMPARABLE_YEAR_SPAN),
        sql`${cars.status} in ('draft', 'active', 'pending')`,
      ),
    );
  for (const { id } of affected) {
    const valued = await valueCar(executor, id);
    if (!valued) continue;
    const { car, valuation } = valued;
    const next = valuation
      ? { marketValue: valuation.estimate, marketValueBasis: 'comparables' as const }
      : car.marketValueBasis === 'reference'
        ? null
        : { marketValue: null, marketValueBasis: null };
    if (next && (next.marketValue !== car.marketValue || next.marketValueBasis !== car.marketValueBasis)) {
      await executor.update(cars).set(next).where(eq(cars.id, id));
    }
  }
  return affected.length;
}

declare module '../jobs/job-runner.ts' {
  interface JobPayloads {
    /** A car was listed, changed, withdrawn or sold: values of its model around its year move. */
    'valuation.refresh': { carId: number };
    /** Daily: sales that have just grown older than RECENT_SALE_MONTHS no longer count. */
    'valuation.age-out': { day: string };
  }
}

/** The hour (UTC) sales that aged out are dropped from stored values: a quiet hour, before the day's digests. */
const AGE_OUT_HOUR_UTC = 3;
/**
 * How far back each daily run looks for sales that left the window: more than a day, so a run
 * missed while no process ran (a few days down) is made up by the next.
 */
const AGE_OUT_LOOKBACK_DAYS = 7;

/**
 * Keeps stored market values current. A change that alters comparables queues a refresh in its
 * own transaction; the job recomputes every car of that model within two model years.
 */
export class MarketValues {
  constructor(
    private readonly db: Database,
    private readonly jobs: JobRunner,
    private readonly events: EventBus,
  ) {
    jobs.define({ name: 'valuation.refresh', handle: ({ carId }) => this.refreshAround(carId) });
    jobs.define({ name: 'valuation.age-out', policy: 'short', handle: () => this.ageOut().then(() => this.scheduleNextAgeOut()) });
  }

  /** At start: the next daily age-out is queued (once, whichever process asks: one waiting job per day). */
  async scheduleNextAgeOut(now = new Date()): Promise<void> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), AGE_OUT_HOUR_UTC);
    const next = new Date(today > now.getTime() ? today : today + 86_400_000);
    const day = next.toISOString().slice(0, 10);
    await this.jobs.enqueue(this.db, 'valuation.age-out', { day }, { startAfter: next, singletonKey: `age-out-${day}` });
  }

  /**
   * Stored values move only when something around them changes; a sale growing older than
   * RECENT_SALE_MONTHS changes nothing by itself. Once a day, the values around every sale that
   * left the window lately are worked out again. Answers the models and years refreshed.
   */
  async ageOut(now = new Date()): Promise<number> {
    const leftAt = recentSalesSince(now);
    const sold = await this.db
      .select({ carId: cars.id, searchText: cars.searchText, year: cars.year })
      .from(orders)
      .innerJoin(cars, eq(cars.id, orders.carId))
      .where(and(eq(orders.status, 'released'), between(orders.updatedAt, new Date(leftAt.getTime() - AGE_OUT_LOOKBACK_DAYS * 86_400_000), leftAt)));
    const aged = new Map(sold.map((car) => [`${car.year} ${car.searchText}`, car]));
    for (const car of aged.values()) {
      await this.db.transaction((tx) => refreshMarketValues(tx, car));
      this.events.publish('listing.changed', { carId: car.carId });
    }
    return aged.size;
  }

  /** In the transaction of the change: refresh the values around `carId` once it commits. */
  async refreshLater(tx: Executor, carId: number): Promise<void> {
    await this.jobs.enqueue(tx, 'valuation.refresh', { carId });
  }

  /** After that transaction committed: run the refresh now rather than at the next poll. */
  wake(): void {
    this.jobs.wake('valuation.refresh');
  }

  async refreshAround(carId: number): Promise<void> {
    const [car] = await this.db.select({ searchText: cars.searchText, year: cars.year }).from(cars).where(eq(cars.id, carId));
    if (!car) return;
    await this.db.transaction((tx) => refreshMarketValues(tx, car));
    this.events.publish('listing.changed', { carId });
  }
}
