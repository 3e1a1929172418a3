import { Type, type Static } from 'typebox';
import { SALE_ROUTES, SAVED_SEARCH_ALERTS, SAVED_SEARCH_NAME_MAX } from '../market-data.ts';
import { LISTING_LIMITS, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../listing.ts';
import { QueryInteger, optionalCriteria } from './listing.ts';
import { PaginationSchema } from './cars.ts';
import { IsoDateTime, MAX_ID, Nullable, StringEnum, Text, messages, strict } from './kit.ts';

/** Bodies, queries and answers of saved searches, their unsubscribe link, price history and sold results. */

export const SavedSearchQuerySchema = Type.Object(
  {
    ...optionalCriteria,
    auctionsOnly: Type.Optional(Type.Boolean({ description: 'Only live auctions' })),
  },
  { ...strict, title: 'SavedSearchQuery', description: 'The listing criteria the search stands for (as GET /api/cars takes them)' },
);
export type SavedSearchQuery = Static<typeof SavedSearchQuerySchema>;

const savedSearchFields = {
  name: Text(1, SAVED_SEARCH_NAME_MAX, messages({ default: 'Name the search, for example "911 from 2015"', maxLength: `Use at most ${SAVED_SEARCH_NAME_MAX} characters.` })),
  query: SavedSearchQuerySchema,
  alerts: StringEnum(SAVED_SEARCH_ALERTS, { description: 'instant: a notification and an email within a minute of a match; daily: one digest a day; off' }),
};

export const NewSavedSearchSchema = Type.Object(savedSearchFields, {
  ...strict,
  examples: [{ name: 'Porsche 911 from 2015', query: { make: 'Porsche', model: '911 Carrera S', minYear: 2015, maxPrice: 150_000 }, alerts: 'instant' }],
});
export type NewSavedSearch = Static<typeof NewSavedSearchSchema>;

export const SavedSearchEditSchema = Type.Object(
  { name: Type.Optional(savedSearchFields.name), query: Type.Optional(savedSearchFields.query), alerts: Type.Optional(savedSearchFields.alerts) },
  { ...strict, minProperties: 1, examples: [{ alerts: 'daily' }], ...messages({ minProperties: 'Send at least one of name, query or alerts to change' }) },
);
export type SavedSearchEdit = Static<typeof SavedSearchEditSchema>;

export const UnsubscribeSchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, strict);
/** The unsubscribe link's query: the token rides in the URL of the `List-Unsubscribe` header. */
export const UnsubscribeQuerySchema = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
/** JSON `{token}`, or a mail client's one-click form, which may carry fields of its own beside the one RFC 8058 names. */
export const UnsubscribeBodySchema = Type.Union([UnsubscribeSchema, Type.Object({ 'List-Unsubscribe': Type.Literal('One-Click') }, { additionalProperties: Type.String({ maxLength: 200 }) })]);

export const ResultsQuerySchema = Type.Object({
  carId: Type.Optional(QueryInteger('carId', { minimum: 1, maximum: MAX_ID, description: "One car's sale (a sold car's page links to it)" })),
  make: Type.Optional(Type.String({ minLength: 1, maxLength: LISTING_LIMITS.make })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: LISTING_LIMITS.model })),
  page: Type.Optional(QueryInteger('page', { minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(QueryInteger('limit', { minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
});

// ── Answers ──────────────────────────────────────────────────────────────────────────────────

/** A buyer's saved search. */
export const SavedSearchSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    query: SavedSearchQuerySchema,
    alerts: StringEnum(SAVED_SEARCH_ALERTS),
    createdAt: IsoDateTime,
    lastAlertAt: Nullable(IsoDateTime),
  },
  { title: 'SavedSearch' },
);
export type SavedSearch = Static<typeof SavedSearchSchema>;

/** `GET /api/saved-searches`: newest first. */
export const SavedSearchesSchema = Type.Object({ searches: Type.Array(SavedSearchSchema) });
export type SavedSearches = Static<typeof SavedSearchesSchema>;

export const SavedSearchDeletedSchema = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });
export type SavedSearchDeleted = Static<typeof SavedSearchDeletedSchema>;

/** What the unsubscribe link answers. */
export const UnsubscribedSchema = Type.Object({ name: Type.String({ description: 'The saved search that stopped alerting' }) });
export type Unsubscribed = Static<typeof UnsubscribedSchema>;

/** One point of a car's price history, oldest first. */
export const PricePointSchema = Type.Object({ price: Type.Integer(), at: IsoDateTime });
export type PricePoint = Static<typeof PricePointSchema>;

export const PriceHistorySchema = Type.Object({ points: Type.Array(PricePointSchema) });
export type PriceHistory = Static<typeof PriceHistorySchema>;

/** A sold car in `GET /api/results`: no buyer identity. */
export const SoldResultSchema = Type.Object(
  {
    carId: Type.Integer(),
    year: Type.Integer(),
    make: Type.String(),
    model: Type.String(),
    mileage: Type.Integer(),
    soldPrice: Type.Integer({ description: 'Whole US dollars' }),
    soldAt: { ...IsoDateTime, description: 'When the escrow released the money to the seller' },
    via: { ...StringEnum(SALE_ROUTES), description: 'auction: won at auction; offer: an accepted offer; bid: the seller accepted the highest bid; buy_now: bought at the asking price' },
  },
  { title: 'SoldResult' },
);
export type SoldResult = Static<typeof SoldResultSchema>;

/** `GET /api/results`: newest first. */
export const ResultsPageSchema = Type.Object({ results: Type.Array(SoldResultSchema), pagination: PaginationSchema });
export type ResultsPage = Static<typeof ResultsPageSchema>;
