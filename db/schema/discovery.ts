import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { MATCH_REASONS, SAVED_SEARCH_ALERTS, type MatchReason, type SavedSearchAlerts } from '@common/market-data.ts';
import type { SavedSearchQuery } from '@common/schemas/discovery.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { cars } from './catalogue.ts';
import { quoted } from './sql-lists.ts';
import { users } from './users.ts';

/**
 * A buyer's saved search. `query` is what they saved (as the listing takes it); the columns after
 * it are the same criteria prepared for matching a car in SQL (lower-cased make and model, the
 * free text split as the listing splits it), so one statement matches a car against all of them.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    name: text().notNull(),
    query: jsonb().$type<SavedSearchQuery>().notNull(),
    alerts: text().$type<SavedSearchAlerts>().notNull(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
    lastAlertAt: timestamptz(),
    make: text(),
    model: text(),
    bodyStyle: text(),
    minYear: smallint(),
    maxYear: smallint(),
    minPrice: integer(),
    maxPrice: integer(),
    auctionsOnly: boolean().notNull().default(false),
    searchYears: integer().array().notNull().default(sql`'{}'`),
    searchWords: text().array().notNull().default(sql`'{}'`),
  },
  (t) => [
    check('saved_searches_alerts', sql`${t.alerts} in (${quoted(SAVED_SEARCH_ALERTS)})`),
    check('saved_searches_name_length', sql`char_length(${t.name}) between 1 and 80`),
    index('saved_searches_user_idx').on(t.userId, t.id),
    // Matching reads only searches that alert.
    index('saved_searches_alerting_idx').on(t.make, t.id).where(sql`${t.alerts} <> 'off'`),
  ],
);

/**
 * Each car a saved search has matched, at the price it matched at: a car is alerted once per
 * search, again only when its price drops below that. Instant alerts are sent in the matching
 * transaction (`alertedAt`); daily ones wait for the digest (`alertedAt` null until then).
 */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    id: identity(),
    searchId: reference(() => savedSearches.id, 'cascade'),
    carId: reference(() => cars.id, 'cascade'),
    price: integer().notNull(),
    reason: text().$type<MatchReason>().notNull(),
    matchedAt: timestampNow(),
    alertedAt: timestamptz(),
  },
  (t) => [
    check('saved_search_matches_reason', sql`${t.reason} in (${quoted(MATCH_REASONS)})`),
    uniqueIndex('saved_search_matches_once').on(t.searchId, t.carId),
    index('saved_search_matches_digest_idx').on(t.searchId).where(sql`${t.alertedAt} is null`),
  ],
);

/** A car's asking price over time: the price at publication, then one point per change. */
export const priceHistory = pgTable(
  'price_history',
  {
    id: identity(),
    carId: reference(() => cars.id, 'cascade'),
    price: integer().notNull(),
    at: timestampNow(),
  },
  (t) => [check('price_history_price_positive', sql`${t.price} > 0`), index('price_history_car_idx').on(t.carId, t.id)],
);
