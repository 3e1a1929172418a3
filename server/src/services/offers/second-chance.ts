import { and, asc, desc, eq, ne, notInArray } from 'drizzle-orm';
import type { Executor } from '../../../../db/client.ts';
import { bids, orders, users } from '../../../../db/schema/index.ts';
import { leadingBid } from '../leading-bid.ts';
import { ERROR_CODES, ErrorCode, type CodeWithStatus } from '@common/error-codes.ts';

/** Orders in these statuses no longer hold the car for anyone. */
const ORDER_STATUSES_THAT_END_A_SALE = ['cancelled', 'refunded'] as const;

/**
 * Whom a second-chance offer goes to now, or why none can be sent: the winner's order must have
 * been cancelled unpaid with no other sale under way, and a bidder other than the winner must exist.
 */
export async function secondChanceRunnerUp(
  executor: Executor,
  car: { id: number; status: string; auctionEndsAt: Date | null; auctionOutcome: string | null },
): Promise<{ userId: number; name: string; amount: number } | { code: CodeWithStatus<409>; message: string }> {
  const notYet = { code: ErrorCode.INVALID_TRANSITION, message: 'A second-chance offer follows an auction whose winner\'s order was cancelled unpaid' };
  if (car.auctionEndsAt === null || car.status !== 'ended' || car.auctionOutcome !== 'sold') return notYet;
  const winner = await leadingBid(executor, car.id);
  if (!winner) return notYet;
  const [winnersOrder] = await executor
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.carId, car.id), eq(orders.buyerId, winner.userId)))
    .orderBy(asc(orders.id))
    .limit(1);
  if (winnersOrder?.status !== 'cancelled') return notYet;
  // A second-chance offer already accepted, and its order still alive: the car is spoken for.
  const [underWay] = await executor
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.carId, car.id), notInArray(orders.status, [...ORDER_STATUSES_THAT_END_A_SALE])))
    .limit(1);
  if (underWay) return notYet;
  const [runnerUp] = await executor
    .select({ userId: bids.userId, name: users.name, amount: bids.amount })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.userId))
    .where(and(eq(bids.carId, car.id), ne(bids.userId, winner.userId)))
    .orderBy(desc(bids.amount), asc(bids.id))
    .limit(1);
  if (!runnerUp) return { code: ErrorCode.NO_RUNNER_UP, message: ERROR_CODES.NO_RUNNER_UP.message };
  return runnerUp;
}
