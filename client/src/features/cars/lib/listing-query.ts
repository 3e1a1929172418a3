import type { ListingQuery as ApiListingQuery } from '@common/schemas/listing.ts';
import type { Query } from '../../../lib/api-client.ts';
import {
  DEFAULT_LISTING_FILTER,
  DEFAULT_LISTING_SORT,
  DEFAULT_PAGE_SIZE,
  LISTING_FILTERS,
  LISTING_SORTS,
  LUXURY_MIN_PRICE,
  type ListingFilter,
  type ListingSort,
} from '@common/listing.ts';
import { FILTER_KEYS, filtersFromParams, pickFilters, writeFilterParams, type FilterCriteria } from '../../market/index.ts';

/**
 * The listing screen's query (search, category, the filter panel's criteria, sort, page) and
 * its two serialisations: the page URL (defaults omitted, shareable) and the API request.
 */

export const FILTER_OPTIONS: ReadonlyArray<{ value: ListingFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'luxury', label: `$${LUXURY_MIN_PRICE / 1000}k+` },
  { value: 'sports', label: 'Sports' },
  { value: 'below-market', label: 'Below Market' },
  // v2: live timed auctions only.
  { value: 'auctions', label: 'Auctions' },
];

export const SORT_OPTIONS: ReadonlyArray<{ value: ListingSort; label: string }> = [
  { value: 'price-low', label: 'Price: Low to High' },
  { value: 'price-high', label: 'Price: High to Low' },
  { value: 'year-new', label: 'Year: Newest First' },
  { value: 'year-old', label: 'Year: Oldest First' },
  { value: 'popular', label: 'Most Popular' },
  // v2: auctions by their end first, then fixed-price listings.
  { value: 'ending-soon', label: 'Ending soon' },
];

/** The filter panel's criteria (make, model, body style, year and price ranges) are optional fields: unset means any. */
export type ListingQuery = FilterCriteria & Required<Pick<ApiListingQuery, 'search' | 'filter' | 'sort' | 'page'>>;

/** The query without the filter panel's criteria. */
function withoutFilters(query: ListingQuery): ListingQuery {
  const rest: Record<string, unknown> = { ...query };
  for (const key of FILTER_KEYS) delete rest[key];
  return rest as unknown as ListingQuery;
}

export const DEFAULT_LISTING_QUERY: Readonly<ListingQuery> = {
  search: '',
  filter: DEFAULT_LISTING_FILTER,
  sort: DEFAULT_LISTING_SORT,
  page: 1,
};

function isOneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return value !== null && (values as readonly string[]).includes(value);
}

/** Reads the query from the page URL; unknown or malformed values fall back to defaults (a bad criterion is dropped). */
export function parseListingQuery(params: URLSearchParams): ListingQuery {
  const filter = params.get('filter');
  const sort = params.get('sort');
  const rawPage = params.get('page');
  const page = rawPage !== null && /^\d+$/.test(rawPage) ? Number(rawPage) : NaN;
  return {
    search: (params.get('search') ?? '').trim(),
    filter: isOneOf(LISTING_FILTERS, filter) ? filter : DEFAULT_LISTING_QUERY.filter,
    sort: isOneOf(LISTING_SORTS, sort) ? sort : DEFAULT_LISTING_QUERY.sort,
    page: Number.isSafeInteger(page) && page >= 1 ? page : DEFAULT_LISTING_QUERY.page,
    ...filtersFromParams(params),
  };
}

/** Writes the query for the page URL, omitting every default value. */
export function toSearchParams(query: ListingQuery): URLSearchParams {
  const params = new URLSearchParams();
  const search = query.search.trim();
  if (search) params.set('search', search);
  if (query.filter !== DEFAULT_LISTING_QUERY.filter) params.set('filter', query.filter);
  writeFilterParams(pickFilters(query), params);
  if (query.sort !== DEFAULT_LISTING_QUERY.sort) params.set('sort', query.sort);
  if (query.page !== DEFAULT_LISTING_QUERY.page) params.set('page', String(query.page));
  return params;
}

/** The `GET /api/cars` query: always the default page size; empty search, `filter=all` and unset criteria are omitted. */
export function toApiQuery(query: ListingQuery): Query {
  return {
    search: query.search.trim() || undefined,
    filter: query.filter === DEFAULT_LISTING_FILTER ? undefined : query.filter,
    ...pickFilters(query),
    sort: query.sort,
    page: query.page,
    limit: DEFAULT_PAGE_SIZE,
  };
}

export type ListingChange =
  | { type: 'search'; search: string }
  | { type: 'filter'; filter: ListingFilter }
  | { type: 'sort'; sort: ListingSort }
  | { type: 'page'; page: number }
  | { type: 'criteria'; criteria: FilterCriteria }
  | { type: 'clear-criteria' }
  | { type: 'clear' };

/**
 * State transitions of spec §4: search, filter, criteria and sort go back to page 1; clear
 * (the empty state's "Clear Filters") drops search, category and criteria but keeps the sort.
 */
export function applyListingChange(query: ListingQuery, change: ListingChange): ListingQuery {
  switch (change.type) {
    case 'search':
      return { ...query, search: change.search.trim(), page: 1 };
    case 'filter':
      return { ...query, filter: change.filter, page: 1 };
    case 'sort':
      return { ...query, sort: change.sort, page: 1 };
    case 'page':
      return { ...query, page: Math.max(1, Math.floor(change.page)) };
    case 'criteria':
      return { ...withoutFilters(query), ...pickFilters(change.criteria), page: 1 };
    case 'clear-criteria':
      return { ...withoutFilters(query), page: 1 };
    case 'clear':
      return { ...withoutFilters(query), search: '', filter: 'all', page: 1 };
  }
}
