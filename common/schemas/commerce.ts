import { Type, type Static } from 'typebox';
import { MAX_BID_AMOUNT, MIN_BID_AMOUNT } from '../bid-rules.ts';
import { POSTABLE_CHAT_MESSAGE_TYPES, PAYMENT_METHODS, SUPPORT_CATEGORIES, SUPPORT_PRIORITIES } from '../enums.ts';
import { DEFAULT_ESCROW_PLAN, ESCROW_PLAN_IDS } from '../escrow-plans.ts';
import { OFFER_MESSAGE_MAX } from '../offer-lifecycle.ts';
import { Email } from './auth.ts';
import { DisputeItemsField } from './dossier.ts';
import { Id, StringEnum, Text, messages, strict } from './kit.ts';

/** Bodies of bids, chat, orders and their moves, support tickets, testimonials and the watchlist. */

export const PlaceBidSchema = Type.Object(
  {
    carId: Id(),
    amount: Type.Integer({ minimum: MIN_BID_AMOUNT, maximum: MAX_BID_AMOUNT, description: 'Whole US dollars' }),
    maxAmount: Type.Optional(
      Type.Integer({
        minimum: MIN_BID_AMOUNT,
        maximum: MAX_BID_AMOUNT,
        description:
          'Optional maximum (proxy bid), whole US dollars, at least `amount` (else 400): the server bids for you, one increment at a time, up to it. Private to you. Without it the bid counts as a maximum equal to its amount.',
      }),
    ),
  },
  strict,
);
export type PlaceBid = Static<typeof PlaceBidSchema>;

export const CHAT_MESSAGE_MAX_LENGTH = 1_000;
export const CHAT_PAGE_DEFAULT = 50;
export const CHAT_PAGE_MAX = 100;

export const PostChatSchema = Type.Object(
  {
    carId: Id(),
    message: Type.String({ minLength: 1, maxLength: CHAT_MESSAGE_MAX_LENGTH }),
    type: Type.Optional(StringEnum(POSTABLE_CHAT_MESSAGE_TYPES, { default: 'message', description: 'Clients cannot post `bid` messages' })),
    parentId: Type.Optional(Id({ description: 'Reply to this top-level message of the same car (one level of replies)' })),
  },
  strict,
);
export type PostChat = Static<typeof PostChatSchema>;

export const ChatPageQuerySchema = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'Only messages with a greater id (for catching up after a reconnect)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHAT_PAGE_MAX, default: CHAT_PAGE_DEFAULT })),
});

export const PlaceOrderSchema = Type.Object(
  {
    carId: Id(),
    amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Whole US dollars: the asking price' }),
    plan: Type.Optional(StringEnum(ESCROW_PLAN_IDS, { default: DEFAULT_ESCROW_PLAN })),
  },
  { ...strict, examples: [{ carId: 3, amount: 189_500, plan: 'premium' }] },
);
export type PlaceOrder = Static<typeof PlaceOrderSchema>;

export const SHIPMENT_FIELD_MAX = 100;
export const DISPUTE_REASON_MAX = 2_000;
export const CANCEL_REASON_MAX = 500;

const withinCharacters = (max: number) => ({ maxLength: `Use at most ${max.toLocaleString('en-US')} characters.` });

/** The body of each move a party may request (`POST /api/orders/:id/<action>`). */
export const ORDER_ACTION_BODIES = {
  pay: Type.Object({ method: Type.Optional(StringEnum(PAYMENT_METHODS, { default: 'wire' })) }, strict),
  ship: Type.Object(
    {
      carrier: Text(1, SHIPMENT_FIELD_MAX, messages({ default: 'Enter the carrier that is transporting the car.', ...withinCharacters(SHIPMENT_FIELD_MAX) })),
      trackingNumber: Text(1, SHIPMENT_FIELD_MAX, messages({ default: 'Enter the tracking number the carrier gave you.', ...withinCharacters(SHIPMENT_FIELD_MAX) })),
    },
    { ...strict, examples: [{ carrier: 'Reliable Carriers', trackingNumber: 'RC-2231-884' }] },
  ),
  'confirm-delivery': Type.Object({}, strict),
  accept: Type.Object({}, strict),
  dispute: Type.Object(
    {
      reason: Text(1, DISPUTE_REASON_MAX, messages({ default: 'Describe what is wrong with the car, so our escrow team can review it.', ...withinCharacters(DISPUTE_REASON_MAX) })),
      items: Type.Optional(DisputeItemsField),
    },
    strict,
  ),
  cancel: Type.Object({ reason: Type.Optional(Text(1, CANCEL_REASON_MAX, messages(withinCharacters(CANCEL_REASON_MAX)))) }, strict),
} as const;
export type OrderActionBodies = { [A in keyof typeof ORDER_ACTION_BODIES]: Static<(typeof ORDER_ACTION_BODIES)[A]> };

