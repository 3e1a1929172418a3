import { Type, type Static } from 'typebox';
import { AUCTION_OUTCOMES } from '../auction-rules.ts';
import { CAR_STATUSES } from '../car-lifecycle.ts';
import { DossierSchema } from './dossier.ts';
import { IsoDateTime, Nullable, StringEnum } from './kit.ts';

/** What the car routes answer: the listing, a car's page, its gallery and its valuation. */

const auctionSummaryFields = {
  endsAt: { ...IsoDateTime, description: 'When bidding closes; a bid near the end moves it later (soft close)' },
  reserveMet: Type.Boolean({ description: 'The highest bid meets the reserve (true when there is no reserve)' }),
  ended: Type.Boolean(),
  hasReserve: Type.Boolean(),
  extensions: Type.Integer({ description: 'Late bids that moved the end' }),
};

/** A timed auction as every visitor sees it (the reserve itself stays the seller's). */
export const AuctionSummarySchema = Type.Object(auctionSummaryFields, { title: 'AuctionSummary' });
export type AuctionSummary = Static<typeof AuctionSummarySchema>;

/** The auction on the car page: the summary, and once it has ended, how it ended. */
export const AuctionDetailSchema = Type.Object(
  {
    ...auctionSummaryFields,
    outcome: Type.Union([StringEnum(AUCTION_OUTCOMES), Type.Null()], { description: 'Set once the auction has closed' }),
    reservePrice: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: "Only in the seller's own view" })),
    acceptUntil: Type.Union([IsoDateTime, Type.Null()], { description: 'Reserve not met: until when the seller may accept the highest bid' }),
  },
  { title: 'AuctionDetail' },
);
export type AuctionDetail = Static<typeof AuctionDetailSchema>;

/** One car in `GET /api/cars` (snake_case, as the listing screen reads it). */
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
export type CarListItem = Static<typeof CarListItemSchema>;

export const PaginationSchema = Type.Object(
  { page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() },
  { title: 'Pagination' },
);
export type Pagination = Static<typeof PaginationSchema>;

/** `GET /api/cars`: one page of the listing. */
export const CarsPageSchema = Type.Object({ cars: Type.Array(CarListItemSchema), pagination: PaginationSchema });
export type CarsPage = Static<typeof CarsPageSchema>;

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
export type Review = Static<typeof ReviewSchema>;

const ImageVariant = Type.Object({ webp: Type.String(), jpeg: Type.String() });

/** One uploaded photo: card (about 640 wide) and gallery (about 1600 wide), WebP with JPEG twins. */
export const CarPhotoSchema = Type.Object(
  { width: Type.Integer(), height: Type.Integer(), card: ImageVariant, gallery: ImageVariant },
  { title: 'CarPhoto', description: 'card: about 640 wide; gallery: about 1600 wide; WebP with a JPEG twin' },
);
export type CarPhoto = Static<typeof CarPhotoSchema>;

const MarketValueBasis = StringEnum(['comparables', 'reference'] as const);

/** `GET /api/cars/:id` (camelCase). */
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
    marketValueBasis: Type.Union([MarketValueBasis, Type.Null()], {
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
    dossier: DossierSchema,
  },
  { title: 'CarDetail' },
);
export type CarDetail = Static<typeof CarDetailSchema>;

/** A car in the short form bids and dashboards show. */
export const CarSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    make: Type.String(),
    model: Type.String(),
    year: Type.Integer(),
    price: Type.Integer(),
    primaryImage: Type.Union([Type.String(), Type.Null()]),
    currentBids: Type.Integer(),
    highestBid: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'CarSummary' },
);
export type CarSummary = Static<typeof CarSummarySchema>;

/** What photo changes answer: `images` (the contract's) and `photos` with every size (extension). */
export const GallerySchema = Type.Object({
  images: Type.Array(Type.String(), { description: 'The gallery after the change, first photo first' }),
  photos: Type.Array(CarPhotoSchema, { description: 'Extension: every size of each uploaded photo, in gallery order' }),
});
export type Gallery = Static<typeof GallerySchema>;

/** `GET /api/cars/:id/valuation`: how the market value is estimated. */
export const ValuationSchema = Type.Object({
  estimate: Nullable(Type.Integer()),
  low: Nullable(Type.Integer()),
  high: Nullable(Type.Integer()),
  basis: Nullable(MarketValueBasis),
  marketValue: Type.Union([Type.Integer(), Type.Null()], { description: 'The value shown with the car' }),
  comparables: Type.Array(
    Type.Object({
      carId: Type.Integer(),
      year: Type.Integer(),
      mileage: Type.Integer(),
      price: Type.Integer({ description: 'Asking price, or the sale price' }),
      source: StringEnum(['listing', 'sale'] as const),
      adjustedPrice: Type.Integer({ description: "The price adjusted to this car's year and mileage" }),
      soldAt: Type.Union([IsoDateTime, Type.Null()], { description: 'Extension: for a sale, when it completed (its result is in GET /api/results); null for a listing' }),
    }),
  ),
  computedAt: IsoDateTime,
});
export type Valuation = Static<typeof ValuationSchema>;

/** `GET /api/users/me/listings`: a seller's listing as they manage it. */
export const OwnListingSchema = Type.Interface([CarListItemSchema], {
  status: StringEnum(CAR_STATUSES),
  highestBid: Type.Union([Type.Integer(), Type.Null()]),
  openOrderId: Type.Union([Type.Integer(), Type.Null()], { description: 'The order holding the payment, else the newest unpaid one' }),
  watchers: Type.Integer({ description: 'People watching the car' }),
  auctionOutcome: Type.Union([StringEnum(AUCTION_OUTCOMES), Type.Null()], { description: 'How the auction closed; null while it runs and for fixed-price listings' }),
  acceptUntil: Type.Union([IsoDateTime, Type.Null()], { description: 'Reserve not met: until when you may accept the highest bid' }),
  secondChance: Type.Union([Type.Object({ buyerName: Type.String(), amount: Type.Integer() }), Type.Null()], {
    description: "The auction's runner-up and their highest bid, when a second-chance offer can go to them now (POST /api/cars/:id/second-chance)",
  }),
});
export type OwnListing = Static<typeof OwnListingSchema>;

export const OwnListingsSchema = Type.Object({ listings: Type.Array(OwnListingSchema) });
export type OwnListings = Static<typeof OwnListingsSchema>;

/** `GET /api/watchlist`: watched cars in the listing shape, most recently added first. */
export const WatchedCarsSchema = Type.Object({ cars: Type.Array(CarListItemSchema) });
export type WatchedCars = Static<typeof WatchedCarsSchema>;

/** What watching or unwatching a car answers. */
export const WatchStateSchema = Type.Object({ carId: Type.Integer(), watching: Type.Boolean() });
export type WatchState = Static<typeof WatchStateSchema>;
