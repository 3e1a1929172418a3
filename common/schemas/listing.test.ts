import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ListingQuerySchema, QueryInteger } from './listing.ts';
import { ResultsQuerySchema, SavedSearchEditSchema, SavedSearchQuerySchema } from './discovery.ts';
import { checkAgainst, describeIssues, type SchemaIssue } from '../validation.ts';

/** Validators set up as the server's: query strings coerced to the schema's types, bodies not. */
const queryAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: 'array' });
const bodyAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: false });

function asQuery(schema: object, query: Record<string, string>) {
  const check = queryAjv.compile(schema);
  const data: Record<string, unknown> = { ...query };
  const ok = check(data);
  return { ok, data, details: ok ? [] : describeIssues(schema, (check.errors ?? []) as SchemaIssue[], 'querystring') };
}

describe('integers in a query string', () => {
  it.each(['0x7df', '1e5', '2015.0', '+2015', ' 2015', '2015 ', '-0', '0b11111011111', 'Infinity', ''])('refuses minYear=%j though it reads as a number', (text) => {
    const { ok, details } = asQuery(ListingQuerySchema, { minYear: text });
    expect(ok).toBe(false);
    expect(details).toEqual([{ field: 'minYear', message: 'minYear must be a whole number' }]);
  });

  it.each([
    ['minPrice', '1e5'],
    ['maxPrice', '0x10'],
    ['maxYear', '2.02e3'],
    ['page', '1e1'],
    ['limit', '0x5'],
  ])('refuses %s=%s in the listing query', (field, text) => {
    const { ok, details } = asQuery(ListingQuerySchema, { [field]: text });
    expect(ok).toBe(false);
    expect(details.map((d) => d.field)).toEqual([field]);
  });

  it('refuses carId, page and limit of the results query written other than in digits', () => {
    for (const field of ['carId', 'page', 'limit']) expect(asQuery(ResultsQuerySchema, { [field]: '1e1' }).details.map((d) => d.field), field).toEqual([field]);
  });

  it('takes plain digits as numbers, with the bounds inclusive and defaults applied', () => {
    const { ok, data } = asQuery(ListingQuerySchema, { minYear: '1900', maxYear: '2100', minPrice: '0', maxPrice: '007' });
    expect(ok).toBe(true);
    expect(data).toMatchObject({ minYear: 1900, maxYear: 2100, minPrice: 0, maxPrice: 7, page: 1, limit: expect.any(Number) });
    expect(asQuery(ListingQuerySchema, { minYear: '1899' }).details).toEqual([{ field: 'minYear', message: 'minYear must be at least 1900' }]);
    expect(asQuery(ListingQuerySchema, { maxYear: '2101' }).details).toEqual([{ field: 'maxYear', message: 'maxYear must be at most 2100' }]);
  });

  it('leaves JSON numbers to the integer rule alone: 2015 passes, "2015" and 2015.5 do not', () => {
    const check = bodyAjv.compile(SavedSearchQuerySchema);
    expect(check({ minYear: 2015, maxPrice: 150_000 })).toBe(true);
    expect(check({ minYear: '2015' })).toBe(false);
    expect(check({ minYear: 2015.5 })).toBe(false);
    // The forms' validator (TypeBox) reads the schema alike.
    expect(checkAgainst(SavedSearchQuerySchema, { minYear: 2015 })).toEqual([]);
    expect(checkAgainst(SavedSearchQuerySchema, { minYear: 2015.5 }).map((i) => i.field)).toEqual(['minYear']);
    expect(checkAgainst(ListingQuerySchema, { minYear: '0x7df' })).toEqual([{ field: 'minYear', message: 'minYear must be a whole number' }]);
    expect(checkAgainst(ListingQuerySchema, { minYear: 1899 })).toEqual([{ field: 'minYear', message: 'minYear must be at least 1900' }]);
  });

  it('documents the field as an integer with its bounds', () => {
    const schema = QueryInteger('n', { minimum: 1, maximum: 9, description: 'A digit' }) as unknown as { allOf: object[]; description: string };
    expect(schema.allOf).toContainEqual({ type: 'integer', minimum: 1, maximum: 9 });
    expect(schema.description).toBe('A digit');
  });
});

describe('a saved search edit', () => {
  it('says what an empty edit lacks', () => {
    const check = bodyAjv.compile(SavedSearchEditSchema);
    expect(check({})).toBe(false);
    expect(describeIssues(SavedSearchEditSchema, (check.errors ?? []) as SchemaIssue[])).toEqual([{ field: 'body', message: 'Send at least one of name, query or alerts to change' }]);
    expect(checkAgainst(SavedSearchEditSchema, {})).toEqual([{ field: 'body', message: 'Send at least one of name, query or alerts to change' }]);
  });
});
