import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ESCROW_PLAN_IDS, type EscrowPlanId } from '../../common/escrow-plans.ts';
import { cars, sellers } from './catalogue.ts';
import { users } from './users.ts';


/**
 * The escrow lifecycle. Only the first state is reachable today; the rest are reserved so the
 * lifecycle can grow without a table rewrite.
 */
export const ORDER_STATUSES = [
  'awaiting_payment',
  'funded',
  'in_transit',
  'inspection',
  'accepted',
  'disputed',
  'released',
  'cancelled',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const orders = pgTable(
  'orders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    carId: integer()
      .notNull()
      .references(() => cars.id, { onDelete: 'restrict' }),
    buyerId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    sellerId: integer()
      .notNull()
      .references(() => sellers.id, { onDelete: 'restrict' }),
    amount: integer().notNull(),
    plan: text().$type<EscrowPlanId>().notNull(),
    escrowFee: integer().notNull(),
    status: text().$type<OrderStatus>().notNull().default('awaiting_payment'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('orders_amount_positive', sql`${t.amount} > 0`),
    check('orders_fee_nonnegative', sql`${t.escrowFee} >= 0`),
    check('orders_plan', sql`${t.plan} in (${quoted(ESCROW_PLAN_IDS)})`),
    check('orders_status', sql`${t.status} in (${quoted(ORDER_STATUSES)})`),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('orders_car_idx').on(t.carId),
    // One open order per buyer and car: a double-submitted form cannot open a second escrow.
    uniqueIndex('orders_open_per_buyer_car')
      .on(t.carId, t.buyerId)
      .where(sql`${t.status} not in ('released', 'cancelled', 'refunded')`),
  ],
);

/** Every status change of an order, for both parties' history and for disputes. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text().$type<OrderStatus>(),
    toStatus: text().$type<OrderStatus>().notNull(),
    actorUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

export const testimonials = pgTable(
  'testimonials',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    customerName: text().notNull(),
    customerImage: text(),
    rating: smallint().notNull(),
    comment: text().notNull(),
    carPurchased: text(),
    location: text(),
    purchaseAmount: integer(),
    verified: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('testimonials_rating_range', sql`${t.rating} between 1 and 5`),
    check('testimonials_amount_positive', sql`${t.purchaseAmount} is null or ${t.purchaseAmount} > 0`),
    index('testimonials_created_idx').on(t.createdAt.desc()),
  ],
);

export const watchlist = pgTable(
  'watchlist',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    carId: integer()
      .notNull()
      .references(() => cars.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.carId] }), index('watchlist_car_idx').on(t.carId)],
);

export const SUPPORT_CATEGORIES = ['general', 'buying', 'selling', 'payments', 'technical', 'escrow'] as const;
export const SUPPORT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Human-friendly reference quoted to the customer, e.g. LM-7K3Q9P. */
    reference: text().notNull().unique(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    email: text().notNull(),
    subject: text().notNull(),
    category: text().notNull().default('general'),
    priority: text().notNull().default('normal'),
    message: text().notNull(),
    status: text().notNull().default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('support_tickets_subject_length', sql`char_length(${t.subject}) between 1 and 150`),
    check('support_tickets_message_length', sql`char_length(${t.message}) between 1 and 5000`),
    check('support_tickets_category', sql`${t.category} in (${quoted(SUPPORT_CATEGORIES)})`),
    check('support_tickets_priority', sql`${t.priority} in (${quoted(SUPPORT_PRIORITIES)})`),
    check('support_tickets_status', sql`${t.status} in ('open', 'answered', 'closed')`),
  ],
);
