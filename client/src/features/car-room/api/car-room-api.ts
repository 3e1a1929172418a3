import { AUCTION_OUTCOMES, type AuctionOutcome } from '@common/auction-rules.ts';
import { api } from '../../../lib/api-client.ts';
import type { AuctionResult, BidPlaced, CarStatusEvent } from '@common/socket-events.ts';
import type { CarBids, PlacedBid, RecordedBid, UserBids } from '@common/schemas/bids.ts';
import type { CarDetail, Valuation } from '@common/schemas/cars.ts';
import type { CarQuestion, CarQuestions, ChatMessage, ChatPage, ChatRemoved, ChatReported, ChatUpdated, ChatVote, ReportChat } from '@common/schemas/chat.ts';
import type { ChatMessageType } from '@common/enums.ts';
import { CHAT_AUTHOR_TAGS, CHAT_MESSAGE_STATUSES, type ChatAuthorTag, type ChatMessageStatus } from '@common/discussion.ts';
import type { OrderWithEvents, Order, Orders } from '@common/schemas/orders.ts';
import { CAR_STATUSES, type CarStatus } from '@common/car-lifecycle.ts';

export type { AuctionResult, BidPlaced } from '@common/socket-events.ts';
export type { PlacedBid, RecordedBid } from '@common/schemas/bids.ts';
export type { CarDetail, Review, Valuation } from '@common/schemas/cars.ts';
export type { CarQuestion, CarQuestions, ChatMessage, ChatRemoved, ChatUpdated, ChatVote, ReportChat } from '@common/schemas/chat.ts';
export type { ChatAuthorTag, ChatReportReason } from '@common/discussion.ts';
export { CHAT_REPORT_NOTE_MAX_LENGTH, CHAT_REPORT_REASONS, HELD_MESSAGE_NOTICE } from '@common/discussion.ts';
export type { ChatMessageType } from '@common/enums.ts';
export type { Order, OrderWithEvents } from '@common/schemas/orders.ts';
export type { CarStatus } from '@common/car-lifecycle.ts';

export { CHAT_MESSAGE_MAX_LENGTH, CHAT_PAGE_MAX } from '@common/schemas/commerce.ts';
/** Messages shown when a room opens. */
export const CHAT_INITIAL_LIMIT = 50;

/** `GET /api/cars/:id`, also the key of a server-rendered car page's answer. */
export const carDetailPath = (carId: number) => `/api/cars/${carId}`;

export function getCarDetail(carId: number, signal?: AbortSignal): Promise<CarDetail> {
  return api.get<CarDetail>(carDetailPath(carId), { signal });
}

/** `GET /api/cars/:id/valuation`, as a server-drawn car page keys its answer. */
export const valuationPath = (carId: number) => `/api/cars/${carId}/valuation`;

export function getValuation(carId: number, signal?: AbortSignal): Promise<Valuation> {
  return api.get<Valuation>(valuationPath(carId), { signal });
}

/** Oldest first: the latest `limit` messages, or those after message `after`. */
export async function getChatMessages(
  carId: number,
  options: { after?: number; limit?: number; signal?: AbortSignal } = {},
): Promise<ChatMessage[]> {
  const data = await api.get<ChatPage>(`/api/chat/car/${carId}`, {
    query: { after: options.after, limit: options.limit },
    signal: options.signal,
  });
  return data.messages;
}

/** A message, or with `parentId` a reply to that top-level message. */
export function postChatMessage(carId: number, message: string, type: 'message' | 'question', parentId?: number): Promise<ChatMessage> {
  return api.post<ChatMessage>('/api/chat', { carId, message, type, ...(parentId !== undefined ? { parentId } : {}) });
}

/** Upvotes message `messageId` (again: counted once) or, with `on` false, takes the vote back. */
export function voteOnMessage(messageId: number, on: boolean): Promise<ChatVote> {
  const path = `/api/chat/${messageId}/upvote`;
  return on ? api.post<ChatVote>(path) : api.delete<ChatVote>(path);
}

