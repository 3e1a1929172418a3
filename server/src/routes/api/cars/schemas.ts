import { Type } from 'typebox';
import { CAR_STATUSES } from '../../../../../common/api-types.ts';
import { IsoDateTime, StringEnum } from '../../../lib/schemas.ts';
import { DEFAULT_PAGE_SIZE, LISTING_FILTERS, LISTING_SORTS, MAX_PAGE_SIZE } from '../../../services/cars.ts';

export const ListingQuerySchema = Type.Object({
  search: Type.Optional(
    Type.String({ maxLength: 100, description: 'Matches make, model or year (a 4-digit number matches the year exactly). Case, accents and small typos do not matter.' }),
  ),
  filter: Type.Optional(StringEnum(LISTING_FILTERS, { default: 'all', description: 'luxury: price >= $100,000; sports: sports body style; below-market: price < market value' })),
  sort: Type.Optional(StringEnum(LISTING_SORTS, { default: 'price-low', description: 'popular: most live viewers, then most bids, then newest' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
});

export const CarListItemSchema = Type.Object(
  {
    id: Type.Integer(),
    year: Type.Integer(),
    make: Type.String(),
    model: Type.String(),
    price: Type.Integer({ description: 'Asking price, whole US dollars' }),
    market_value: Type.Integer(),
    condition: Type.String(),
    location: Type.String(),
    primary_image: Type.Union([Type.String(), Type.Null()]),
    seller_name: Type.String(),
    seller_verified: Type.Boolean(),
    mileage: Type.Integer(),
    current_bids: Type.Integer(),
    viewing_count: Type.Integer({ description: 'Live number of viewers in the car room' }),
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

export const CarDetailSchema = Type.Object(
  {
    id: Type.Integer(),
    status: StringEnum(CAR_STATUSES, { description: 'active (listed), pending (an escrow order holds the payment), sold, ended (auction closed unsold) or withdrawn' }),
    make: Type.String(),
    model: Type.String(),
    year: Type.Integer(),
    price: Type.Integer(),
    marketValue: Type.Integer(),
    mileage: Type.Integer(),
    condition: Type.String(),
    images: Type.Array(Type.String()),
    description: Type.String(),
    seller: Type.Object({ id: Type.Integer(), name: Type.String(), rating: Type.Number(), verified: Type.Boolean() }),
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
