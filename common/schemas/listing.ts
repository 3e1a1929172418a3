import { Type, type Static } from 'typebox';
import {
  CAR_BODY_STYLES,
  CAR_CONDITIONS,
  DEFAULT_LISTING_FILTER,
  DEFAULT_LISTING_SORT,
  DEFAULT_PAGE_SIZE,
  LISTING_FILTERS,
  LISTING_LIMITS,
  LISTING_SORTS,
  LUXURY_MIN_PRICE,
  MAX_PAGE_SIZE,
  SEARCH_MAX_LENGTH,
} from '../listing.ts';
import { AUCTION_BID_LIMIT } from '../auction-rules.ts';
import { formatUsd } from '../pricing.ts';
import { Id, StringEnum, Text, messages, strict } from './kit.ts';

/** `POST /api/cars`, `PATCH /api/cars/:id` and `GET /api/cars`: the selling form checks the same. */

const count = new Intl.NumberFormat('en-US');

const namedText = (max: number, label: string, empty: string) =>
  Text(1, max, messages({ default: empty, maxLength: `${label} must be at most ${count.format(max)} characters` }));

export const listingFields = {
  make: namedText(LISTING_LIMITS.make, 'Make', 'Enter the make, for example Porsche'),
  model: namedText(LISTING_LIMITS.model, 'Model', 'Enter the model, for example 911 Carrera S'),
  year: Type.Integer({
    minimum: LISTING_LIMITS.firstYear,
    maximum: 2100,
    description: `Model year, from ${LISTING_LIMITS.firstYear} to next year`,
    ...messages({ required: 'Enter the model year', default: `Enter a model year from ${LISTING_LIMITS.firstYear} to next year` }),
  }),
  price: Type.Integer({
    minimum: LISTING_LIMITS.minPrice,
    maximum: LISTING_LIMITS.maxPrice,
    description: 'Asking price, whole US dollars',
    ...messages({
      required: 'Enter the asking price',
      type: 'Enter a whole-dollar amount, for example 125000',
      minimum: `The price must be at least ${formatUsd(LISTING_LIMITS.minPrice)}`,
      maximum: `The price must be at most ${formatUsd(LISTING_LIMITS.maxPrice)}`,
    }),
  }),
  mileage: Type.Integer({
    minimum: 0,
    maximum: LISTING_LIMITS.maxMileage,
    ...messages({
      required: 'Enter the mileage',
      type: 'Enter the mileage in whole miles, for example 12400',
      minimum: 'Enter the mileage in whole miles, for example 12400',
      maximum: `The mileage must be at most ${count.format(LISTING_LIMITS.maxMileage)} miles`,
    }),
  }),
  condition: StringEnum(CAR_CONDITIONS, messages({ default: 'Choose the condition' })),
  location: namedText(LISTING_LIMITS.location, 'Location', 'Enter where the car is, for example Austin, TX'),
  description: namedText(LISTING_LIMITS.description, 'The description', 'Describe the car'),
  features: Type.Array(Text(1, LISTING_LIMITS.feature, messages({ default: `Each feature must be 1 to ${LISTING_LIMITS.feature} characters` })), {
    maxItems: LISTING_LIMITS.features,
    ...messages({ maxItems: `List at most ${LISTING_LIMITS.features} features` }),
  }),
  bodyStyle: StringEnum(CAR_BODY_STYLES, messages({ default: 'Choose a body style' })),
};

/** An auction's reserve: whole dollars. */
export const ReservePrice = Type.Integer({
  minimum: LISTING_LIMITS.minPrice,
  maximum: AUCTION_BID_LIMIT,
  description: 'Never shown to anyone but the seller',
  ...messages({
    type: 'Enter a whole-dollar amount, for example 150000',
    minimum: `The reserve must be at least ${formatUsd(LISTING_LIMITS.minPrice)}`,
    maximum: `The reserve must be at most ${formatUsd(AUCTION_BID_LIMIT)}`,
  }),
});

export const AuctionTermsSchema = Type.Object(
  {
    endsAt: Type.String({
      format: 'date-time',
      description: 'At least AUCTION_MIN_SECONDS (default one day) and at most 30 days ahead',
      ...messages({ required: 'Choose when the auction ends', default: 'Enter a date and a time' }),
    }),
    reservePrice: Type.Optional(ReservePrice),
  },
  { ...strict, description: 'Sell at a timed auction: price is then the starting bid' },
);

/** A listing as the API documents it and the tests send it. */
export const SAMPLE_LISTING = {
  make: 'Porsche',
  model: '911 Carrera S',
  year: 2021,
  price: 118_500,
  mileage: 12_400,
  condition: 'Excellent',
  location: 'Austin, TX',
  description: 'One owner, full service history, paint protection film.',
  features: ['Sport Chrono', 'PDK', 'Bose audio'],
  bodyStyle: 'coupe',
} as const;

export const NewListingSchema = Type.Object(
  {
    ...listingFields,
    auction: Type.Optional(AuctionTermsSchema),
    draft: Type.Optional(Type.Boolean({ description: 'Extension: keep the listing off the market until it is published' })),
  },
  {
    ...strict,
    title: 'NewListing',
    examples: [SAMPLE_LISTING],
  },
);
export type NewListing = Static<typeof NewListingSchema>;

