import { describe, expect, it } from 'vitest';
import { SAMPLE_LISTING } from '@common/schemas/listing.ts';
import {
  auctionEndBounds,
  defaultAuctionEnd,
  EDITABLE_FIELDS,
  EMPTY_LISTING,
  errorsFromDetails,
  featureError,
  fieldError,
  latestModelYear,
  listingChanges,
  listingFormValues,
  parseLocalInput,
  parseWholeNumber,
  toLocalInput,
  toNewListing,
  validateListing,
  type ListingFormValues,
} from './listing-form.ts';

const NOW = new Date('2026-06-01T12:00:00Z');

const VALID: ListingFormValues = {
  make: 'Porsche',
  model: '911 Carrera S',
  year: '2021',
  bodyStyle: 'coupe',
  condition: 'Excellent',
  price: '118,500',
  mileage: '12400',
  location: 'Austin, TX',
  description: 'One owner, full service history.',
  features: ['Sport Chrono', 'PDK'],
  saleType: 'fixed',
  auctionEnds: '',
  reservePrice: '',
};

/** A `datetime-local` value `hours` after NOW, in this machine's time zone. */
const localIn = (hours: number) => toLocalInput(NOW.getTime() + hours * 3_600_000);
const AUCTION: ListingFormValues = { ...VALID, saleType: 'auction', auctionEnds: localIn(72), reservePrice: '150,000' };

describe('parseWholeNumber', () => {
  it('reads whole numbers with thousands separators, spaces or a dollar sign', () => {
    expect(parseWholeNumber('125000')).toBe(125_000);
    expect(parseWholeNumber('125,000')).toBe(125_000);
    expect(parseWholeNumber(' $125 000 ')).toBe(125_000);
    expect(parseWholeNumber('0')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const text of ['', '  ', '12.5', '-5', '1e5', 'abc', '12a', '$', '1234567890']) {
      expect(parseWholeNumber(text), text).toBeNull();
    }
  });
});

describe('validateListing', () => {
  it('accepts a complete listing', () => {
    expect(validateListing(VALID, undefined, NOW)).toEqual({});
  });

  it('names every missing field, whitespace-only counting as empty', () => {
    const errors = validateListing({ ...EMPTY_LISTING, make: '   ', description: '\n\t ' }, undefined, NOW);
    expect(Object.keys(errors)).toEqual(['make', 'model', 'year', 'bodyStyle', 'condition', 'price', 'mileage', 'location', 'description']);
    expect(errors.make).toBe('Enter the make, for example Porsche');
    expect(errors.description).toBe('Describe the car');
    expect(errors.price).toBe('Enter the asking price');
  });

  it('keeps to the server limits for text, counting characters as people do', () => {
    expect(fieldError('make', { ...VALID, make: 'x'.repeat(60) }, NOW)).toBeUndefined();
    expect(fieldError('make', { ...VALID, make: 'x'.repeat(61) }, NOW)).toBe('Make must be at most 60 characters');
    expect(fieldError('location', { ...VALID, location: 'x'.repeat(121) }, NOW)).toBe('Location must be at most 120 characters');
    expect(fieldError('description', { ...VALID, description: 'x'.repeat(5_001) }, NOW)).toBe('The description must be at most 5,000 characters');
    // 60 emoji are 120 UTF-16 units but 60 characters.
    expect(fieldError('model', { ...VALID, model: '🚗'.repeat(60) }, NOW)).toBeUndefined();
    // Surrounding spaces are not counted (the server trims them).
    expect(fieldError('model', { ...VALID, model: `  ${'x'.repeat(60)}  ` }, NOW)).toBeUndefined();
  });

  it('allows model years from 1900 to next year', () => {
    expect(latestModelYear(NOW)).toBe(2027);
    expect(fieldError('year', { ...VALID, year: '1900' }, NOW)).toBeUndefined();
    expect(fieldError('year', { ...VALID, year: '2027' }, NOW)).toBeUndefined();
    for (const year of ['1899', '2028', '21', '20a1', '2021.5']) {
      expect(fieldError('year', { ...VALID, year }, NOW), year).toBe('Enter a model year from 1900 to 2027');
    }
  });

  it('allows prices from $1 to $1,000,000 and mileage from 0 to 1,000,000', () => {
    expect(fieldError('price', { ...VALID, price: '1' }, NOW)).toBeUndefined();
    expect(fieldError('price', { ...VALID, price: '1,000,000' }, NOW)).toBeUndefined();
    expect(fieldError('price', { ...VALID, price: '0' }, NOW)).toBe('The price must be at least $1');
    expect(fieldError('price', { ...VALID, price: '1000001' }, NOW)).toBe('The price must be at most $1,000,000');
    expect(fieldError('price', { ...VALID, price: '99.99' }, NOW)).toBe('Enter a whole-dollar amount, for example 125000');
    expect(fieldError('mileage', { ...VALID, mileage: '0' }, NOW)).toBeUndefined();
    expect(fieldError('mileage', { ...VALID, mileage: '1000001' }, NOW)).toBe('The mileage must be at most 1,000,000 miles');
    expect(fieldError('mileage', { ...VALID, mileage: 'lots' }, NOW)).toBe('Enter the mileage in whole miles, for example 12400');
  });

  it('allows up to 40 features of 1 to 80 characters', () => {
    const forty = Array.from({ length: 40 }, (_, i) => `Feature ${i}`);
    expect(fieldError('features', { ...VALID, features: [] }, NOW)).toBeUndefined();
    expect(fieldError('features', { ...VALID, features: forty }, NOW)).toBeUndefined();
    expect(fieldError('features', { ...VALID, features: [...forty, 'one more'] }, NOW)).toBe('List at most 40 features');
    expect(fieldError('features', { ...VALID, features: ['x'.repeat(81)] }, NOW)).toBe('Each feature must be 1 to 80 characters');
    expect(fieldError('features', { ...VALID, features: ['  '] }, NOW)).toBe('Each feature must be 1 to 80 characters');
  });

  it('checks only the fields asked for', () => {
    expect(validateListing({ ...EMPTY_LISTING, price: '0' }, ['price'], NOW)).toEqual({ price: 'The price must be at least $1' });
    expect(Object.keys(validateListing(EMPTY_LISTING, EDITABLE_FIELDS, NOW)).sort()).toEqual(['condition', 'description', 'location', 'mileage', 'price']);
  });
});