export function reportMessage(messageId: number, report: ReportChat): Promise<ChatReported> {
  return api.post<ChatReported>(`/api/chat/${messageId}/report`, report);
}

/** `GET /api/cars/:id/questions`, also the key of a server-drawn car page's answer. */
export const questionsPath = (carId: number) => `/api/cars/${carId}/questions`;

/** The Seller Q&A: visible questions with the seller's answers, answered first, then newest first. */
export async function getQuestions(carId: number, signal?: AbortSignal): Promise<CarQuestion[]> {
  return (await api.get<CarQuestions>(questionsPath(carId), { signal })).questions;
}

/** Newest first. */
export async function getBids(carId: number, signal?: AbortSignal): Promise<RecordedBid[]> {
  const data = await api.get<CarBids>(`/api/bids/car/${carId}`, { signal });
  return data.bids;
}

/**
 * `idempotencyKey` makes a repeated submission (double click, retry after a lost answer) count once.
 * `maxAmount`: the bidder's maximum (proxy bid), private to them.
 */
export function placeBid(carId: number, amount: number, idempotencyKey: string, maxAmount?: number): Promise<PlacedBid> {
  return api.post<PlacedBid>('/api/bids', { carId, amount, ...(maxAmount !== undefined ? { maxAmount } : {}) }, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** The signed-in user's maximum for the car (on their latest bid for it), or null without one. */
export async function getMyMaximum(carId: number, signal?: AbortSignal): Promise<number | null> {
  const data = await api.get<UserBids>('/api/bids/user', { signal });
  const latest = data.bids.find((b) => b.carId === carId);
  return typeof latest?.maxAmount === 'number' ? latest.maxAmount : null;
}

/**
 * `POST /api/cars/:id/accept-bid`: the seller sells to the highest bidder (after a reserve-not-met
 * close, for one escrow day). One key per confirmation: a retry cannot order twice.
 */
export function acceptHighestBid(carId: number, bidId: number, idempotencyKey: string): Promise<OrderWithEvents> {
  return api.post<OrderWithEvents>(`/api/cars/${carId}/accept-bid`, { bidId }, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** The signed-in user's orders, as buyer or seller (the car page picks those for its car). */
export async function getMyOrders(signal?: AbortSignal): Promise<Order[]> {
  const data = await api.get<Orders>('/api/orders', { signal });
  return data.orders;
}

// ── Pushed payloads ──────────────────────────────────────────────────────────────────────────
// Events may carry extra fields (e.g. a send time); keep the contract's fields, drop malformed ones.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isString = (v: unknown): v is string => typeof v === 'string';

const isAuthorTag = (v: unknown): v is ChatAuthorTag => (CHAT_AUTHOR_TAGS as readonly unknown[]).includes(v);
const isMessageStatus = (v: unknown): v is ChatMessageStatus => (CHAT_MESSAGE_STATUSES as readonly unknown[]).includes(v);

export function toChatMessage(raw: unknown): ChatMessage | null {
  if (!isObject(raw) || !isInt(raw.id) || !isInt(raw.carId) || !isString(raw.message) || !isString(raw.timestamp)) return null;
  const type: ChatMessageType = raw.type === 'bid' || raw.type === 'question' ? raw.type : 'message';
  return {
    id: raw.id,
    carId: raw.carId,
    userId: isInt(raw.userId) ? raw.userId : null,
    userName: isString(raw.userName) ? raw.userName : '',
    message: raw.message,
    timestamp: raw.timestamp,
    role: raw.role === 'seller' ? 'seller' : null,
    type,
    parentId: isInt(raw.parentId) ? raw.parentId : null,
    replyCount: isInt(raw.replyCount) ? raw.replyCount : 0,
    upvotes: isInt(raw.upvotes) ? raw.upvotes : 0,
    upvotedByMe: raw.upvotedByMe === true,
    authorTags: Array.isArray(raw.authorTags) ? raw.authorTags.filter(isAuthorTag) : [],
    status: isMessageStatus(raw.status) ? raw.status : 'visible',
  };
}

/** `chat:updated`: `{carId, id, upvotes, replyCount}`, or null when malformed. */
export function toChatUpdated(raw: unknown): ChatUpdated | null {
  if (!isObject(raw) || !isInt(raw.carId) || !isInt(raw.id) || !isInt(raw.upvotes) || !isInt(raw.replyCount)) return null;
  return { carId: raw.carId, id: raw.id, upvotes: raw.upvotes, replyCount: raw.replyCount };
}

/** `chat:removed`: `{carId, id}`, or null when malformed. */
export function toChatRemoved(raw: unknown): ChatRemoved | null {
  if (!isObject(raw) || !isInt(raw.carId) || !isInt(raw.id)) return null;
  return { carId: raw.carId, id: raw.id };
}

export function toBid(raw: unknown): RecordedBid | null {
  if (!isObject(raw) || !isInt(raw.id) || !isInt(raw.carId) || !isInt(raw.amount) || !isString(raw.timestamp)) return null;
  return {
    id: raw.id,
    carId: raw.carId,
    userId: isInt(raw.userId) ? raw.userId : 0,
    userName: isString(raw.userName) ? raw.userName : '',
    amount: raw.amount,
    timestamp: raw.timestamp,
    auto: raw.auto === true,
  };
}

/** `bid:placed`: `{carId, bid, currentBids, highestBid, endsAt}` (`endsAt`: the auction's end after the bid, else null). */
export function toBidPlaced(raw: unknown): BidPlaced | null {
  if (!isObject(raw) || !isInt(raw.carId) || !isInt(raw.currentBids) || !isInt(raw.highestBid)) return null;
  const bid = toBid(raw.bid);
  if (!bid) return null;
  return {
    carId: raw.carId,
    bid,
    currentBids: raw.currentBids,
    highestBid: raw.highestBid,
    endsAt: isString(raw.endsAt) && !Number.isNaN(Date.parse(raw.endsAt)) ? raw.endsAt : null,
    reserveMet: typeof raw.reserveMet === 'boolean' ? raw.reserveMet : null,
  };
}

/** `auction:ended`: `{carId, outcome, highestBid, winnerId, orderId}`, or null when malformed. */
export function toAuctionEnded(raw: unknown): AuctionResult | null {
  if (!isObject(raw) || !isInt(raw.carId) || !isString(raw.outcome)) return null;
  const outcome = raw.outcome;
  if (!(AUCTION_OUTCOMES as readonly string[]).includes(outcome)) return null;
  return {
    carId: raw.carId,
    outcome: outcome as AuctionOutcome,
    highestBid: isInt(raw.highestBid) ? raw.highestBid : null,
    winnerId: isInt(raw.winnerId) ? raw.winnerId : null,
    orderId: isInt(raw.orderId) ? raw.orderId : null,
  };
}

/** `car:status`: `{carId, status}` when a car becomes pending, sold or active again. */
export function toCarStatus(raw: unknown): CarStatusEvent | null {
  if (!isObject(raw) || !isInt(raw.carId) || !isString(raw.status)) return null;
  const status = raw.status;
  return (CAR_STATUSES as readonly string[]).includes(status) ? { carId: raw.carId, status: status as CarStatus } : null;
}

/** The order of an `order:updated` push (`{order}`), or null. */
export function toPushedOrder(raw: unknown): Order | null {
  if (!isObject(raw) || !isObject(raw.order)) return null;
  const order = raw.order;
  if (!isInt(order.id) || !isInt(order.carId) || !isInt(order.buyerId) || !isString(order.status) || !isString(order.updatedAt)) return null;
  return order as unknown as Order;
}
