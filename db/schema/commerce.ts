import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ESCROW_PLAN_IDS, type EscrowPlanId } from '@common/escrow-plans.ts';
import { TICKET_STATUSES, type TicketStatus } from '@common/back-office.ts';
import { PAYMENT_KINDS, PAYMENT_METHODS, SUPPORT_CATEGORIES, SUPPORT_PRIORITIES, type PaymentKind, type PaymentMethod } from '@common/enums.ts';
import { FUNDED_ORDER_STATUSES, ORDER_ACTORS, ORDER_STATUSES, type OrderActor, type OrderStatus } from '@common/order-lifecycle.ts';
import type { FrozenDossier } from '@common/schemas/dossier.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { cars, sellers } from './catalogue.ts';
import { quoted } from './sql-lists.ts';
import { SALE_ROUTES, type SaleRoute } from '@common/market-data.ts';
import { users } from './users.ts';


export const orders = pgTable(
  'orders',
  {
    id: identity(),
    carId: reference(() => cars.id, 'restrict'),
    buyerId: reference(() => users.id, 'restrict'),
    sellerId: reference(() => sellers.id, 'restrict'),
    amount: integer().notNull(),
    plan: text().$type<EscrowPlanId>().notNull(),
    escrowFee: integer().notNull(),
    status: text().$type<OrderStatus>().notNull().default('awaiting_payment'),
    /** How the sale came to be: the asking price, an accepted bid, an auction, an accepted offer. */
    via: text().$type<SaleRoute>().notNull().default('buy_now'),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
    /** When an unpaid order is cancelled; set from the database clock. */
    paymentDueAt: timestamptz().notNull(),
    /** The plan's inspection period, fixed when the order is placed. */
    inspectionDays: smallint().notNull(),
    /** Set on delivery: silence until then is acceptance. */
    inspectionEndsAt: timestamptz(),
    shipmentCarrier: text(),
    shipmentTrackingNumber: text(),
    shippedAt: timestamptz(),
    /** Reminders sent ("24 hours left"), so a job run twice reminds once. */
    paymentReminderSentAt: timestamptz(),
    inspectionReminderSentAt: timestamptz(),
    /**
     * The car's dossier as it stood when the order was created, and the SHA-256 of its canonical
     * JSON: what the buyer inspects against. Null for orders older than dossiers. Never changed
     * once written (a trigger refuses).
     */
    dossierSnapshot: jsonb().$type<FrozenDossier>(),
    snapshotHash: text(),
    /** The frozen items the buyer's dispute cites as not as described. */
    disputedItems: integer().array().notNull().default(sql`'{}'::integer[]`),
  },
  (t) => [
    check('orders_amount_positive', sql`${t.amount} > 0`),
    check('orders_fee_nonnegative', sql`${t.escrowFee} >= 0`),
    check('orders_plan', sql`${t.plan} in (${quoted(ESCROW_PLAN_IDS)})`),
    check('orders_status', sql`${t.status} in (${quoted(ORDER_STATUSES)})`),
    check('orders_via', sql`${t.via} in (${quoted(SALE_ROUTES)})`),
    check('orders_snapshot_complete', sql`(${t.dossierSnapshot} is null) = (${t.snapshotHash} is null) and (${t.snapshotHash} is null or ${t.snapshotHash} ~ '^[0-9a-f]{64}$')`),
    check('orders_inspection_days', sql`${t.inspectionDays} between 1 and 60`),
    check(
      'orders_shipment_complete',
      sql`(${t.shippedAt} is null) = (${t.shipmentCarrier} is null) and (${t.shippedAt} is null) = (${t.shipmentTrackingNumber} is null)`,
    ),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('orders_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('orders_car_idx').on(t.carId),
    // One open order per buyer and car: a double-submitted form cannot open a second escrow.
    uniqueIndex('orders_open_per_buyer_car')
      .on(t.carId, t.buyerId)
      .where(sql`${t.status} not in ('released', 'cancelled', 'refunded')`),
    // A car is sold at most once: only one of its orders can hold money (or have paid it out).
    uniqueIndex('orders_one_funded_per_car')
      .on(t.carId)
      .where(sql`${t.status} in (${quoted(FUNDED_ORDER_STATUSES)})`),
    // Sold results: released orders, newest first.
    index('orders_released_idx').on(t.updatedAt.desc(), t.id).where(sql`${t.status} = 'released'`),
    index('orders_payment_due_idx').on(t.paymentDueAt).where(sql`${t.status} = 'awaiting_payment'`),
  ],
);

/** Every status change of an order, for both parties' history and for disputes. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: identity(),
    orderId: reference(() => orders.id, 'cascade'),
    fromStatus: text().$type<OrderStatus>(),
    toStatus: text().$type<OrderStatus>().notNull(),
    actor: text().$type<OrderActor>().notNull(),
    actorUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    note: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    index('order_events_order_idx').on(t.orderId, t.id),
    check('order_events_actor', sql`${t.actor} in (${quoted(ORDER_ACTORS)})`),
    // An order enters each status at most once (the lifecycle has no loops), so a move applied
    // twice, by a retried job or a second process, cannot record a second event.
    uniqueIndex('order_events_once_per_status').on(t.orderId, t.toStatus),
  ],
);

/**
 * Every movement of an order's money: the buyer's charge into escrow, then either the payout to
 * the seller (with the escrow fee kept) or a refund to the buyer. A payout or refund row is
 * written in the same transaction as the status change that causes it, as `pending`, and
 * settled by the payment job once the provider has moved the money under the row's own
 * idempotency key; the constraints make a second charge, payout or refund impossible.
 */
export const payments = pgTable(
  'payments',
  {
    id: identity(),
    orderId: reference(() => orders.id, 'restrict'),
    kind: text().$type<PaymentKind>().notNull(),
    /** Whole US dollars. */
    amount: integer().notNull(),
    method: text().$type<PaymentMethod>(),
    provider: text().notNull(),
    /** The provider's reference, once the money has moved. */
    reference: text().unique(),
    status: text().$type<'pending' | 'settled'>().notNull(),
    createdAt: timestampNow(),
    settledAt: timestamptz(),
  },
  (t) => [
    check('payments_kind', sql`${t.kind} in (${quoted(PAYMENT_KINDS)})`),
    check('payments_amount_positive', sql`${t.amount} > 0`),
    check('payments_status', sql`${t.status} in ('pending', 'settled')`),
    check('payments_settled', sql`(${t.status} = 'settled') = (${t.settledAt} is not null) and (${t.status} = 'settled') = (${t.reference} is not null)`),
    check('payments_method', sql`(${t.kind} = 'charge') = (${t.method} is not null) and (${t.method} is null or ${t.method} in (${quoted(PAYMENT_METHODS)}))`),
    uniqueIndex('payments_once_per_kind').on(t.orderId, t.kind),
    // The money held for an order leaves once: to the seller or back to the buyer, never both.
    uniqueIndex('payments_one_disbursement').on(t.orderId).where(sql`${t.kind} in ('payout', 'refund')`),
  ],
);

/**
 * Results of writes sent with an `Idempotency-Key`, stored in the same transaction as the write,
 * so a retry gets the first answer and a different request under a used key is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: reference(() => users.id, 'cascade'),
    key: text().notNull(),
    /** Hash of the method, route and body the key was first used with. */
    fingerprint: text().notNull(),
    /** The `data` of the first answer; null only inside the transaction that claims the key. */
    body: jsonb(),
    createdAt: timestampNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check('idempotency_keys_key_length', sql`char_length(${t.key}) between 1 and 255`),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

export const testimonials = pgTable(
  'testimonials',
  {
    id: identity(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    customerName: text().notNull(),
    customerImage: text(),
    rating: smallint().notNull(),
    comment: text().notNull(),
    carPurchased: text(),
    location: text(),
    purchaseAmount: integer(),
    verified: boolean().notNull().default(false),
    createdAt: timestampNow(),
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
    userId: reference(() => users.id, 'cascade'),
    carId: reference(() => cars.id, 'cascade'),
    createdAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.carId] }), index('watchlist_car_idx').on(t.carId)],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: identity(),
    /** Human-friendly reference quoted to the customer, e.g. LM-7K3Q9P. */
    reference: text().notNull().unique(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    email: text().notNull(),
    subject: text().notNull(),
    category: text().notNull().default('general'),
    priority: text().notNull().default('normal'),
    message: text().notNull(),
    status: text().$type<TicketStatus>().notNull().default('open'),
    createdAt: timestampNow(),
  },
  (t) => [
    check('support_tickets_subject_length', sql`char_length(${t.subject}) between 1 and 150`),
    check('support_tickets_message_length', sql`char_length(${t.message}) between 1 and 5000`),
    check('support_tickets_category', sql`${t.category} in (${quoted(SUPPORT_CATEGORIES)})`),
    check('support_tickets_priority', sql`${t.priority} in (${quoted(SUPPORT_PRIORITIES)})`),
    check('support_tickets_status', sql`${t.status} in (${quoted(TICKET_STATUSES)})`),
    index('support_tickets_status_idx').on(t.status, t.createdAt),
  ],
);

/** An operator's answer to a ticket, emailed to the requester. */
export const supportTicketReplies = pgTable(
  'support_ticket_replies',
  {
    id: identity(),
    ticketId: reference(() => supportTickets.id, 'cascade'),
    authorUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    authorLabel: text().notNull(),
    message: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [
    check('support_ticket_replies_length', sql`char_length(${t.message}) between 1 and 5000`),
    index('support_ticket_replies_ticket_idx').on(t.ticketId, t.id),
  ],
);
