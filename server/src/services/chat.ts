import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { cars, chatMessages, sellers } from '../../../db/schema/index.ts';
import type { ChatMessage } from '@common/schemas/chat.ts';

export type { ChatMessage } from '@common/schemas/chat.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import type { NotificationsService } from './notifications.ts';
import { carVisibleTo } from '@common/listing.ts';
import type { PostChat } from '@common/schemas/commerce.ts';

type ChatRow = typeof chatMessages.$inferSelect;

/** `sellerUserId`: the account of the car's seller, whose messages carry the seller role. */
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

export class ChatService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifications: NotificationsService,
  ) {}

  async list(carId: number, options: { after?: number | undefined; limit: number }): Promise<ChatMessage[]> {
    const car = await findCarOwner(this.db, carId);
    if (!car || !carVisibleTo(car.status, { isSeller: false, isStaff: false })) throw notFound('Car not found');
    const asMessage = (row: ChatRow) => toChatMessage(row, car.sellerUserId);
    if (options.after !== undefined) {
      const rows = await this.db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.carId, carId), gt(chatMessages.id, options.after)))
        .orderBy(asc(chatMessages.id))
        .limit(options.limit);
      return rows.map(asMessage);
    }
    // Without a cursor: the latest messages, still oldest first.
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.carId, carId))
      .orderBy(desc(chatMessages.id))
      .limit(options.limit);
    return rows.reverse().map(asMessage);
  }

  async post(author: { userId: number; name: string }, input: Required<PostChat>): Promise<ChatMessage> {
    if (input.message.trim() === '') throw validationFailed([{ field: 'message', message: 'Message cannot be empty' }]);
    const car = await findCarOwner(this.db, input.carId);
    if (!car || !carVisibleTo(car.status, { isSeller: car.sellerUserId === author.userId, isStaff: false })) throw notFound('Car not found');
    const bySeller = car.sellerUserId === author.userId;
    const { message, notified } = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(chatMessages)
        .values({ carId: car.id, userId: author.userId, userName: author.name, message: input.message, type: input.type })
        .returning();
      const notified = await this.notifications.create(
        tx,
        bySeller
          ? (await unansweredAskers(tx, car.id, author.userId, row!.id)).map((userId) => ({
              userId,
              type: 'message' as const,
              title: 'The seller answered',
              message: `${author.name} on ${carTitle(car)}: ${preview(input.message)}`,
              carId: car.id,
            }))
          : car.sellerUserId !== null
            ? [
                {
                  userId: car.sellerUserId,
                  type: 'message' as const,
                  title: input.type === 'question' ? 'New question about your car' : 'New message about your car',
                  message: `${author.name} on ${carTitle(car)}: ${preview(input.message)}`,
                  carId: car.id,
                },
              ]
            : [],
      );
      return { message: toChatMessage(row!, car.sellerUserId), notified };
    });
    this.events.publish('chat.posted', { message });
    await this.notifications.announce(notified);
    return message;
  }
}

/** Who asked a question on the car since the seller last wrote there (before message `before`). */
async function unansweredAskers(tx: Executor, carId: number, sellerUserId: number, before: number): Promise<number[]> {
  const [lastAnswer] = await tx
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.carId, carId), eq(chatMessages.userId, sellerUserId), lt(chatMessages.id, before)))
    .orderBy(desc(chatMessages.id))
    .limit(1);
  const askers = await tx
    .selectDistinct({ userId: chatMessages.userId })
    .from(chatMessages)
    .where(and(eq(chatMessages.carId, carId), eq(chatMessages.type, 'question'), gt(chatMessages.id, lastAnswer?.id ?? 0), lt(chatMessages.id, before)));
  return askers.map((a) => a.userId).filter((id): id is number => id !== null && id !== sellerUserId);
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
