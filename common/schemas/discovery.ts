import { Type, type Static } from 'typebox';
import { SAVED_SEARCH_ALERTS, SAVED_SEARCH_NAME_MAX } from '../market-data.ts';
import { LISTING_LIMITS, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../listing.ts';
import { QueryInteger, optionalCriteria } from './listing.ts';
import { MAX_ID, StringEnum, Text, messages, strict } from './kit.ts';

/** Bodies and queries of saved searches, their unsubscribe link and sold results. */

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

export const SavedSearchEditSchema = Type.Object(
  { name: Type.Optional(savedSearchFields.name), query: Type.Optional(savedSearchFields.query), alerts: Type.Optional(savedSearchFields.alerts) },
  { ...strict, minProperties: 1, examples: [{ alerts: 'daily' }], ...messages({ minProperties: 'Send at least one of name, query or alerts to change' }) },
);

export const UnsubscribeSchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, strict);

export const ResultsQuerySchema = Type.Object({
  carId: Type.Optional(QueryInteger('carId', { minimum: 1, maximum: MAX_ID, description: "One car's sale (a sold car's page links to it)" })),
  make: Type.Optional(Type.String({ minLength: 1, maxLength: LISTING_LIMITS.make })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: LISTING_LIMITS.model })),
  page: Type.Optional(QueryInteger('page', { minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(QueryInteger('limit', { minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
});