/** The fields a published listing can still change. */
export const EDITABLE_FIELDS = ['price', 'mileage', 'condition', 'location', 'description', 'features'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export const ListingEditSchema = Type.Object(
  {
    price: Type.Optional(listingFields.price),
    description: Type.Optional(listingFields.description),
    features: Type.Optional(listingFields.features),
    mileage: Type.Optional(listingFields.mileage),
    location: Type.Optional(listingFields.location),
    condition: Type.Optional(listingFields.condition),
  },
  { ...strict, title: 'ListingEdit', examples: [{ price: 112_000 }] },
);
export type ListingEdit = Static<typeof ListingEditSchema>;

/**
 * A whole number in a query string, for example `minYear=2015`: plain decimal digits only. The
 * server's query validator reads text as a number the way JavaScript does, so `0x7df`, `1e5`,
 * ` 2015` and `2015.0` would pass as 2015 or 100000; the digits are checked on the text first
 * (a JSON body's numbers pass that check untouched and meet the integer rule alone).
 */
export const QueryInteger = (name: string, options: { minimum: number; maximum: number; description?: string; default?: number }) =>
  Type.Unsafe<number>({
    // "Not text other than digits", then the integer rule (which the query validator coerces to).
    allOf: [{ not: { type: 'string', not: { pattern: '^[0-9]+$' } } }, { type: 'integer', minimum: options.minimum, maximum: options.maximum }],
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.default !== undefined ? { default: options.default } : {}),
    // The words of the integer rule's own message: text like `0x7df` is not a whole number here.
    ...messages({ not: `${name} must be a whole number` }),
  });

/**
 * What a search for cars can name: `GET /api/cars` and saved searches share these (a saved
 * search stores the same criteria it would send to the listing).
 */
export const listingCriteriaFields = {
  search: Type.String({ maxLength: SEARCH_MAX_LENGTH, description: 'Matches make, model or year (a 4-digit number matches the year exactly). Case, accents and small typos do not matter.' }),
  make: Type.String({ minLength: 1, maxLength: LISTING_LIMITS.make, description: 'Exactly this make (case does not matter)' }),
  model: Type.String({ minLength: 1, maxLength: LISTING_LIMITS.model, description: 'Exactly this model (case does not matter)' }),
  bodyStyle: StringEnum(CAR_BODY_STYLES),
  minYear: QueryInteger('minYear', { minimum: LISTING_LIMITS.firstYear, maximum: 2100, description: 'Model year from' }),
  maxYear: QueryInteger('maxYear', { minimum: LISTING_LIMITS.firstYear, maximum: 2100, description: 'Model year up to' }),
  minPrice: QueryInteger('minPrice', { minimum: 0, maximum: LISTING_LIMITS.maxPrice, description: 'Asking price from, whole US dollars' }),
  maxPrice: QueryInteger('maxPrice', { minimum: 0, maximum: LISTING_LIMITS.maxPrice, description: 'Asking price up to, whole US dollars' }),
};

export type ListingCriteria = { [K in keyof typeof listingCriteriaFields]?: Static<(typeof listingCriteriaFields)[K]> };

/** Pairs whose lower bound may not exceed the upper: the second is the field named in the error. */
const RANGES = [
  ['minYear', 'maxYear', 'year'],
  ['minPrice', 'maxPrice', 'price'],
] as const;

/** A range given upside down (`minYear` above `maxYear`): the problems, as `details` entries. */
export function criteriaProblems(criteria: ListingCriteria): { field: string; message: string }[] {
  return RANGES.flatMap(([low, high, what]) => {
    const [from, to] = [criteria[low], criteria[high]];
    return from !== undefined && to !== undefined && from > to ? [{ field: high, message: `The highest ${what} must not be below the lowest` }] : [];
  });
}

/** The criteria, each optional: what a listing query or a saved search may name. */
export const optionalCriteria = {
  search: Type.Optional(listingCriteriaFields.search),
  make: Type.Optional(listingCriteriaFields.make),
  model: Type.Optional(listingCriteriaFields.model),
  bodyStyle: Type.Optional(listingCriteriaFields.bodyStyle),
  minYear: Type.Optional(listingCriteriaFields.minYear),
  maxYear: Type.Optional(listingCriteriaFields.maxYear),
  minPrice: Type.Optional(listingCriteriaFields.minPrice),
  maxPrice: Type.Optional(listingCriteriaFields.maxPrice),
};

export const ListingQuerySchema = Type.Object({
  ...optionalCriteria,
  filter: Type.Optional(StringEnum(LISTING_FILTERS, { default: DEFAULT_LISTING_FILTER, description: `luxury: price >= ${formatUsd(LUXURY_MIN_PRICE)}; sports: sports body style; below-market: price < market value; auctions: live auctions` })),
  sort: Type.Optional(StringEnum(LISTING_SORTS, { default: DEFAULT_LISTING_SORT, description: 'popular: most live viewers, then most bids, then newest; ending-soon: auctions by their end first' })),
  page: Type.Optional(QueryInteger('page', { minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(QueryInteger('limit', { minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
});
export type ListingQuery = Static<typeof ListingQuerySchema>;

export const PhotoOrderSchema = Type.Object(
  { order: Type.Array(Type.Integer({ minimum: 0, maximum: 99 }), { maxItems: 100 }) },
  { ...strict, examples: [{ order: [2, 0, 1] }] },
);

export const AcceptBidSchema = Type.Object({ bidId: Id() }, strict);

/** `DELETE /api/cars/:id/images/:index`: the car and the photo's position (0 is the first). */
export const PhotoIndexParams = Type.Object({ id: Type.String({ maxLength: 20 }), index: Type.String({ maxLength: 3 }) });

