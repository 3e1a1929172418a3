import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { CHAT_MESSAGE_TYPES, NOTIFICATION_TYPES, type ChatMessageType, type NotificationType } from '@common/enums.ts';
import { identity, reference, timestampNow } from './columns.ts';
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
  },
  (t) => [
    check('chat_messages_type', sql`${t.type} in (${quoted(CHAT_MESSAGE_TYPES)})`),
    check('chat_messages_length', sql`char_length(${t.message}) between 1 and 1000`),
    check('chat_messages_bid_link', sql`(${t.type} = 'bid') = (${t.bidId} is not null)`),
    index('chat_messages_car_idx').on(t.carId, t.id),
    index('chat_messages_user_idx').on(t.userId, t.createdAt.desc()),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    type: text().$type<NotificationType>().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    carId: integer().references(() => cars.id, { onDelete: 'set null' }),
    read: boolean().notNull().default(false),
    createdAt: timestampNow(),
  },
  (t) => [
    check('notifications_type', sql`${t.type} in (${quoted(NOTIFICATION_TYPES)})`),
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`not ${t.read}`),
  ],
);
