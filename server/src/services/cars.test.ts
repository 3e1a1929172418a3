import { describe, expect, it } from 'vitest';
import { escapeLike, paginate, parseSearch } from './cars.ts';

describe('parseSearch', () => {
  it('treats a four-digit number as an exact year and other words as text', () => {
    expect(parseSearch('Porsche 911 2022')).toEqual({ years: [2022], words: ['porsche', '911'] });
  });

  it('ignores case, accents and extra spaces', () => {
    expect(parseSearch('  LAMBORGHINI   Huracán ')).toEqual({ years: [], words: ['lamborghini', 'huracan'] });
  });

  it('returns no criteria for empty or blank text', () => {
    expect(parseSearch(undefined)).toEqual({ years: [], words: [] });
    expect(parseSearch('   ')).toEqual({ years: [], words: [] });
  });

  it('does not read numbers of other lengths as years', () => {
    expect(parseSearch('720 20221')).toEqual({ years: [], words: ['720', '20221'] });
  });
});

describe('escapeLike', () => {
  it('escapes the LIKE wildcards and the escape character', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });
});

describe('paginate', () => {
  it('rounds the page count up', () => {
    expect(paginate(25, 1, 12)).toEqual({ page: 1, limit: 12, total: 25, pages: 3 });
  });

  it('reports zero pages for no results', () => {
    expect(paginate(0, 1, 12).pages).toBe(0);
  });
});
