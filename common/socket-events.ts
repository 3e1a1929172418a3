import { Type, type Static, type TSchema } from 'typebox';
import { AUCTION_OUTCOMES } from './auction-rules.ts';
import { CAR_STATUSES } from './car-lifecycle.ts';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { RecordedBidSchema } from './schemas/bids.ts';
import { ChatMessageSchema, ChatRemovedSchema, ChatUpdatedSchema } from './schemas/chat.ts';
import { IsoDateTime, Nullable, StringEnum, strict } from './schemas/kit.ts';
import { NotificationSchema } from './schemas/notifications.ts';
import { OfferSchema } from './schemas/offers.ts';
import { OrderWithEventsSchema } from './schemas/orders.ts';

/**
 * The Socket.IO events of the contract, both ways, each payload a schema: the server's `Server`
 * and the web client's socket are typed with the maps built from them, and the tests check every
 * pushed payload against its schema, so an event name or payload changes in one place only.
 */

// ── Server → client ──────────────────────────────────────────────────────────────────────────

/** Pushed payloads carry the server's send time (epoch ms) for latency measurement. */
export type Stamped<T> = T & { emittedAt: number };
const emittedAt = Type.Integer({ description: "The server's send time, epoch milliseconds" });
const stamped = <T extends Record<string, TSchema>>(fields: T) => Type.Object({ ...fields, emittedAt });

/** How an auction closed (`auction:ended`). */
export const AuctionResultSchema = Type.Object({
  carId: Type.Integer(),
  outcome: StringEnum(AUCTION_OUTCOMES),
  highestBid: Nullable(Type.Integer()),
  winnerId: Nullable(Type.Integer()),
  orderId: Nullable(Type.Integer()),
});
export type AuctionResult = Static<typeof AuctionResultSchema>;

/** An accepted bid on a car, with the car's state after it. `endsAt`: the auction's end after the bid, else null. */
export const BidPlacedSchema = Type.Object({
  carId: Type.Integer(),
  bid: RecordedBidSchema,
  currentBids: Type.Integer(),
  highestBid: Type.Integer(),
  endsAt: Nullable(IsoDateTime),
  reserveMet: Nullable(Type.Boolean()),
});
export type BidPlaced = Static<typeof BidPlacedSchema>;

/** A car's listing card changed: any of its live figures (bids, auction end, viewers). */
export const CarSummaryEventSchema = Type.Object({
  carId: Type.Integer(),
  currentBids: Type.Optional(Type.Integer()),
  highestBid: Type.Optional(Nullable(Type.Integer())),
  endsAt: Type.Optional(Nullable(IsoDateTime)),
  reserveMet: Type.Optional(Nullable(Type.Boolean())),
  viewers: Type.Optional(Type.Integer()),
});

export const CarStatusEventSchema = Type.Object({ carId: Type.Integer(), status: StringEnum(CAR_STATUSES) });
export type CarStatusEvent = Static<typeof CarStatusEventSchema>;

/** Each server → client event's payload. */
export const SERVER_EVENT_PAYLOADS = {
  'chat:message': stamped(ChatMessageSchema.properties),
  'bid:placed': stamped(BidPlacedSchema.properties),
  'car:viewers': stamped({ carId: Type.Integer(), count: Type.Integer() }),
  'car:summary': stamped(CarSummaryEventSchema.properties),
  'notification:new': stamped(NotificationSchema.properties),
  'notification:unread': stamped({ unreadCount: Type.Integer() }),
  /** Sent just before the server disconnects the session's sockets. */
  'session:revoked': Type.Object({}),
  /** An order changed (status, shipment, payout): both parties' screens follow it. */
  'order:updated': stamped({ order: OrderWithEventsSchema }),
  /** An offer moved (made, countered, accepted, declined, withdrawn, expired): both parties' screens follow it. */
  'offer:updated': stamped({ offer: OfferSchema }),
  'car:status': stamped(CarStatusEventSchema.properties),
  'auction:ended': stamped(AuctionResultSchema.properties),
  /** A message's upvotes or reply count changed (v4). */
  'chat:updated': stamped(ChatUpdatedSchema.properties),
  /** A message left everyone's view: held by reports or removed by an operator (v4). */
  'chat:removed': stamped(ChatRemovedSchema.properties),
} as const;

export type ServerEventName = keyof typeof SERVER_EVENT_PAYLOADS;
export type ServerEventPayload<E extends ServerEventName> = Static<(typeof SERVER_EVENT_PAYLOADS)[E]>;

export type ServerToClientEvents = { [E in ServerEventName]: (payload: ServerEventPayload<E>) => void };

// ── Client → server ──────────────────────────────────────────────────────────────────────────

/** A refused client event, answered through its acknowledgement. */
export const AckRefusalSchema = Type.Object({ ok: Type.Literal(false), error: Type.String(), code: StringEnum(Object.keys(ERROR_CODES) as ErrorCode[]) });

/** What every client event's acknowledgement receives: `{ok: true, data}` or the refusal. */
export type AckResponse<T> = { ok: true; data: T } | Static<typeof AckRefusalSchema>;
export type Ack<T> = (response: AckResponse<T>) => void;

const CarRoomPayloadSchema = Type.Object({ carId: Type.Integer({ minimum: 1 }) }, strict);
const RoomAckSchema = Type.Object({ carId: Type.Integer(), viewers: Type.Integer() });

/** Each client → server event: its payload and what its acknowledgement carries. */
export const CLIENT_EVENTS = {
  /** Watch one car's room (its discussion, bids, viewers). */
  'car:join': { payload: CarRoomPayloadSchema, ack: RoomAckSchema },
  'car:leave': { payload: CarRoomPayloadSchema, ack: RoomAckSchema },
  /** Follow the listing cards of these cars (`car:summary`, `car:status`). */
  'cars:watch': { payload: Type.Object({ carIds: Type.Array(Type.Integer({ minimum: 1 })) }, strict), ack: Type.Object({ carIds: Type.Array(Type.Integer()) }) },
} as const;

export type ClientEventName = keyof typeof CLIENT_EVENTS;
export type ClientEventPayload<E extends ClientEventName> = Static<(typeof CLIENT_EVENTS)[E]['payload']>;
export type ClientEventAck<E extends ClientEventName> = Static<(typeof CLIENT_EVENTS)[E]['ack']>;

/** Payloads arrive as sent, so the server reads them as unknown and checks them before use. */
export type ClientToServerEvents = { [E in ClientEventName]: (payload: ClientEventPayload<E>, ack?: Ack<ClientEventAck<E>>) => void };
