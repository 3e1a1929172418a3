import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../../db/client.ts';
import { cars, orders, priceHistory, sellers } from '../../../../db/schema/index.ts';
import { carVisibleTo } from '@common/listing.ts';
import type { Pagination } from '@common/schemas/cars.ts';
import type { PricePoint, SoldResult } from '@common/schemas/discovery.ts';
import { notFound } from '../../lib/errors.ts';
import { paginate } from '../cars.ts';

/** In the transaction that publishes a car or changes its price: the new point of its history. */
export async function recordPrice(tx: Executor, carId: number, price: number): Promise<void> {
  await tx.insert(priceHistory).values({ carId, price });
}

/** A car's price over time, and what cars sold for: the market's record. */
export class MarketData {
  constructor(private readonly db: Database) {}

  /** The car's price history, oldest first; a car the viewer may not see does not exist. */
  async priceHistory(carId: number, viewer: { userId: number | null; isStaff: boolean }): Promise<PricePoint[]> {
    const [car] = await this.db
      .select({ status: cars.status, sellerUserId: sellers.userId })
      .from(cars)
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(eq(cars.id, carId));
    if (!car || !carVisibleTo(car.status, { isSeller: viewer.userId !== null && car.sellerUserId === viewer.userId, isStaff: viewer.isStaff })) {
      throw notFound('Car not found');
    }
    const points = await this.db.select({ price: priceHistory.price, at: priceHistory.at }).from(priceHistory).where(eq(priceHistory.carId, carId)).orderBy(asc(priceHistory.id));
    return points.map((p) => ({ price: p.price, at: p.at.toISOString() }));
  }

  /** Released orders, newest first: what each car sold for and how. Public: no buyer identity. */
  async results(query: { carId?: number; make?: string; model?: string; page: number; limit: number }): Promise<{ results: SoldResult[]; pagination: Pagination }> {
    const conditions: SQL[] = [eq(orders.status, 'released')];
    if (query.carId !== undefined) conditions.push(eq(cars.id, query.carId));
    if (query.make !== undefined) conditions.push(sql`lower(${cars.make}) = lower(${query.make})`);
    if (query.model !== undefined) conditions.push(sql`lower(${cars.model}) = lower(${query.model})`);
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ carId: cars.id, year: cars.year, make: cars.make, model: cars.model, mileage: cars.mileage, soldPrice: orders.amount, soldAt: orders.updatedAt, via: orders.via })
        .from(orders)
        .innerJoin(cars, eq(cars.id, orders.carId))
        .where(where)
        .orderBy(desc(orders.updatedAt), desc(orders.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      this.db.select({ n: count() }).from(orders).innerJoin(cars, eq(cars.id, orders.carId)).where(where),
    ]);
    return { results: rows.map((r) => ({ ...r, soldAt: r.soldAt.toISOString() })), pagination: paginate(total?.n ?? 0, query.page, query.limit) };
  }
}
