import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { cars, type chatMessages, sellers } from '../../../db/schema/index.ts';
import type { ChatMessage } from '@common/schemas/chat.ts';

export type { ChatMessage } from '@common/schemas/chat.ts';

type ChatRow = typeof chatMessages.$inferSelect;

/**
 * A message just written by the server (a bid's line): no replies, votes or tags beyond the
 * seller's yet. The discussion service reads the rest (services/discussion/read-model.ts).
 * `sellerUserId`: the account of the car's seller, whose messages carry the seller role.
 */
export function toChatMessage(row: ChatRow, sellerUserId: number | null): ChatMessage {
  return {
    id: row.id,
    carId: row.carId,
    userId: row.userId,
    userName: row.userName,
    message: row.message,
    timestamp: row.createdAt.toISOString(),
    type: row.type,
    role: row.userId !== null && row.userId === sellerUserId ? 'seller' : null,
    parentId: row.parentId,
    replyCount: 0,
    upvotes: row.upvotes,
    upvotedByMe: false,
    authorTags: [...(row.userId !== null && row.userId === sellerUserId ? (['seller'] as const) : []), ...(row.type === 'bid' ? (['bidder'] as const) : [])],
    status: row.status,
  };
}

/** A car's identity and its seller's account, for rules about who may do what to it. */
export async function findCarOwner(db: Executor, carId: number) {
  const [row] = await db
    .select({ id: cars.id, make: cars.make, model: cars.model, year: cars.year, status: cars.status, sellerUserId: sellers.userId })
    .from(cars)
    .innerJoin(sellers, eq(sellers.id, cars.sellerId))
    .where(eq(cars.id, carId));
  return row ?? null;
}

export const carTitle = (car: { year: number; make: string; model: string }) => `${car.year} ${car.make} ${car.model}`;
