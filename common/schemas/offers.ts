import { Type, type Static } from 'typebox';
import { OFFER_ACTORS, OFFER_HISTORY_ACTIONS, OFFER_PARTIES, OFFER_STATUSES } from '../offer-lifecycle.ts';
import { IsoDateTime, Nullable, StringEnum } from './kit.ts';

/** What the offer routes answer; `offer:updated` pushes the same offer. */

/** One line of an offer's thread, oldest first. */
export const OfferHistoryEntrySchema = Type.Object({ by: StringEnum(OFFER_ACTORS), action: StringEnum(OFFER_HISTORY_ACTIONS), amount: Type.Integer(), at: IsoDateTime });
export type OfferHistoryEntry = Static<typeof OfferHistoryEntrySchema>;

/** A private offer between one buyer and a car's seller. */
export const OfferSchema = Type.Object(
  {
    id: Type.Integer(),
    carId: Type.Integer(),
    buyer: Type.Object({ id: Type.Integer(), name: Type.String() }),
    sellerId: Type.Integer({ description: 'The seller (as in CarDetail.seller.id)' }),
    amount: Type.Integer({ description: 'The amount on the table, whole US dollars' }),
    by: { ...StringEnum(OFFER_PARTIES), description: 'Who put the amount on the table; the other party answers it' },
    status: StringEnum(OFFER_STATUSES),
    expiresAt: { ...IsoDateTime, description: 'An open offer expires then: 2 escrow days after its last move (1 for a second-chance offer)' },
    orderId: Nullable({ ...Type.Integer(), description: 'The escrow order, once accepted' }),
    history: Type.Array(OfferHistoryEntrySchema, { description: 'Every move, oldest first; `by: "system"` for an expiry or a decline by the server' }),
    secondChance: Type.Boolean({ description: "Sent by the seller to an auction's runner-up" }),
    message: Nullable({ ...Type.String(), description: "Extension: the buyer's note with the opening offer" }),
    sellerName: Type.String({ description: 'Extension' }),
    car: Type.Object(
      {
        id: Type.Integer(),
        year: Type.Integer(),
        make: Type.String(),
        model: Type.String(),
        primaryImage: Nullable(Type.String()),
        price: Type.Integer({ description: "The asking price, or an auction's starting price" }),
        isAuction: Type.Boolean(),
        status: Type.String(),
      },
      { description: 'Extension: the car, so lists need no second request' },
    ),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { title: 'Offer' },
);
export type Offer = Static<typeof OfferSchema>;

/** `GET /api/offers`: as buyer and as seller, newest first. */
export const OffersSchema = Type.Object({ offers: Type.Array(OfferSchema) });
export type Offers = Static<typeof OffersSchema>;
