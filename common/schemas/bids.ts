import { Type, type Static } from 'typebox';
import { CarSummarySchema } from './cars.ts';
import { IsoDateTime, StringEnum } from './kit.ts';

/** What the bid routes answer, and the bids inside other answers (pushes, the console). */

const bidFields = {
  id: Type.Integer(),
  carId: Type.Integer(),
  userId: Type.Integer(),
  userName: Type.String(),
  amount: Type.Integer({ description: 'Whole US dollars' }),
  timestamp: IsoDateTime,
};

export const BidSchema = Type.Object(bidFields, { title: 'Bid' });
export type Bid = Static<typeof BidSchema>;

/** A recorded bid as the bids routes and `bid:placed` carry it: every bid says whether the system placed it for a maximum. */
export const RecordedBidSchema = Type.Object(
  {
    ...bidFields,
    auto: Type.Boolean({ description: "True when the system placed this bid for the bidder's maximum (proxy bid); false for a bid placed by hand" }),
  },
  { title: 'RecordedBid' },
);
export type RecordedBid = Static<typeof RecordedBidSchema>;

/**
 * `POST /api/bids` success. `bid` is the bidder's own recorded bid; `car` is the state after
 * every bid the request recorded. `maxAmount` and `leading` are for the bidder alone.
 */
export const PlacedBidSchema = Type.Object({
  bid: { ...RecordedBidSchema, description: "Your own recorded bid (at your maximum when a rival's larger maximum answered it)" },
  car: Type.Object(
    {
      id: Type.Integer(),
      currentBids: Type.Integer(),
      highestBid: Type.Integer(),
      endsAt: Type.Union([IsoDateTime, Type.Null()], { description: "The auction's end after this bid (a bid near the end moves it); null when not an auction" }),
      reserveMet: Type.Union([Type.Boolean(), Type.Null()], { description: 'Whether the highest bid now meets the reserve (true without one); null when not an auction' }),
    },
    { description: 'The car after every bid this request recorded (an automatic bid for a rival may follow yours)' },
  ),
  maxAmount: Type.Integer({ description: "Your maximum for this car now in force (private to you; without maxAmount, your bid's amount or your higher standing maximum)" }),
  leading: Type.Boolean({ description: 'Whether you lead after this bid' }),
});
export type PlacedBid = Static<typeof PlacedBidSchema>;

/** `GET /api/bids/car/:carId`: a car's accepted bids, newest first. */
export const CarBidsSchema = Type.Object({ bids: Type.Array(RecordedBidSchema) });
export type CarBids = Static<typeof CarBidsSchema>;

/** `GET /api/bids/user`: one of the user's bids, with its car and whether it still leads. */
export const UserBidSchema = Type.Interface(
  [RecordedBidSchema],
  {
    car: CarSummarySchema,
    status: StringEnum(['leading', 'outbid'] as const),
    maxAmount: Type.Optional(Type.Integer({ description: 'Your maximum for this car; on your latest bid for the car only' })),
  },
  { title: 'UserBid' },
);
export type UserBid = Static<typeof UserBidSchema>;

export const UserBidsSchema = Type.Object({ bids: Type.Array(UserBidSchema) });
export type UserBids = Static<typeof UserBidsSchema>;
