import { ErrorCode } from '@common/error-codes.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.ts';
import { cars, sellers } from '../../../db/schema/index.ts';
import { carTransitionFor, hiddenCarTransitionFor, type CarAction, type CarActor, type CarPosition, type CarStatus } from '@common/car-lifecycle.ts';
import { conflict, notFound } from '../lib/errors.ts';

/** How a car's status reads in a sentence ("Listing #7 is sold and cannot be withdrawn"). */
const STATUS_WORDS: Record<CarStatus, string> = {
  draft: 'a draft',
  active: 'on the market',
  pending: 'pending sale',
  sold: 'sold',
  ended: 'an ended auction',
  withdrawn: 'withdrawn',
  hidden: 'hidden',
};

const ACTION_WORDS: Record<CarAction, string> = {
  publish: 'published',
  withdraw: 'withdrawn',
  'close-auction': 'closed',
  pay: 'paid for',
  sell: 'sold',
  relist: 'put back on the market',
  hide: 'hidden',
  restore: 'restored',
  suspend: "hidden with its seller's account",
  unsuspend: "restored with its seller's account",
};

/** The car as a move needs it: which one, and where it stands (as read under the car's lock). */
export interface CarAtMove extends CarPosition {
  id: number;
}

/** A car after a move: its status now, and `visible` false when only the status it returns to moved. */
export interface MovedCar extends CarAtMove {
  visible: boolean;
}

/** Columns a move sets with the status (when an auction closed and how). */
export type CarMoveSet = Omit<PgUpdateSetSource<typeof cars>, 'status' | 'hiddenFromStatus' | 'hiddenBy'>;

/** Reads where the car stands and locks it for the caller's transaction (null for an unknown car). */
export async function lockCarPosition(tx: Executor, carId: number): Promise<CarAtMove | null> {
  const [car] = await tx
    .select({ id: cars.id, status: cars.status, hiddenFromStatus: cars.hiddenFromStatus, hiddenBy: cars.hiddenBy })
    .from(cars)
    .where(eq(cars.id, carId))
    .for('no key update');
  return car ?? null;
}

/** Locks the car if `userId` sells it; anyone else is told it does not exist (404). */
export async function lockSellersCar(tx: Executor, userId: number, carId: number): Promise<typeof cars.$inferSelect> {
  const [row] = await tx
    .select({ car: cars, sellerUserId: sellers.userId })
    .from(cars)
    .innerJoin(sellers, eq(sellers.id, cars.sellerId))
    .where(eq(cars.id, carId))
    .for('no key update', { of: cars });
  if (!row || row.sellerUserId !== userId) throw notFound('Car not found');
  return row.car;
}

/**
 * The car lifecycle's one driver, like `OrderTransitions.move` for orders: the table in
 * common/car-lifecycle.ts decides whether `actor` may make `action` from where the car stands, and
 * a conditional update applies it, so a move that lost a race to another is a 409, never an
 * overwrite. Hiding records the status the car returns to; restoring returns to it. A move made
 * while hidden (a sale completing) moves that status and leaves the car hidden. The database
 * refuses any other change.
 */
export async function moveCar(tx: Executor, car: CarAtMove, action: CarAction, actor: CarActor, set: CarMoveSet = {}): Promise<MovedCar> {
  const visible = carTransitionFor(action, car);
  const transition = visible ?? hiddenCarTransitionFor(action, car);
  if (!transition) {
    throw conflict(ErrorCode.INVALID_TRANSITION, `Listing #${car.id} is ${STATUS_WORDS[car.status]} and cannot be ${ACTION_WORDS[action]}`, { status: car.status });
  }
  if (!transition.by.includes(actor)) {
    throw conflict(ErrorCode.INVALID_TRANSITION, `Listing #${car.id} cannot be ${ACTION_WORDS[action]} by the ${actor}`, { status: car.status });
  }
  const position: CarPosition = !visible
    ? { status: 'hidden', hiddenFromStatus: transition.to, hiddenBy: car.hiddenBy }
    : transition.to === 'hidden'
      ? { status: 'hidden', hiddenFromStatus: car.status, hiddenBy: transition.hiddenBy! }
      : { status: transition.to, hiddenFromStatus: null, hiddenBy: null };
  const [row] = await tx
    .update(cars)
    .set({ updatedAt: sql`now()`, ...set, ...position })
    .where(
      and(
        eq(cars.id, car.id),
        eq(cars.status, car.status),
        car.hiddenFromStatus === null ? isNull(cars.hiddenFromStatus) : eq(cars.hiddenFromStatus, car.hiddenFromStatus),
      ),
    )
    .returning({ id: cars.id, status: cars.status, hiddenFromStatus: cars.hiddenFromStatus, hiddenBy: cars.hiddenBy });
  if (!row) throw conflict(ErrorCode.INVALID_TRANSITION, `Listing #${car.id} changed meanwhile`, { status: car.status });
  return { ...row, visible: visible !== undefined };
}
