import { describe, expect, it } from 'vitest';
import { buildQueryString } from '../../../lib/api-client.ts';
import {
  DEFAULT_LISTING_QUERY,
  applyListingChange,
  parseListingQuery,
  toApiQuery,
  toSearchParams,
  type ListingQuery,
} from './listing-query.ts';

const q = (overrides: Partial<ListingQuery> = {}): ListingQuery => ({
  ...DEFAULT_LISTING_QUERY,
  ...overrides,
});

describe('parseListingQuery', () => {
  it('reads every field from the URL', () => {
    const parsed = parseListingQuery(
      new URLSearchParams('search=Porsche&filter=sports&sort=year-new&page=3'),
    );
    expect(parsed).toEqual({ search: 'Porsche', filter: 'sports', sort: 'year-new', page: 3 });
  });

  it('falls back to defaults for missing or bad values', () => {
    expect(parseListingQuery(new URLSearchParams(''))).toEqual(DEFAULT_LISTING_QUERY);
    expect(
      parseListingQuery(new URLSearchParams('filter=cheap&sort=random&page=0')),
    ).toEqual(DEFAULT_LISTING_QUERY);
    for (const page of ['-2', '1.5', 'abc', '', '99999999999999999999']) {
      expect(parseListingQuery(new URLSearchParams({ page })).page).toBe(1);
    }
  });
});

describe('toSearchParams', () => {
  it('omits defaults so the plain URL stays clean', () => {
    expect(toSearchParams(q()).toString()).toBe('');
    expect(toSearchParams(q({ search: '   ' })).toString()).toBe('');
  });

  it('keeps non-default values and round-trips through parse', () => {
    const query = q({ search: 'BMW M5', filter: 'below-market', sort: 'popular', page: 2 });
    const params = toSearchParams(query);
    expect(params.toString()).toBe('search=BMW+M5&filter=below-market&sort=popular&page=2');
    expect(parseListingQuery(params)).toEqual(query);
  });
});

describe('toApiQuery', () => {
  it('always asks for 12 per page and omits empty search and filter=all', () => {
    expect(buildQueryString(toApiQuery(q()))).toBe('?sort=price-low&page=1&limit=12');
  });

  it('sends search, filter, sort and page when set', () => {
    expect(
      buildQueryString(toApiQuery(q({ search: ' 2021 ', filter: 'luxury', sort: 'price-high', page: 4 }))),
    ).toBe('?search=2021&filter=luxury&sort=price-high&page=4&limit=12');
  });
});

describe('applyListingChange', () => {
  const start = q({ search: 'audi', filter: 'sports', sort: 'year-old', page: 5 });

  it('search, filter and sort reset the page to 1', () => {
    expect(applyListingChange(start, { type: 'search', search: ' bmw ' })).toEqual({
      ...start,
      search: 'bmw',
      page: 1,
    });
    expect(applyListingChange(start, { type: 'filter', filter: 'luxury' }).page).toBe(1);
    expect(applyListingChange(start, { type: 'sort', sort: 'popular' }).page).toBe(1);
  });

  it('searching the same text again still goes back to page 1', () => {
    expect(applyListingChange(start, { type: 'search', search: 'audi' }).page).toBe(1);
  });

  it('page changes keep the rest of the query', () => {
    expect(applyListingChange(start, { type: 'page', page: 6 })).toEqual({ ...start, page: 6 });
    expect(applyListingChange(start, { type: 'page', page: 0 }).page).toBe(1);
  });

  it('clear resets search and filter and goes to page 1 but keeps the sort', () => {
    expect(applyListingChange(start, { type: 'clear' })).toEqual({
      search: '',
      filter: 'all',
      sort: 'year-old',
      page: 1,
    });
  });
});

describe('the filter panel in the URL', () => {
  const filtered = q({ search: 'turbo', make: 'Porsche', model: '911', bodyStyle: 'coupe', minYear: 2015, maxPrice: 150_000, sort: 'year-new', page: 2 });

  it('round-trips the criteria with the rest of the query', () => {
    const params = toSearchParams(filtered);
    expect(params.toString()).toBe('search=turbo&make=Porsche&model=911&bodyStyle=coupe&minYear=2015&maxPrice=150000&sort=year-new&page=2');
    expect(parseListingQuery(params)).toEqual(filtered);
  });

  it('sends the criteria to the API', () => {
    expect(buildQueryString(toApiQuery(filtered))).toBe(
      '?search=turbo&make=Porsche&model=911&bodyStyle=coupe&minYear=2015&maxPrice=150000&sort=year-new&page=2&limit=12',
    );
  });

  it('applying criteria replaces the old ones and goes to page 1; clearing them keeps search and sort', () => {
    const next = applyListingChange(filtered, { type: 'criteria', criteria: { make: 'BMW', minPrice: 50_000 } });
    expect(toSearchParams(next).toString()).toBe('search=turbo&make=BMW&minPrice=50000&sort=year-new');
    expect(toSearchParams(applyListingChange(filtered, { type: 'clear-criteria' })).toString()).toBe('search=turbo&sort=year-new');
    expect(toSearchParams(applyListingChange(filtered, { type: 'clear' })).toString()).toBe('sort=year-new');
  });
});
