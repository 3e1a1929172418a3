import { Type } from 'typebox';
import { CAR_STATUSES } from '@common/car-lifecycle.ts';
import { AUCTION_OUTCOMES } from '@common/auction-rules.ts';
import { IsoDateTime, StringEnum } from '../../../lib/schemas.ts';

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
