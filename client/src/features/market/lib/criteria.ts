import { BODY_STYLE_LABELS, CAR_BODY_STYLES } from '@common/listing.ts';
import { SAVED_SEARCH_NAME_MAX } from '@common/market-data.ts';
import { formatUsd } from '@common/pricing.ts';
import { PAGES } from '@common/paths.ts';
import { listingCriteriaFields, type ListingCriteria } from '@common/schemas/listing.ts';
import type { SavedSearchQuery } from '@common/schemas/discovery.ts';
import { Value } from 'typebox/value';

/**
 * A search's criteria (make, model, body style, year and price ranges) in the listing's URL and
 * in words. The listing screen and the saved searches both read the URL this way, so "Run" on a
 * saved search opens the listing with exactly its filters.
 */

/** The criteria the filter panel sets, in the order the URL lists them (`search` is the listing's own). */
export const FILTER_KEYS = ['make', 'model', 'bodyStyle', 'minYear', 'maxYear', 'minPrice', 'maxPrice'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type FilterCriteria = Pick<ListingCriteria, FilterKey>;

const NUMERIC = new Set<FilterKey>(['minYear', 'maxYear', 'minPrice', 'maxPrice']);

/** The filters of a URL: each value kept only when the API would take it (an old or edited link never breaks the listing). */
export function filtersFromParams(params: URLSearchParams): FilterCriteria {
  const criteria: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const raw = params.get(key)?.trim();
    if (!raw) continue;
    const value = NUMERIC.has(key) ? (/^\d+$/.test(raw) ? Number(raw) : NaN) : raw;
    if (Value.Check(listingCriteriaFields[key], value)) criteria[key] = value;
  }
  return criteria as FilterCriteria;
}

/** Writes the filters that are set onto `params`, in FILTER_KEYS order. */
export function writeFilterParams(criteria: FilterCriteria, params: URLSearchParams): URLSearchParams {
  for (const key of FILTER_KEYS) {
    const value = criteria[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}

/** Only the filters of `criteria` that are set. */
export function pickFilters(criteria: Partial<Record<FilterKey, unknown>>): FilterCriteria {
  const picked: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) if (criteria[key] !== undefined) picked[key] = criteria[key];
  return picked as FilterCriteria;
}

export const hasFilters = (criteria: FilterCriteria) => FILTER_KEYS.some((key) => criteria[key] !== undefined);

/** The listing page showing a saved search's cars: `/?make=Porsche&minYear=2015` (auctions only: `filter=auctions`). */
export function listingPathFor(query: SavedSearchQuery): string {
  const params = new URLSearchParams();
  if (query.search?.trim()) params.set('search', query.search.trim());
  if (query.auctionsOnly) params.set('filter', 'auctions');
  writeFilterParams(pickFilters(query), params);
  const qs = params.toString();
  return qs ? `${PAGES.home}?${qs}` : PAGES.home;
}

export const isBodyStyle = (value: string): value is (typeof CAR_BODY_STYLES)[number] => (CAR_BODY_STYLES as readonly string[]).includes(value);

function yearsInWords(from?: number, to?: number): string | null {
  if (from !== undefined && to !== undefined) return `from ${from} to ${to}`;
  if (from !== undefined) return `from ${from}`;
  if (to !== undefined) return `up to ${to}`;
  return null;
}

function pricesInWords(from?: number, to?: number): string | null {
  if (from !== undefined && to !== undefined) return `${formatUsd(from)} to ${formatUsd(to)}`;
  if (to !== undefined) return `under ${formatUsd(to)}`;
  if (from !== undefined) return `over ${formatUsd(from)}`;
  return null;
}

/**
 * A search in words, as a name and as the line under it: "Porsche 911 from 2015 under $150,000",
 * "Coupe from 2010 to 2015", "Cars matching "m5" at auction", "Any car".
 */
export function searchInWords(query: SavedSearchQuery): string {
  const maker = [query.make, query.model].filter(Boolean).join(' ');
  const body = query.bodyStyle ? BODY_STYLE_LABELS[query.bodyStyle] : '';
  const search = query.search?.trim();
  let subject = [maker, body].filter(Boolean).join(' ');
  if (search) subject = subject ? `${subject} matching "${search}"` : `Cars matching "${search}"`;
  const sameYear = query.minYear !== undefined && query.minYear === query.maxYear;
  if (sameYear) subject = subject ? `${query.minYear} ${subject}` : `Any ${query.minYear} car`;
  else if (!subject) subject = 'Any car';
  const years = sameYear ? null : yearsInWords(query.minYear, query.maxYear);
  const words = [subject, years, pricesInWords(query.minPrice, query.maxPrice), query.auctionsOnly ? 'at auction' : null];
  return words.filter(Boolean).join(' ');
}

/** `searchInWords` cut to the longest name a saved search may have. */
export function suggestedSearchName(query: SavedSearchQuery): string {
  const words = searchInWords(query);
  return words.length <= SAVED_SEARCH_NAME_MAX ? words : `${words.slice(0, SAVED_SEARCH_NAME_MAX - 1).trimEnd()}…`;
}
