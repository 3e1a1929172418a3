import type { AuctionResult, Bid, ChatMessage, Notification, Offer, OrderWithEvents } from './api-types.ts';
import type { CarStatus } from './car-lifecycle.ts';
import type { ErrorCode } from './error-codes.ts';

/**
 * The Socket.IO events of the contract, both ways: the server's `Server` and the web client's
 * socket are typed with these maps, so an event name or payload can change in one place only.
 */

export type Ack<T> = (response: { ok: true; data: T } | { ok: false; error: string; code: ErrorCode }) => void;

/** Pushed payloads carry the server's send time (epoch ms) for latency measurement. */
export type Stamped<T> = T & { emittedAt: number };

export interface ServerToClientEvents {
  'chat:message': (message: Stamped<ChatMessage>) => void;
  'bid:placed': (event: Stamped<{ carId: number; bid: Bid; currentBids: number; highestBid: number; endsAt: string | null; reserveMet: boolean | null }>) => void;
  'car:viewers': (event: Stamped<{ carId: number; count: number }>) => void;
  'car:summary': (event: Stamped<{ carId: number; currentBids?: number; highestBid?: number | null; endsAt?: string | null; reserveMet?: boolean | null; viewers?: number }>) => void;
  'notification:new': (notification: Stamped<Notification>) => void;
  'notification:unread': (event: Stamped<{ unreadCount: number }>) => void;
  'session:revoked': (event: Record<string, never>) => void;
  'order:updated': (event: Stamped<{ order: OrderWithEvents }>) => void;
  /** An offer moved (made, countered, accepted, declined, withdrawn, expired): both parties' screens follow it. */
  'offer:updated': (event: Stamped<{ offer: Offer }>) => void;
  'car:status': (event: Stamped<{ carId: number; status: CarStatus }>) => void;
  'auction:ended': (event: Stamped<AuctionResult>) => void;
}

export interface ClientToServerEvents {
  'car:join': (payload: unknown, ack?: Ack<{ carId: number; viewers: number }>) => void;
  'car:leave': (payload: unknown, ack?: Ack<{ carId: number; viewers: number }>) => void;
  'cars:watch': (payload: unknown, ack?: Ack<{ carIds: number[] }>) => void;
}

