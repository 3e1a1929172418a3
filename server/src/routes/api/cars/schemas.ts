import { Type } from 'typebox';
import { CAR_STATUSES } from '@common/api-types.ts';
import { AUCTION_OUTCOMES } from '@common/auction-rules.ts';
import { CAR_BODY_STYLES, CAR_CONDITIONS } from '../../../../../db/schema/index.ts';
import { IsoDateTime, StringEnum } from '../../../lib/schemas.ts';
import { DEFAULT_PAGE_SIZE, LISTING_FILTERS, LISTING_SORTS, MAX_PAGE_SIZE } from '../../../services/cars.ts';

export const ListingQuerySchema = Type.Object({
  search: Type.Optional(
    Type.String({ maxLength: 100, description: 'Matches make, model or year (a 4-digit number matches the year exactly). Case, accents and small typos do not matter.' }),
  ),
  filter: Type.Optional(StringEnum(LISTING_FILTERS, { default: 'all', description: 'luxury: price >= $100,000; sports: sports body style; below-market: price < market value; auctions: live auctions' })),
  sort: Type.Optional(StringEnum(LISTING_SORTS, { default: 'price-low', description: 'popular: most live viewers, then most bids, then newest; ending-soon: auctions by their end first' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
});

const auctionSummaryFields = {
  endsAt: { ...IsoDateTime, description: 'When bidding closes; a bid near the end moves it later (soft close)' },
  reserveMet: Type.Boolean({ description: 'The highest bid meets the reserve (true when there is no reserve)' }),
  ended: Type.Boolean(),
  hasReserve: Type.Boolean(),
  extensions: Type.Integer({ description: 'Late bids that moved the end' }),
};

export const AuctionSummarySchema = Type.Object(auctionSummaryFields, { title: 'AuctionSummary' });

export const AuctionDetailSchema = Type.Object(
  {
    ...auctionSummaryFields,
    outcome: Type.Union([StringEnum(AUCTION_OUTCOMES), Type.Null()], { description: 'Set once the auction has closed' }),
    reservePrice: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: "Only in the seller's own view" })),
    acceptUntil: Type.Union([IsoDateTime, Type.Null()], { description: 'Reserve not met: until when the seller may accept the highest bid' }),
  },
  { title: 'AuctionDetail' },
);

export const CarListItemSchema = Type.Object(
  {
    id: Type.Integer(),
    year: Type.Integer(),
    make: Type.String(),
    model: Type.String(),
    price: Type.Integer({ description: 'Asking price, whole US dollars' }),
    market_value: Type.Union([Type.Integer(), Type.Null()], { description: 'Estimated from comparable cars; null when there are fewer than three' }),
    condition: Type.String(),
    location: Type.String(),
    primary_image: Type.Union([Type.String(), Type.Null()]),
    seller_name: Type.String(),
    seller_verified: Type.Boolean(),
    mileage: Type.Integer(),
    current_bids: Type.Integer(),
    highest_bid: Type.Union([Type.Integer(), Type.Null()], { description: 'Extension: the highest bid so far, null before the first' }),
    viewing_count: Type.Integer({ description: 'Live number of viewers in the car room' }),
    auction: Type.Union([AuctionSummarySchema, Type.Null()], { description: 'Null for a fixed-price listing' }),
  },
  { title: 'CarListItem' },
);

export const PaginationSchema = Type.Object(
  { page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() },
  { title: 'Pagination' },
);

export const ReviewSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    userId: Type.Union([Type.Integer(), Type.Null()]),
    userName: Type.String(),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    comment: Type.String(),
    date: IsoDateTime,
    verified: Type.Boolean(),
  },
  { title: 'Review' },
);

const ImageVariant = Type.Object({ webp: Type.String(), jpeg: Type.String() });

export const CarPhotoSchema = Type.Object(
  { width: Type.Integer(), height: Type.Integer(), card: ImageVariant, gallery: ImageVariant },
  { title: 'CarPhoto', description: 'card: about 640 wide; gallery: about 1600 wide; WebP with a JPEG twin' },
);

export const CarDetailSchema = Type.Object(
  {
    id: Type.Integer(),
    status: StringEnum(CAR_STATUSES, {
      description: 'draft (its seller only), active (listed), pending (an escrow order holds the payment), sold, ended (auction closed) or withdrawn',
    }),
    auction: Type.Union([AuctionDetailSchema, Type.Null()], { description: 'Null for a fixed-price listing' }),
    serverTime: { ...IsoDateTime, description: "The server's clock when it answered: correct countdowns for the viewer's clock" },
    make: Type.String(),
    model: Type.String(),
    year: Type.Integer(),
    price: Type.Integer(),
    marketValue: Type.Union([Type.Integer(), Type.Null()], { description: 'Estimated from comparable cars (see /api/cars/{id}/valuation); null when there are fewer than three' }),
    marketValueBasis: Type.Union([StringEnum(['comparables', 'reference'] as const), Type.Null()], {
      description: 'comparables: estimated from comparable listings and sales; reference: the sample catalogue value',
    }),
    mileage: Type.Integer(),
    condition: Type.String(),
    images: Type.Array(Type.String(), { description: 'Gallery images in order (uploaded photos as WebP about 1600 wide)' }),
    photos: Type.Array(CarPhotoSchema, { description: 'The uploaded photos in every size; empty for illustrated sample cars' }),
    description: Type.String(),
    seller: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      rating: Type.Number(),
      verified: Type.Boolean(),
      userId: Type.Union([Type.Integer(), Type.Null()], { description: 'The account behind the seller' }),
    }),
    currentBids: Type.Integer(),
    highestBid: Type.Union([Type.Integer(), Type.Null()]),
    viewingCount: Type.Integer(),
    location: Type.String(),
    features: Type.Array(Type.String()),
    bodyStyle: Type.String(),
    reviews: Type.Array(ReviewSchema),
  },
  { title: 'CarDetail' },
);

const Text = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '\\S', ...(description ? { description } : {}) });

const listingFields = {
  make: Text(1, 60),
  model: Text(1, 60),
  year: Type.Integer({ minimum: 1900, maximum: 2100, description: 'Model year, from 1900 to next year' }),
  price: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Asking price, whole US dollars' }),
  mileage: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  condition: StringEnum(CAR_CONDITIONS),
  location: Text(1, 120),
  description: Text(1, 5_000),
  features: Type.Array(Text(1, 80), { maxItems: 40 }),
  bodyStyle: StringEnum(CAR_BODY_STYLES),
};

export const NewListingSchema = Type.Object(
  {
    ...listingFields,
    auction: Type.Optional(
      Type.Object(
        {
          endsAt: { ...IsoDateTime, description: 'At least AUCTION_MIN_SECONDS (default one day) and at most 30 days ahead' },
          reservePrice: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Never shown to anyone but the seller' })),
        },
        { additionalProperties: false, description: 'Sell at a timed auction: price is then the starting bid' },
      ),
    ),
    draft: Type.Optional(Type.Boolean({ description: 'Extension: keep the listing off the market until it is published' })),
  },
  {
    additionalProperties: false,
    title: 'NewListing',
    examples: [
      {
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
      },
    ],
  },
);

export const ListingEditSchema = Type.Object(
  {
    price: Type.Optional(listingFields.price),
    description: Type.Optional(listingFields.description),
    features: Type.Optional(listingFields.features),
    mileage: Type.Optional(listingFields.mileage),
    location: Type.Optional(listingFields.location),
    condition: Type.Optional(listingFields.condition),
  },
  { additionalProperties: false, title: 'ListingEdit', examples: [{ price: 112_000 }] },
);
