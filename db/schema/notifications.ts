import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_EVENTS, type NotificationChannel, type NotificationEvent } from '@common/notifications.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { cars } from './catalogue.ts';
import { notifications } from './market.ts';
import { quoted } from './sql-lists.ts';
import { users } from './users.ts';

/**
 * Where each account wants each event (only the cells it changed from the defaults of
 * `common/notifications.ts`), and its quiet hours. The row is also what serializes one user's
 * deliveries (locked while a batch of that user's notices is sent).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: reference(() => users.id, 'cascade').primaryKey(),
    events: jsonb().$type<Partial<Record<NotificationEvent, Partial<Record<NotificationChannel, boolean>>>>>().notNull().default({}),
    quietStart: text(),
    quietEnd: text(),
    quietTimeZone: text(),
    updatedAt: timestampNow(),
  },
  (t) => [check('notification_preferences_quiet', sql`(${t.quietStart} is null) = (${t.quietEnd} is null) and (${t.quietStart} is null) = (${t.quietTimeZone} is null)`)],
);

/** A device that receives Web Push (a browser's PushSubscription). At most 10 per user (checked by the service under the user's lock). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    createdAt: timestampNow(),
    lastSuccessAt: timestamptz(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * What one notification still owes its owner by email and push: written with the notification,
 * gathered into a batch (coalescing, quiet hours) by the dispatch job, which stamps `batchId`
 * in the same transaction that queues the batch's mail and pushes: each notice goes out once.
 */
export const notificationNotices = pgTable(
  'notification_notices',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    event: text().$type<NotificationEvent>().notNull(),
    carId: integer().references(() => cars.id, { onDelete: 'set null' }),
    notificationId: integer().references(() => notifications.id, { onDelete: 'set null' }),
    email: text().$type<'yes' | 'no'>().notNull(),
    push: text().$type<'yes' | 'no'>().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    url: text().notNull(),
    /** The amount the notice is about (a bid), for a batch's "the highest $…". */
    amount: integer(),
    /** When the auction this is about ends (outbid, auction_ending): such a notice may beat quiet hours. */
    auctionEndsAt: timestamptz(),
    createdAt: timestampNow(),
    batchId: uuid(),
    sentAt: timestamptz(),
  },
  (t) => [
    check('notification_notices_event', sql`${t.event} in (${quoted(NOTIFICATION_EVENTS)})`),
    index('notification_notices_pending_idx')
      .on(t.userId, t.event)
      .where(sql`${t.batchId} is null`),
  ],
);

/** When a user last got a message by email or push for one event and car (0: no car): the coalescing window starts there. */
export const noticeWindows = pgTable(
  'notice_windows',
  {
    userId: reference(() => users.id, 'cascade'),
    event: text().$type<NotificationEvent>().notNull(),
    carKey: integer().notNull(),
    lastSentAt: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.event, t.carKey] })],
);

/** Pushes the push service has accepted, by delivery id: a push job run again does not push twice. */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    deliveryId: text().primaryKey(),
    deliveredAt: timestampNow(),
  },
  (t) => [index('push_deliveries_delivered_at_idx').on(t.deliveredAt)],
);

/** Each `auction_ending` milestone told to each user once: a soft-close extension or a rerun finds it here. */
export const auctionEndingNotices = pgTable(
  'auction_ending_notices',
  {
    carId: reference(() => cars.id, 'cascade'),
    secondsBefore: integer().notNull(),
    userId: reference(() => users.id, 'cascade'),
    createdAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.carId, t.secondsBefore, t.userId] })],
);

