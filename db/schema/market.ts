import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, unique, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { CHAT_HELD_BY, CHAT_MESSAGE_STATUSES, CHAT_REPORT_REASONS, type ChatHeldBy, type ChatMessageStatus, type ChatReportReason } from '@common/discussion.ts';
import { CHAT_MESSAGE_TYPES, NOTIFICATION_TYPES, type ChatMessageType, type NotificationType } from '@common/enums.ts';
import { NOTIFICATION_EVENTS, type NotificationEvent } from '@common/notifications.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { cars } from './catalogue.ts';
import { quoted } from './sql-lists.ts';
import { users } from './users.ts';

export const bids = pgTable(
  'bids',
  {
    id: identity(),
    carId: reference(() => cars.id, 'cascade'),
    userId: reference(() => users.id, 'cascade'),
    amount: integer().notNull(),
    createdAt: timestampNow(),
    /** Why the bid looks like shill bidding (set when placed; the bid is never blocked for it). */
    flagReason: text(),
    /** Placed by the system for the bidder's maximum (a proxy bid), not by the bidder's own hand. */
    auto: boolean().notNull().default(false),
    /**
     * The bidder's maximum for this car in force after this bid (private to the bidder). The
     * maximum only rises, so the bidder's current one is on their latest bid. Null on bids placed
     * before maxima existed, which count as a maximum equal to their amount.
     */
    maxAmount: integer(),
  },
  (t) => [
    index('bids_flagged_idx').on(t.id).where(sql`${t.flagReason} is not null`),
    check('bids_amount_range', sql`${t.amount} between 1 and 100000000`),
    check('bids_max_amount_range', sql`${t.maxAmount} is null or ${t.maxAmount} between ${t.amount} and 100000000`),
    // A car's bids increase in the order they are recorded (checked under the car's row lock).
    // Two may share an amount only when two equal maxima tie: the newcomer's own bid and the
    // earlier maximum's automatic bid. So never two manual, nor two automatic, bids at one amount.
    unique('bids_car_amount_auto').on(t.carId, t.amount, t.auto),
    index('bids_car_created_idx').on(t.carId, t.createdAt.desc()),
    index('bids_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: identity(),
    carId: reference(() => cars.id, 'cascade'),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    userName: text().notNull(),
    message: text().notNull(),
    type: text().$type<ChatMessageType>().notNull().default('message'),
    /** Set for the message that announces an accepted bid. */
    bidId: integer()
      .unique()
      .references(() => bids.id, { onDelete: 'cascade' }),
    createdAt: timestampNow(),
    /** The top-level message of the same car this replies to (one level: the service refuses deeper). */
    parentId: integer().references((): AnyPgColumn => chatMessages.id, { onDelete: 'cascade' }),
    status: text().$type<ChatMessageStatus>().notNull().default('visible'),
    /** What holds it: the contact guard at posting, or readers' reports. Kept after removal, for the record. */
    heldBy: text().$type<ChatHeldBy>(),
    /** Kept equal to the message's rows in chat_votes: changed by one conditional update per vote. */
    upvotes: integer().notNull().default(0),
  },
  (t) => [
    check('chat_messages_type', sql`${t.type} in (${quoted(CHAT_MESSAGE_TYPES)})`),
    check('chat_messages_status', sql`${t.status} in (${quoted(CHAT_MESSAGE_STATUSES)})`),
    check('chat_messages_held_by', sql`${t.heldBy} is null or ${t.heldBy} in (${quoted(CHAT_HELD_BY)})`),
    check('chat_messages_held_reason', sql`${t.status} <> 'held' or ${t.heldBy} is not null`),
    check('chat_messages_not_own_parent', sql`${t.parentId} is null or ${t.parentId} < ${t.id}`),
    check('chat_messages_bid_top_level', sql`${t.type} <> 'bid' or ${t.parentId} is null`),
    check('chat_messages_upvotes', sql`${t.upvotes} >= 0`),
    index('chat_messages_parent_idx').on(t.parentId).where(sql`${t.parentId} is not null`),
    index('chat_messages_user_car_idx').on(t.userId, t.carId, t.createdAt.desc()),
    index('chat_messages_queue_idx').on(t.id).where(sql`${t.status} = 'held'`),
    check('chat_messages_length', sql`char_length(${t.message}) between 1 and 1000`),
    check('chat_messages_bid_link', sql`(${t.type} = 'bid') = (${t.bidId} is not null)`),
    index('chat_messages_car_idx').on(t.carId, t.id),
    index('chat_messages_user_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/** One upvote per user per message. */
export const chatVotes = pgTable(
  'chat_votes',
  {
    messageId: reference(() => chatMessages.id, 'cascade'),
    userId: reference(() => users.id, 'cascade'),
    createdAt: timestampNow(),
  },
  (t) => [unique('chat_votes_user_message').on(t.messageId, t.userId), index('chat_votes_user_idx').on(t.userId)],
);

/** One report per reporter per message; enough distinct reporters hold the message. */
export const chatReports = pgTable(
  'chat_reports',
  {
    id: identity(),
    messageId: reference(() => chatMessages.id, 'cascade'),
    reporterId: reference(() => users.id, 'cascade'),
    reason: text().$type<ChatReportReason>().notNull(),
    note: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    unique('chat_reports_reporter_message').on(t.messageId, t.reporterId),
    check('chat_reports_reason', sql`${t.reason} in (${quoted(CHAT_REPORT_REASONS)})`),
    check('chat_reports_note_length', sql`${t.note} is null or char_length(${t.note}) <= 500`),
  ],
);

/** A user an operator silenced in discussions until `until` (one row per user, the latest mute). */
export const userMutes = pgTable(
  'user_mutes',
  {
    userId: reference(() => users.id, 'cascade').primaryKey(),
    until: timestamptz().notNull(),
    reason: text().notNull(),
    mutedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestampNow(),
  },
);

export const notifications = pgTable(
  'notifications',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    type: text().$type<NotificationType>().notNull(),
    event: text().$type<NotificationEvent>().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    carId: integer().references(() => cars.id, { onDelete: 'set null' }),
    read: boolean().notNull().default(false),
    createdAt: timestampNow(),
  },
  (t) => [
    check('notifications_type', sql`${t.type} in (${quoted(NOTIFICATION_TYPES)})`),
    check('notifications_event', sql`${t.event} in (${quoted(NOTIFICATION_EVENTS)})`),
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`not ${t.read}`),
  ],
);
