import { EventEmitter } from 'node:events';
import type { ChatMessage, ChatUpdated } from '@common/schemas/chat.ts';
import type { Notification } from '@common/schemas/notifications.ts';
import type { Offer } from '@common/schemas/offers.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import type { AuctionResult, BidPlaced, CarStatusEvent } from '@common/socket-events.ts';

/**
 * Domain events, published by services after their transaction has committed. The real-time
 * layer subscribes and maps them to rooms; nothing is published for a write that rolled back.
 */
export interface DomainEvents {
  /** A session ended (logout, reuse of a spent refresh token, password reset). */
  'session.revoked': { sessionId: string; userId: number; reason: string };
  /** A visible message, for the car's viewers. */
  'chat.posted': { message: ChatMessage };
  /** A message the contact guard held: only its author's own sockets hear of it. */
  'chat.held': { message: ChatMessage; userId: number };
  /** A message's upvotes or visible replies changed. */
  'chat.updated': ChatUpdated;
  /** A message left everyone's view (held by reports, removed); `authorId` still sees their held copy go. */
  'chat.removed': { carId: number; id: number; authorId: number | null };
  /** `endsAt`: the auction's end after this bid (null for a fixed-price listing). */
  'bid.placed': BidPlaced;
  'notification.created': { userId: number; notification: Notification; unreadCount: number };
  'notifications.read': { userId: number; unreadCount: number };
  /** An order changed (status, shipment, payout): both parties' screens follow it. */
  'order.updated': { order: OrderWithEvents; userIds: number[] };
  /** An offer moved: both parties' screens follow it. */
  'offer.updated': { offer: Offer; userIds: number[] };
  /** A listing left or returned to the market (sale pending, sold, relisted, withdrawn). */
  'car.status': CarStatusEvent;
  /** A listing was created or changed (details, price, photos, market value). */
  'listing.changed': { carId: number };
  /** An auction closed: how it ended, for the car's viewers. */
  'auction.ended': AuctionResult;
}

export type DomainEventName = keyof DomainEvents;

export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  publish<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  subscribe<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
