import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { cars, watchlist } from '../../../db/schema/index.ts';
import { notFound } from '../lib/errors.ts';
import type { CarListItem, CarsService } from './cars.ts';

export class WatchlistService {
  constructor(
    private readonly db: Database,
    private readonly carsService: CarsService,
  ) {}

  /** Adds the car; adding it again changes nothing. Returns whether it was newly added. */
  async add(userId: number, carId: number): Promise<{ carId: number; added: boolean }> {
    const [car] = await this.db.select({ id: cars.id }).from(cars).where(eq(cars.id, carId));
    if (!car) throw notFound('Car not found');
    const inserted = await this.db.insert(watchlist).values({ userId, carId }).onConflictDoNothing().returning({ carId: watchlist.carId });
    return { carId, added: inserted.length > 0 };
  }

  async remove(userId: number, carId: number): Promise<{ carId: number; removed: boolean }> {
    const deleted = await this.db
      .delete(watchlist)
      .where(and(eq(watchlist.userId, userId), eq(watchlist.carId, carId)))
      .returning({ carId: watchlist.carId });
    return { carId, removed: deleted.length > 0 };
  }

  /** Watched cars in the listing shape, most recently added first. */
  async list(userId: number): Promise<CarListItem[]> {
    const rows = await this.db.select({ carId: watchlist.carId }).from(watchlist).where(eq(watchlist.userId, userId)).orderBy(desc(watchlist.createdAt), desc(watchlist.carId));
    return this.carsService.listByIds(rows.map((r) => r.carId));
  }
}
