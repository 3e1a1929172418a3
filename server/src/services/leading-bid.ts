import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { bids, users } from '../../../db/schema/index.ts';

/**
 * The bid that leads on a car: its last recorded one. Recorded amounts never fall, and when two
 * maxima tie the earlier max's automatic bid is recorded last at the same amount and leads, so
 * "a bid at the highest amount" is not enough to name the leader.
 */
export async function leadingBid(tx: Executor, carId: number): Promise<{ id: number; userId: number; name: string; amount: number } | null> {
  const [row] = await tx
    .select({ id: bids.id, userId: bids.userId, name: users.name, amount: bids.amount })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.userId))
    .where(eq(bids.carId, carId))
    .orderBy(desc(bids.id))
    .limit(1);
  return row ?? null;
}
