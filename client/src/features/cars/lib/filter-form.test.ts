import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_QUERY } from './listing-query.ts';
import { filterValuesOf, readFilterValues, savedQueryOf, type FilterValues } from './filter-form.ts';

const values = (overrides: Partial<FilterValues> = {}): FilterValues => ({ ...filterValuesOf({}), ...overrides });

describe('readFilterValues', () => {
  it('turns typed text into criteria: prices may carry $ and commas, empty means any', () => {
    expect(readFilterValues(values({ make: ' Porsche ', model: '911', bodyStyle: 'coupe', minYear: '2015', maxPrice: '$150,000' }))).toEqual({
      criteria: { make: 'Porsche', model: '911', bodyStyle: 'coupe', minYear: 2015, maxPrice: 150_000 },
      errors: {},
    });
  });

  it("says each field's problem in the schema's rule with the field's label", () => {
    const { errors } = readFilterValues(values({ minYear: '1800', maxYear: 'soon', minPrice: '-5', make: 'x'.repeat(61) }));
    expect(errors).toEqual({
      make: 'Make must be at most 60 characters',
      minYear: 'Year from must be at least 1900',
      maxYear: 'Year to must be a whole number',
      minPrice: 'Price from must be a whole number',
    });
  });

  it('refuses upside-down ranges on the upper bound, in criteriaProblems words', () => {
    const { errors } = readFilterValues(values({ minYear: '2020', maxYear: '2010', minPrice: '200000', maxPrice: '100000' }));
    expect(errors).toEqual({ maxYear: 'The highest year must not be below the lowest', maxPrice: 'The highest price must not be below the lowest' });
  });
});

describe('savedQueryOf', () => {
  const q = { ...DEFAULT_LISTING_QUERY, make: 'Porsche', minYear: 2015 };
  it('keeps the search text and criteria, and the categories it can', () => {
    expect(savedQueryOf({ ...q, search: ' turbo ', sort: 'year-new', page: 3 })).toEqual({ query: { make: 'Porsche', minYear: 2015, search: 'turbo' }, dropped: null });
    expect(savedQueryOf({ ...q, filter: 'auctions' }).query).toEqual({ make: 'Porsche', minYear: 2015, auctionsOnly: true });
    expect(savedQueryOf({ ...q, filter: 'luxury' }).query.minPrice).toBe(100_000);
    expect(savedQueryOf({ ...q, filter: 'luxury', minPrice: 250_000 }).query.minPrice).toBe(250_000);
    expect(savedQueryOf({ ...q, filter: 'sports' }).query.bodyStyle).toBe('sports');
    expect(savedQueryOf({ ...q, filter: 'below-market' })).toEqual({ query: { make: 'Porsche', minYear: 2015 }, dropped: 'Below Market' });
  });
});
