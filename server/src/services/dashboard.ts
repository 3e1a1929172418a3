import { and, count, countDistinct, desc, eq, gte, max, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { bids, cars, chatMessages, notifications, orders, watchlist } from '../../../db/schema/index.ts';
import { carTitle } from './chat.ts';
import type { ActivityItem, DashboardSummary } from '@common/schemas/users.ts';
import type { Discussion } from '@common/schemas/chat.ts';



export type { ActivityItem, DashboardSummary } from '@common/schemas/users.ts';
export type { Discussion } from '@common/schemas/chat.ts';

const ACTIVITY_WINDOW_MS = 30 * 86_400_000;
const RECENT_ITEMS = 20;
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

/** What the dashboard shows about the signed-in user, computed from their own records. */
export class DashboardService {
  constructor(private readonly db: Database) {}

  async summary(userId: number, now = new Date()): Promise<DashboardSummary> {
    const since = new Date(now.getTime() - ACTIVITY_WINDOW_MS);
    const carColumns = { carId: cars.id, year: cars.year, make: cars.make, model: cars.model };
    const [activeBids, watched, messages, recentBids, recentMessages, recentOrders, recentNotifications] = await Promise.all([
      this.db
        .select({ n: countDistinct(bids.carId) })
        .from(bids)
        .innerJoin(cars, eq(cars.id, bids.carId))
        .where(and(eq(bids.userId, userId), eq(cars.status, 'active'))),
      this.db.select({ n: count() }).from(watchlist).where(eq(watchlist.userId, userId)),
      this.db.select({ n: count() }).from(chatMessages).where(and(eq(chatMessages.userId, userId), ne(chatMessages.type, 'bid'))),
      this.db
        .select({ amount: bids.amount, at: bids.createdAt, ...carColumns })
        .from(bids)
        .innerJoin(cars, eq(cars.id, bids.carId))
        .where(and(eq(bids.userId, userId), gte(bids.createdAt, since)))
        .orderBy(desc(bids.id))
        .limit(RECENT_ITEMS),
      this.db
        .select({ message: chatMessages.message, at: chatMessages.createdAt, ...carColumns })
        .from(chatMessages)
        .innerJoin(cars, eq(cars.id, chatMessages.carId))
        .where(and(eq(chatMessages.userId, userId), ne(chatMessages.type, 'bid'), gte(chatMessages.createdAt, since)))
        .orderBy(desc(chatMessages.id))
        .limit(RECENT_ITEMS),
      this.db
        .select({ amount: orders.amount, status: orders.status, at: orders.createdAt, ...carColumns })
        .from(orders)
        .innerJoin(cars, eq(cars.id, orders.carId))
        .where(and(eq(orders.buyerId, userId), gte(orders.createdAt, since)))
        .orderBy(desc(orders.id))
        .limit(RECENT_ITEMS),
      this.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), gte(notifications.createdAt, since)))
        .orderBy(desc(notifications.id))
        .limit(RECENT_ITEMS),
    ]);
    const items: ActivityItem[] = [
      ...recentBids.map((b) => ({ type: 'bid' as const, title: 'You placed a bid', description: `${usd(b.amount)} on the ${carTitle(b)}`, carId: b.carId, timestamp: b.at.toISOString() })),
      ...recentMessages.map((m) => ({ type: 'message' as const, title: 'You joined a discussion', description: `On the ${carTitle(m)}: ${m.message.slice(0, 120)}`, carId: m.carId, timestamp: m.at.toISOString() })),
      ...recentOrders.map((o) => ({ type: 'order' as const, title: 'Escrow order', description: `${usd(o.amount)} for the ${carTitle(o)} (${o.status.replace(/_/g, ' ')})`, carId: o.carId, timestamp: o.at.toISOString() })),
      ...recentNotifications.map((n) => ({ type: 'notification' as const, title: n.title, description: n.message, carId: n.carId, timestamp: n.createdAt.toISOString() })),
    ].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
    return {
      stats: { activeBids: activeBids[0]?.n ?? 0, watchlist: watched[0]?.n ?? 0, messages: messages[0]?.n ?? 0, activity: items.length },
      recentActivity: items.slice(0, RECENT_ITEMS),
    };
  }

  /** The cars whose discussions the user has taken part in, most recent first. */
  async discussions(userId: number): Promise<Discussion[]> {
    const rows = await this.db
      .select({
        id: cars.id,
        year: cars.year,
        make: cars.make,
        model: cars.model,
        primaryImage: sql<string | null>`${cars.images}[1]`,
        messageCount: count(),
        lastMessageAt: max(chatMessages.createdAt),
      })
      .from(chatMessages)
      .innerJoin(cars, eq(cars.id, chatMessages.carId))
      .where(eq(chatMessages.userId, userId))
      .groupBy(cars.id)
      .orderBy(desc(max(chatMessages.createdAt)))
      .limit(50);
    return rows.map(({ messageCount, lastMessageAt, ...car }) => ({ car, messageCount, lastMessageAt: new Date(lastMessageAt!).toISOString() }));
  }
}