const offerAmount = (description: string) =>
  Type.Integer({
    minimum: 1,
    maximum: MAX_BID_AMOUNT,
    description,
    ...messages({ default: 'Enter the amount in whole dollars.', minimum: 'Enter an amount of at least $1.' }),
  });

export const MakeOfferSchema = Type.Object(
  {
    amount: offerAmount('Whole US dollars: below the asking price on a fixed-price listing (else 400); any amount up to $1,000,000 on an auction that ended with its reserve not met'),
    message: Type.Optional(Text(1, OFFER_MESSAGE_MAX, messages(withinCharacters(OFFER_MESSAGE_MAX)))),
  },
  { ...strict, examples: [{ amount: 172_000, message: 'Cash buyer, can collect next week.' }] },
);
export type MakeOffer = Static<typeof MakeOfferSchema>;

/** The body of each move on an offer (`POST /api/offers/:id/<move>`). */
export const OFFER_MOVE_BODIES = {
  counter: Type.Object(
    { amount: offerAmount('Whole US dollars, strictly between the two sides\' last amounts (else 400)') },
    { ...strict, examples: [{ amount: 180_000 }] },
  ),
  accept: Type.Object({}, strict),
  decline: Type.Object({}, strict),
  withdraw: Type.Object({}, strict),
} as const;
export type OfferMoveBodies = { [M in keyof typeof OFFER_MOVE_BODIES]: Static<(typeof OFFER_MOVE_BODIES)[M]> };

export const SecondChanceSchema = Type.Object({}, strict);

export const SUBJECT_MAX = 150;
export const TICKET_MESSAGE_MAX = 5_000;

export const NewTicketSchema = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX, ...messages({ default: 'Subject is required', maxLength: `Subject must be at most ${SUBJECT_MAX} characters` }) }),
    message: Type.String({ minLength: 1, maxLength: TICKET_MESSAGE_MAX, ...messages({ default: 'Message is required', maxLength: `Message must be at most ${TICKET_MESSAGE_MAX} characters` }) }),
    category: Type.Optional(StringEnum(SUPPORT_CATEGORIES, { default: 'general' })),
    priority: Type.Optional(StringEnum(SUPPORT_PRIORITIES, { default: 'normal' })),
    email: Type.Optional(Email),
  },
  { ...strict, examples: [{ subject: 'Inspection before purchase', message: 'Can I choose the inspection shop?', category: 'escrow', priority: 'normal', email: 'buyer@example.com' }] },
);
export type NewTicket = Static<typeof NewTicketSchema>;

export const COMMENT_MIN = 10;
export const COMMENT_MAX = 2_000;
export const TESTIMONIAL_DETAIL_MAX = 100;

export const NewTestimonialSchema = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5, ...messages({ default: 'Please choose a rating' }) }),
    comment: Text(COMMENT_MIN, COMMENT_MAX, messages({
      required: 'Comment is required',
      pattern: 'Comment is required',
      minLength: `Comment must be at least ${COMMENT_MIN} characters`,
      maxLength: `Comment must be at most ${COMMENT_MAX} characters`,
    })),
    carPurchased: Type.Optional(Type.String({ maxLength: TESTIMONIAL_DETAIL_MAX, ...messages({ maxLength: `Car must be at most ${TESTIMONIAL_DETAIL_MAX} characters` }) })),
    location: Type.Optional(Type.String({ maxLength: TESTIMONIAL_DETAIL_MAX, ...messages({ maxLength: `Location must be at most ${TESTIMONIAL_DETAIL_MAX} characters` }) })),
  },
  {
    ...strict,
    examples: [{ rating: 5, comment: 'Inspection report was thorough and the seller answered every question.', carPurchased: '2021 McLaren 720S', location: 'Austin, TX' }],
  },
);
export type NewTestimonial = Static<typeof NewTestimonialSchema>;

export const WatchSchema = Type.Object({ carId: Id() }, { ...strict, examples: [{ carId: 3 }] });
