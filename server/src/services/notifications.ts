import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { notifications } from '../../../db/schema/index.ts';
import type { NotificationType } from '@common/enums.ts';
import type { NotificationEvent } from '@common/notifications.ts';
import type { Notification } from '@common/schemas/notifications.ts';
import { notFound } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';

export type { Notification } from '@common/schemas/notifications.ts';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  event: NotificationEvent;
  title: string;
  message: string;
  carId?: number | null;
  /**
   * What email and push need beyond the bell: the amount (a bid's, for a batch's "the highest"),
   * when the auction ends (such a notice may beat quiet hours), the page to open (default: the
   * car's), a channel served elsewhere (`email: false`: the order's or alert's own mail). `false`:
   * in-app only, whatever the preferences (news that is none of the delivered events' own).
   */
  delivery?: false | { amount?: number | null; auctionEndsAt?: Date | null; url?: string; email?: false };
}

type NotificationRow = typeof notifications.$inferSelect;

/** Email and push of notifications (services/notify/delivery.ts): notices written in the creating transaction, sent after. */
export interface NotificationDeliveryHook {
  record(tx: Executor, items: NewNotification[], notificationIds: number[]): Promise<void>;
  wake(): void;
}

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    event: row.event,
    title: row.title,
    message: row.message,
    timestamp: row.createdAt.toISOString(),
    read: row.read,
    carId: row.carId,
  };
}

const LIST_LIMIT = 50;

export class NotificationsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    /** Email and push of what is created here (none in tests that build the service alone). */
    private readonly delivery: NotificationDeliveryHook | null = null,
  ) {}

  /**
   * Stores notifications inside the caller's transaction. The caller hands the result to
   * `announce` once that transaction has committed.
   */
  async create(tx: Executor, items: NewNotification[]): Promise<NotificationRow[]> {
    if (items.length === 0) return [];
    const rows = await tx
      .insert(notifications)
      .values(items.map((n) => ({ userId: n.userId, type: n.type, event: n.event, title: n.title, message: n.message, carId: n.carId ?? null })))
      .returning();
    await this.delivery?.record(tx, items, rows.map((row) => row.id));
    return rows;
  }

  /** Pushes committed notifications to their owners, with each owner's fresh unread count. */
  async announce(rows: NotificationRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.delivery?.wake();
    // Every owner's count in one statement (an alert can tell hundreds at once), then published in order.
    const counts = await this.unreadCounts([...new Set(rows.map((row) => row.userId))]);
    for (const row of rows) {
      this.events.publish('notification.created', { userId: row.userId, notification: toNotification(row), unreadCount: counts.get(row.userId) ?? 0 });
    }
  }

  private async unreadCounts(userIds: number[]): Promise<Map<number, number>> {
    const rows = await this.db
      .select({ userId: notifications.userId, n: count() })
      .from(notifications)
      .where(and(inArray(notifications.userId, userIds), eq(notifications.read, false)))
      .groupBy(notifications.userId);
    return new Map(rows.map((row) => [row.userId, row.n]));
  }

  async list(userId: number): Promise<{ notifications: Notification[]; unreadCount: number }> {
    const [rows, unreadCount] = await Promise.all([
      this.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.id)).limit(LIST_LIMIT),
      this.unreadCount(userId),
    ]);
    return { notifications: rows.map(toNotification), unreadCount };
  }

  async markRead(userId: number, id: number): Promise<Notification> {
    const [row] = await this.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning();
    if (!row) throw notFound('Notification not found');
    this.events.publish('notifications.read', { userId, unreadCount: await this.unreadCount(userId) });
    return toNotification(row);
  }

  async markAllRead(userId: number): Promise<number> {
    const updated = await this.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
      .returning({ id: notifications.id });
    this.events.publish('notifications.read', { userId, unreadCount: await this.unreadCount(userId) });
    return updated.length;
  }

  async unreadCount(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
    return row?.n ?? 0;
  }
}
