/**
 * Rules of saved searches, price history and sold results (contract §"Discovery and market
 * data"): read by the server, the database's checks and the screens.
 */

/** How a saved search tells its owner about new matches. */
export const SAVED_SEARCH_ALERTS = ['instant', 'daily', 'off'] as const;
export type SavedSearchAlerts = (typeof SAVED_SEARCH_ALERTS)[number];

/** Saved searches one account may keep. */
export const SAVED_SEARCH_LIMIT = 20;
export const SAVED_SEARCH_NAME_MAX = 80;

/** The hour (UTC) daily digests go out unless `DIGEST_HOUR_UTC` says otherwise. */
export const DEFAULT_DIGEST_HOUR_UTC = 8;

/** Why a car matched a saved search: it was listed, or its price dropped. */
export const MATCH_REASONS = ['listed', 'price-drop'] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

/** How a sold car's order came to be. */
export const SALE_ROUTES = ['buy_now', 'bid', 'auction', 'offer'] as const;
export type SaleRoute = (typeof SALE_ROUTES)[number];

export const SALE_ROUTE_LABELS: Record<SaleRoute, string> = {
  buy_now: 'Bought at the asking price',
  bid: 'Highest bid accepted',
  auction: 'Won at auction',
  offer: 'Offer accepted',
};
