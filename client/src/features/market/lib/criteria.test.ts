import { describe, expect, it } from 'vitest';
import { filtersFromParams, listingPathFor, searchInWords, suggestedSearchName, writeFilterParams } from './criteria.ts';

describe('filters in the URL', () => {
  it('round-trips every criterion', () => {
    const criteria = { make: 'Porsche', model: '911 Carrera S', bodyStyle: 'coupe', minYear: 2015, maxYear: 2021, minPrice: 50_000, maxPrice: 150_000 } as const;
    const params = writeFilterParams(criteria, new URLSearchParams());
    expect(params.toString()).toBe('make=Porsche&model=911+Carrera+S&bodyStyle=coupe&minYear=2015&maxYear=2021&minPrice=50000&maxPrice=150000');
    expect(filtersFromParams(params)).toEqual(criteria);
  });

  it('drops what the API would refuse, so an old or edited link still lists cars', () => {
    const params = new URLSearchParams('make=&model=%20&bodyStyle=tank&minYear=1800&maxYear=abc&minPrice=-5&maxPrice=1.5');
    expect(filtersFromParams(params)).toEqual({});
    expect(filtersFromParams(new URLSearchParams(`make=${'x'.repeat(61)}&minYear=2010`))).toEqual({ minYear: 2010 });
  });
});

describe('a saved search in the listing URL', () => {
  it('opens the listing with the same filters, auctions as the Auctions category', () => {
    expect(listingPathFor({ make: 'Porsche', minYear: 2015, maxPrice: 150_000 })).toBe('/?make=Porsche&minYear=2015&maxPrice=150000');
    expect(listingPathFor({ search: ' m5 ', auctionsOnly: true, bodyStyle: 'sedan' })).toBe('/?search=m5&filter=auctions&bodyStyle=sedan');
    expect(listingPathFor({})).toBe('/');
  });
});

describe('a search in words', () => {
  it.each([
    [{ make: 'Porsche', model: '911', minYear: 2015, maxPrice: 150_000 }, 'Porsche 911 from 2015 under $150,000'],
    [{ bodyStyle: 'coupe', minYear: 2010, maxYear: 2015 }, 'Coupe from 2010 to 2015'],
    [{ make: 'BMW', minYear: 2020, maxYear: 2020 }, '2020 BMW'],
    [{ minYear: 2020, maxYear: 2020 }, 'Any 2020 car'],
    [{ maxYear: 1975, minPrice: 80_000 }, 'Any car up to 1975 over $80,000'],
    [{ minPrice: 50_000, maxPrice: 90_000, auctionsOnly: true }, 'Any car $50,000 to $90,000 at auction'],
    [{ search: 'm5' }, 'Cars matching "m5"'],
    [{ make: 'BMW', search: 'm5', bodyStyle: 'suv' }, 'BMW SUV matching "m5"'],
    [{}, 'Any car'],
  ] as const)('%j reads "%s"', (query, words) => {
    expect(searchInWords(query)).toBe(words);
  });

  it('keeps a suggested name within the limit', () => {
    const name = suggestedSearchName({ make: 'M'.repeat(60), model: 'X'.repeat(60) });
    expect(name.length).toBe(80);
    expect(name.endsWith('…')).toBe(true);
  });
});
