import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { OFFER_ACTORS, OFFER_HISTORY_ACTIONS, OFFER_PARTIES, OFFER_STATUSES, type OfferActor, type OfferHistoryAction, type OfferParty, type OfferStatus } from '@common/offer-lifecycle.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { cars, sellers } from './catalogue.ts';
import { orders } from './commerce.ts';
import { quoted } from './sql-lists.ts';
import { users } from './users.ts';

/**
 * Private offers between one buyer and a car's seller (common/offer-lifecycle.ts). The row holds
 * the amount on the table and who put it there; `offer_events` holds every move. A trigger
 * (migration 0010) refuses status changes the lifecycle table does not allow.
 */
export const offers = pgTable(
  'offers',
  {
    id: identity(),
    carId: reference(() => cars.id, 'restrict'),
    buyerId: reference(() => users.id, 'restrict'),
    sellerId: reference(() => sellers.id, 'restrict'),
    /** The amount on the table, whole US dollars. */
    amount: integer().notNull(),
    /** Who put the amount on the table: the other party moves next. */
    amountBy: text().$type<OfferParty>().notNull(),
    status: text().$type<OfferStatus>().notNull().default('open'),
    /** When an open offer lapses: escrow days after its last move, on the database's clock. */
    expiresAt: timestamptz().notNull(),
    /** The escrow order an accepted offer became. */
    orderId: integer().references(() => orders.id, { onDelete: 'restrict' }),
    /** Sent by the seller to an auction's runner-up after the winner's order was cancelled. */
    secondChance: boolean().notNull().default(false),
    /** The buyer's note with the opening offer. */
    message: text(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    check('offers_amount_positive', sql`${t.amount} > 0`),
    check('offers_amount_by', sql`${t.amountBy} in (${quoted(OFFER_PARTIES)})`),
    check('offers_status', sql`${t.status} in (${quoted(OFFER_STATUSES)})`),
    check('offers_order_when_accepted', sql`(${t.status} = 'accepted') = (${t.orderId} is not null)`),
    // One open offer per buyer and car: a double-submitted form cannot open a second negotiation.
    uniqueIndex('offers_open_per_buyer_car').on(t.carId, t.buyerId).where(sql`${t.status} = 'open'`),
    // An order comes from at most one offer.
    uniqueIndex('offers_order_unique').on(t.orderId),
    index('offers_buyer_idx').on(t.buyerId, t.id.desc()),
    index('offers_seller_idx').on(t.sellerId, t.id.desc()),
    index('offers_open_car_idx').on(t.carId).where(sql`${t.status} = 'open'`),
    // The start-up sweep finds lapsed open offers without reading closed ones.
    index('offers_open_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'open'`),
  ],
);

/** Every move on an offer, oldest first: the thread both parties read. */
export const offerEvents = pgTable(
  'offer_events',
  {
    id: identity(),
    offerId: reference(() => offers.id, 'cascade'),
    actor: text().$type<OfferActor>().notNull(),
    action: text().$type<OfferHistoryAction>().notNull(),
    amount: integer().notNull(),
    actorUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestampNow(),
  },
  (t) => [
    index('offer_events_offer_idx').on(t.offerId, t.id),
    check('offer_events_actor', sql`${t.actor} in (${quoted(OFFER_ACTORS)})`),
    check('offer_events_action', sql`${t.action} in (${quoted(OFFER_HISTORY_ACTIONS)})`),
    check('offer_events_amount_positive', sql`${t.amount} > 0`),
    // An offer closes once: a move retried by a job or raced by a second process records nothing twice.
    uniqueIndex('offer_events_closed_once').on(t.offerId).where(sql`${t.action} in ('accept', 'decline', 'withdraw', 'expire')`),
  ],
);
