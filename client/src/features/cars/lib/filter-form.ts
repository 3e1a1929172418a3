import { BODY_STYLE_LABELS, CAR_BODY_STYLES, LUXURY_MIN_PRICE } from '@common/listing.ts';
import { ListingQuerySchema, criteriaProblems } from '@common/schemas/listing.ts';
import type { SavedSearchQuery } from '@common/schemas/discovery.ts';
import { issuesByField } from '@common/validation.ts';
import { FILTER_KEYS, pickFilters, type FilterCriteria, type FilterKey } from '../../market/index.ts';
import type { ListingQuery } from './listing-query.ts';

/**
 * The filter panel's form: what it holds (text as typed), the live checks (each value against the
 * very schema `GET /api/cars` validates with, plus `criteriaProblems` for upside-down ranges) and
 * the criteria it applies. The server still decides.
 */

export type FilterValues = Record<FilterKey, string>;

export const FILTER_LABELS: Record<FilterKey, string> = {
  make: 'Make',
  model: 'Model',
  bodyStyle: 'Body style',
  minYear: 'Year from',
  maxYear: 'Year to',
  minPrice: 'Price from',
  maxPrice: 'Price to',
};

export const BODY_STYLE_OPTIONS = CAR_BODY_STYLES.map((value) => ({ value, label: BODY_STYLE_LABELS[value] }));

const NUMERIC: ReadonlySet<FilterKey> = new Set(['minYear', 'maxYear', 'minPrice', 'maxPrice']);
const PRICES: ReadonlySet<FilterKey> = new Set(['minPrice', 'maxPrice']);

export function filterValuesOf(criteria: FilterCriteria): FilterValues {
  const values = {} as FilterValues;
  for (const key of FILTER_KEYS) values[key] = criteria[key] === undefined ? '' : String(criteria[key]);
  return values;
}

/** A typed value as the API takes it: empty is unset; "$150,000" is 150000; other text stays text (and fails the check). */
function valueOf(key: FilterKey, text: string): string | number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (!NUMERIC.has(key)) return trimmed;
  const digits = PRICES.has(key) ? trimmed.replace(/^\$/, '').replace(/[,\s]/g, '') : trimmed;
  return /^\d+$/.test(digits) ? Number(digits) : trimmed;
}

/** A schema sentence names the field by its key ("minYear must be at least 1900"): say its label. */
const inWords = (key: FilterKey, message: string) => (message.startsWith(key) ? `${FILTER_LABELS[key]}${message.slice(key.length)}` : message);

/** The criteria the form stands for, and the problem of each field that has one. */
export function readFilterValues(values: FilterValues): { criteria: FilterCriteria; errors: Partial<Record<FilterKey, string>> } {
  const candidate: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const value = valueOf(key, values[key]);
    if (value !== undefined) candidate[key] = value;
  }
  const errors: Partial<Record<FilterKey, string>> = {};
  const issues = issuesByField(ListingQuerySchema, candidate);
  for (const key of FILTER_KEYS) if (issues[key]) errors[key] = inWords(key, issues[key]);
  for (const { field, message } of criteriaProblems(candidate)) {
    const key = FILTER_KEYS.find((k) => k === field);
    if (key) errors[key] ??= message;
  }
  return { criteria: pickFilters(candidate), errors };
}

/**
 * What "Save this search" stores for the listing's query: its search text and criteria, auctions
 * as `auctionsOnly`, and the $100k+ and Sports categories as the price floor and body style they
 * stand for. "Below market" has no saved-search criterion: `dropped` says so.
 */
export function savedQueryOf(query: ListingQuery): { query: SavedSearchQuery; dropped: string | null } {
  const saved: SavedSearchQuery = { ...pickFilters(query) };
  if (query.search.trim()) saved.search = query.search.trim();
  if (query.filter === 'auctions') saved.auctionsOnly = true;
  if (query.filter === 'luxury' && (saved.minPrice === undefined || saved.minPrice < LUXURY_MIN_PRICE)) saved.minPrice = LUXURY_MIN_PRICE;
  if (query.filter === 'sports') saved.bodyStyle ??= 'sports';
  return { query: saved, dropped: query.filter === 'below-market' ? 'Below Market' : null };
}
