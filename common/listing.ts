/**
 * What a listing is made of: its enumerations and limits. The database's checks, the server's
 * request schemas (`common/schemas/listing.ts`), the seed, the illustrations and the selling form
 * all read these lists, so a new body style or a longer description is one change here.
 */

export const CAR_BODY_STYLES = ['sports', 'coupe', 'convertible', 'sedan', 'suv', 'wagon'] as const;
export type CarBodyStyle = (typeof CAR_BODY_STYLES)[number];

/** How a body style is named on screen. */
export const BODY_STYLE_LABELS: Record<CarBodyStyle, string> = {
  sedan: 'Sedan',
  coupe: 'Coupe',
  convertible: 'Convertible',
  suv: 'SUV',
  sports: 'Sports',
  wagon: 'Wagon',
};

export const CAR_CONDITIONS = ['Excellent', 'Like New'] as const;
export type CarCondition = (typeof CAR_CONDITIONS)[number];

export const LISTING_LIMITS = {
  make: 60,
  model: 60,
  location: 120,
  description: 5_000,
  feature: 80,
  features: 40,
  firstYear: 1900,
  minPrice: 1,
  maxPrice: 1_000_000,
  maxMileage: 1_000_000,
} as const;

/**
 * Photos per listing, per file and per image (pixels, checked from the header before decoding:
 * above any camera's, a 100-megapixel medium format included, far below a decompression bomb's).
 * Anything else about a photo is judged from its content.
 */
export const PHOTO_LIMITS = {
  maxPhotos: 20,
  maxBytes: 10 * 1024 * 1024,
  maxMegapixels: 120,
} as const;

/** The types a photo may be, as browsers name them, with the file endings that go with them. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PHOTO_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;
/** The accepted types as people read them. */
export const PHOTO_TYPE_NAMES = 'JPEG, PNG or WebP';
/** The largest file as people read it: "10 MB". */
export const PHOTO_MAX_SIZE = `${PHOTO_LIMITS.maxBytes / 1024 / 1024} MB`;
/** What a photo over the size limit is told, by the server and by the selling form alike. */
export const PHOTO_TOO_LARGE_MESSAGE = `Photos can be at most ${PHOTO_MAX_SIZE}`;

/** The listing screen's filters and sorts (`GET /api/cars`). */
export const LISTING_FILTERS = ['all', 'luxury', 'sports', 'below-market', 'auctions'] as const;
export type ListingFilter = (typeof LISTING_FILTERS)[number];
export const LISTING_SORTS = ['price-low', 'price-high', 'year-new', 'year-old', 'popular', 'ending-soon'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export const DEFAULT_LISTING_FILTER: ListingFilter = 'all';
export const DEFAULT_LISTING_SORT: ListingSort = 'price-low';
/** The `luxury` filter: asking price at least this. */
export const LUXURY_MIN_PRICE = 100_000;
export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 50;
/** The most cars one `cars:watch` may name: a page of cards at the largest page size, and some to spare. */
export const MAX_WATCHED_CARS = 60;
export const SEARCH_MAX_LENGTH = 100;

/** Model years run up to next year's models, counted in UTC. */
export function latestModelYear(now: Date = new Date()): number {
  return now.getUTCFullYear() + 1;
}

/** What a model year outside 1900 to next year is told. */
export function modelYearMessage(now: Date = new Date()): string {
  return `Enter a model year from ${LISTING_LIMITS.firstYear} to ${latestModelYear(now)}`;
}

/**
 * Who may open a car's page: everyone, except a draft (its seller only) and a car hidden by an
 * operator (its seller and staff). Anyone else is told it does not exist.
 */
export function carVisibleTo(status: string, viewer: { isSeller: boolean; isStaff: boolean }): boolean {
  if (status === 'draft') return viewer.isSeller;
  if (status === 'hidden') return viewer.isSeller || viewer.isStaff;
  return true;
}