describe('featureError', () => {
  it('refuses empty, long, repeated (in any case) features and a full list', () => {
    expect(featureError('  ', [])).toBe('Type a feature first');
    expect(featureError('x'.repeat(81), [])).toBe('A feature must be at most 80 characters');
    expect(featureError(' sport chrono ', ['Sport Chrono'])).toBe('That feature is already listed');
    expect(featureError('New', Array.from({ length: 40 }, (_, i) => `F${i}`))).toBe('List at most 40 features');
    expect(featureError('Carbon brakes', ['Sport Chrono'])).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('builds a trimmed NewListing with numbers, as a draft when asked', () => {
    expect(toNewListing({ ...VALID, make: ' Porsche ', features: [' PDK ', ''] }, true)).toEqual({
      ...SAMPLE_LISTING,
      description: 'One owner, full service history.',
      features: ['PDK'],
      draft: true,
    });
    expect(toNewListing(VALID, false)).not.toHaveProperty('draft');
  });

  it('sends only the editable fields that changed', () => {
    const car = { ...toNewListing(VALID, false) };
    const values = listingFormValues(car);
    expect(listingChanges(values, car)).toEqual({});
    expect(listingChanges({ ...values, price: '110000', description: ' One owner, full service history. ', make: 'Ferrari' }, car)).toEqual({ price: 110_000 });
    expect(listingChanges({ ...values, features: ['PDK', 'Sport Chrono'] }, car)).toEqual({ features: ['PDK', 'Sport Chrono'] });
    expect(listingChanges({ ...values, condition: 'Like New', mileage: '13,000', location: 'Dallas, TX' }, car)).toEqual({
      condition: 'Like New',
      mileage: 13_000,
      location: 'Dallas, TX',
    });
  });

  it('fills the form from a listing, leaving unknown choices unset', () => {
    const values = listingFormValues({ ...toNewListing(VALID, false), bodyStyle: 'hovercraft', condition: 'Fair' });
    expect(values).toMatchObject({ year: '2021', price: '118,500', mileage: '12,400', bodyStyle: '', condition: '' });
  });
});

describe('errorsFromDetails', () => {
  it('puts server messages on their fields, nested ones on their parent, the rest aside', () => {
    expect(
      errorsFromDetails([
        { field: 'price', message: 'price must be <= 1000000' },
        { field: 'features.3', message: 'features.3 must NOT have more than 80 characters' },
        { field: 'colour', message: 'colour is not an allowed field' },
        { field: 'price', message: 'second message is ignored' },
        'junk',
      ]),
    ).toEqual({
      fields: { price: 'price must be <= 1000000', features: 'features.3 must NOT have more than 80 characters' },
      other: ['colour is not an allowed field'],
    });
    expect(errorsFromDetails(undefined)).toEqual({ fields: {}, other: [] });
  });
});

describe('timed auctions on the form', () => {
  it('reads and writes datetime-local values in local time, refusing dates that do not exist', () => {
    const local = new Date(2026, 5, 8, 18, 30);
    expect(toLocalInput(local)).toBe('2026-06-08T18:30');
    expect(parseLocalInput('2026-06-08T18:30')?.getTime()).toBe(local.getTime());
    expect(parseLocalInput('2026-06-08T18:30:15')?.getTime()).toBe(local.getTime() + 15_000);
    for (const bad of ['', 'tomorrow', '2026-02-30T10:00', '2026-06-08', '2026-06-08T25:00']) expect(parseLocalInput(bad), bad).toBeNull();
  });

  it('suggests an end a week ahead on the hour, and bounds the picker to 24 hours .. 30 days', () => {
    const suggested = parseLocalInput(defaultAuctionEnd(NOW))!;
    expect(suggested.getMinutes()).toBe(0);
    expect(suggested.getTime() - NOW.getTime()).toBeGreaterThan(7 * 86_400_000);
    expect(suggested.getTime() - NOW.getTime()).toBeLessThanOrEqual(7 * 86_400_000 + 3_600_000);
    const { min, max } = auctionEndBounds(NOW);
    expect(parseLocalInput(min)!.getTime()).toBe(NOW.getTime() + 24 * 3_600_000);
    expect(parseLocalInput(max)!.getTime()).toBe(NOW.getTime() + 30 * 86_400_000);
  });

  it('accepts an auction ending 24 hours to 30 days ahead, and nothing nearer or later', () => {
    expect(validateListing(AUCTION, undefined, NOW)).toEqual({});
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: localIn(24) }, NOW)).toBeUndefined();
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: localIn(23.5) }, NOW)).toMatch(/^An auction runs at least 24 hours: choose an end after /);
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: localIn(30 * 24) }, NOW)).toBeUndefined();
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: localIn(30 * 24 + 1) }, NOW)).toBe('An auction may run at most 30 days');
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: '' }, NOW)).toBe('Choose when the auction ends');
    expect(fieldError('auctionEnds', { ...AUCTION, auctionEnds: 'soon' }, NOW)).toBe('Enter a date and a time');
    // A fixed price ignores the auction's fields.
    expect(validateListing({ ...VALID, auctionEnds: 'soon', reservePrice: 'x' }, undefined, NOW)).toEqual({});
  });

  it('takes an optional reserve in whole dollars, up to $1,000,000 and not below the starting bid', () => {
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '' }, NOW)).toBeUndefined();
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '118500' }, NOW)).toBeUndefined();
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '1,000,000' }, NOW)).toBeUndefined();
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '118499' }, NOW)).toBe('The reserve cannot be below the starting bid');
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '1000001' }, NOW)).toBe('The reserve must be at most $1,000,000');
    expect(fieldError('reservePrice', { ...AUCTION, reservePrice: '150000.50' }, NOW)).toBe('Enter a whole-dollar amount, for example 150000');
    expect(fieldError('price', { ...AUCTION, price: '' }, NOW)).toBe('Enter the starting bid');
  });

  it('sends the end as UTC and the reserve only when set', () => {
    const body = toNewListing(AUCTION, true);
    expect(body.price).toBe(118_500);
    expect(body.auction).toEqual({ endsAt: new Date(NOW.getTime() + 72 * 3_600_000).toISOString(), reservePrice: 150_000 });
    expect(toNewListing({ ...AUCTION, reservePrice: ' ' }, true).auction).toEqual({ endsAt: body.auction!.endsAt });
    expect(toNewListing(VALID, true)).not.toHaveProperty('auction');
  });

  it("fills the form from an auction listing and maps the server's auction errors onto its fields", () => {
    const values = listingFormValues({ ...toNewListing(VALID, false), auction: { endsAt: '2026-06-08T18:30:00.000Z', reservePrice: 150_000 } });
    expect(values).toMatchObject({ saleType: 'auction', reservePrice: '150,000', auctionEnds: toLocalInput(Date.parse('2026-06-08T18:30:00.000Z')) });
    expect(errorsFromDetails([
      { field: 'auction.endsAt', message: 'An auction must run at least until 2026-06-02T12:00:00.000Z' },
      { field: '/auction/reservePrice', message: 'reservePrice must be <= 1000000' },
    ]).fields).toEqual({ auctionEnds: 'An auction must run at least until 2026-06-02T12:00:00.000Z', reservePrice: 'reservePrice must be <= 1000000' });
  });
});
