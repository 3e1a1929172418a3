import { AUCTION_BID_LIMIT, type AuctionOutcome } from '@common/auction-rules.ts';
import { minimumBid } from '@common/bid-rules.ts';
import { isExtension, laterEnd } from '../../../lib/countdown.ts';
import { isFinalOrderStatus } from '../../../lib/order-progress.ts';
import { mergeOrderList } from '../../../lib/order-merge.ts';
import type { AuctionResult, BidPlaced, RecordedBid, CarDetail, CarQuestion, CarStatus, ChatMessage, ChatUpdated, ChatVote, Order } from '../api/car-room-api.ts';
import {
  mergeMessages,
  mergeQuestions,
  updateMessageIn,
  updateQuestionMessage,
  withCounts,
  withoutMessage,
  withoutQuestionMessage,
} from './discussion-merge.ts';

/**
 * Pure state transitions of one car room. REST snapshots and pushed events are both merged by
 * `id`, so the order they arrive in never shows anything twice or loses anything; counters
 * that only grow (`currentBids`, `highestBid`) never go backwards because of a late snapshot.
 * Every function returns the same object when nothing changed, so subscribers stay quiet.
 */

export type RoomStatus = 'loading' | 'ready' | 'not-found' | 'error';

export interface CarRoom {
  carId: number;
  status: RoomStatus;
  /** Why the detail could not be loaded (status 'error'). */
  error: string | null;
  detail: CarDetail | null;
  /** Oldest first, unique by id: top-level messages and their replies (threaded when shown). */
  messages: ChatMessage[];
  /** The first history page has been read (later reads ask only for what is newer). */
  messagesLoaded: boolean;
  messagesError: string | null;
  /** The Seller Q&A: answered questions first, then newest first. */
  questions: CarQuestion[];
  /** The Q&A has been read (from the page or the API). */
  questionsLoaded: boolean;
  /** The last read of the Q&A failed (what it showed stays). */
  questionsFailed: boolean;
  /** Newest first, unique by id. */
  bids: RecordedBid[];
  bidsLoaded: boolean;
  currentBids: number;
  highestBid: number | null;
  /** Live viewers; null until the first count arrives. */
  viewers: number | null;
  /** The smallest acceptable bid the server last stated (a 409 BID_TOO_LOW reply). */
  serverMinimum: number | null;
  /** The signed-in user's orders for this car (as buyer or seller), newest first. */
  myOrders: Order[];
  /** Whose orders `myOrders` are (null before the first read). */
  myOrdersOf: number | null;
  /** Auctions: the end as last heard (REST or live). It only ever moves later. Null for a fixed price. */
  endsAt: string | null;
  /** Auctions: late bids that moved the end (the server's count, plus those seen live since). */
  extensions: number;
  /** Auctions: local time (ms) a later end was seen, for the "Extended" notice. */
  extendedAt: number | null;
  /** Auctions: the close as pushed by `auction:ended` (a later REST read says the same). */
  result: AuctionResult | null;
  /** Auctions: the server refused our bid because the auction had ended (its words). */
  lateBid: string | null;
}

export function emptyRoom(carId: number): CarRoom {
  return {
    carId,
    status: 'loading',
    error: null,
    detail: null,
    messages: [],
    messagesLoaded: false,
    messagesError: null,
    questions: [],
    questionsLoaded: false,
    questionsFailed: false,
    bids: [],
    bidsLoaded: false,
    currentBids: 0,
    highestBid: null,
    viewers: null,
    serverMinimum: null,
    myOrders: [],
    myOrdersOf: null,
    endsAt: null,
    extensions: 0,
    extendedAt: null,
    result: null,
    lateBid: null,
  };
}

/** Newest bid first. */
export function compareBidsNewestFirst(a: RecordedBid, b: RecordedBid): number {
  return b.id - a.id;
}

/**
 * `existing` plus the items of `incoming` it does not hold yet (by id), sorted by `order`.
 * Bids never change once written, so a known id keeps its held copy.
 * Returns `existing` itself when nothing is new.
 */
export function mergeById<T extends { id: number }>(
  existing: readonly T[],
  incoming: readonly T[],
  order: (a: T, b: T) => number,
): T[] {
  if (incoming.length === 0) return existing as T[];
  const byId = new Map(existing.map((item) => [item.id, item]));
  let changed = false;
  for (const item of incoming) {
    if (byId.has(item.id)) continue;
    byId.set(item.id, item);
    changed = true;
  }
  if (!changed) return existing as T[];
  return [...byId.values()].sort(order);
}

/** The larger of two counts where null means "none yet". */
export function maxOrNull(a: number | null, b: number | null | undefined): number | null {
  if (b === null || b === undefined) return a;
  if (a === null) return b;
  return Math.max(a, b);
}

function withCounters(
  room: CarRoom,
  currentBids: number | undefined,
  highestBid: number | null | undefined,
): CarRoom {
  const nextCount = currentBids === undefined ? room.currentBids : Math.max(room.currentBids, currentBids);
  const nextHighest = maxOrNull(room.highestBid, highestBid);
  if (nextCount === room.currentBids && nextHighest === room.highestBid) return room;
  return { ...room, currentBids: nextCount, highestBid: nextHighest };
}

/**
 * An auction's end heard at `now` (local ms), from a snapshot or live: the later end wins, and a
 * later end than the one held is an extension (shown as "Extended"). A live one also counts
 * towards `extensions` (a snapshot brings the server's own count).
 */
function withEnd(room: CarRoom, endsAt: string | null | undefined, now: number, live: boolean): CarRoom {
  if (!endsAt) return room;
  const extended = room.endsAt !== null && isExtension(room.endsAt, endsAt);
  const next = laterEnd(room.endsAt, endsAt);
  if (next === room.endsAt && !extended) return room;
  return {
    ...room,
    endsAt: next,
    extendedAt: extended ? now : room.extendedAt,
    extensions: extended && live ? room.extensions + 1 : room.extensions,
  };
}

/**
 * A snapshot read before the close but answered after `auction:ended` arrived must not reopen
 * the auction on screen: the pushed result holds until a snapshot shows the close itself.
 */
function settled(detail: CarDetail, result: AuctionResult | null): CarDetail {
  if (!result || !detail.auction || detail.auction.ended) return detail;
  return {
    ...detail,
    status: detail.status === 'active' ? 'ended' : detail.status,
    auction: { ...detail.auction, ended: true, outcome: result.outcome, reserveMet: detail.auction.reserveMet || result.outcome === 'sold' },
  };
}

/** A `GET /api/cars/:id` snapshot. Counters take the max; a live viewer count wins over the snapshot's. */
export function applyDetail(room: CarRoom, detail: CarDetail, now: number = Date.now()): CarRoom {
  let next = withCounters(room, detail.currentBids, detail.highestBid);
  if (detail.auction) {
    next = withEnd(next, detail.auction.endsAt, now, false);
    if (detail.auction.extensions > next.extensions) next = { ...next, extensions: detail.auction.extensions };
  }
  return {
    ...next,
    status: 'ready',
    error: null,
    detail: settled(detail, next.result),
    viewers: next.viewers ?? detail.viewingCount,
  };
}

export function applyNotFound(room: CarRoom): CarRoom {
  return room.status === 'not-found' ? room : { ...room, status: 'not-found', error: null };
}

/** A failed detail read; a room that already shows the car keeps showing it. */
export function applyDetailError(room: CarRoom, message: string): CarRoom {
  if (room.status === 'ready' || room.status === 'not-found') return room;
  return { ...room, status: 'error', error: message };
}

/**
 * Messages from a history read (`fromHistory`), pushed live, or the answer to the reader's own
 * post (`personal`: it speaks for this reader, as a history read does). They also feed the
 * Seller Q&A (a new question, the seller's answer).
 */
export function applyMessages(room: CarRoom, messages: readonly ChatMessage[], fromHistory = false, personal = fromHistory): CarRoom {
  const mine = messages.filter((m) => m.carId === room.carId);
  const merged = mergeMessages(room.messages, mine, personal);
  const questions = room.questionsLoaded ? mergeQuestions(room.questions, mine) : room.questions;
  const loaded = room.messagesLoaded || fromHistory;
  if (merged === room.messages && questions === room.questions && loaded === room.messagesLoaded && (!fromHistory || room.messagesError === null)) {
    return room;
  }
  return { ...room, messages: merged, questions, messagesLoaded: loaded, messagesError: fromHistory ? null : room.messagesError };
}

/**
 * The latest page read again (after a reconnect): besides merging it, a message held within
 * the page's range of ids that the page no longer holds has left the reader's view (removed or
 * held while the connection was down).
 */
export function applyLatestMessages(room: CarRoom, page: readonly ChatMessage[]): CarRoom {
  const next = applyMessages(room, page, true);
  const mine = page.filter((m) => m.carId === room.carId);
  if (mine.length === 0) return next;
  const oldest = Math.min(...mine.map((m) => m.id));
  const newest = Math.max(...mine.map((m) => m.id));
  const present = new Set(mine.map((m) => m.id));
  const gone = next.messages.filter((m) => m.id >= oldest && m.id <= newest && !present.has(m.id));
  return gone.reduce((r, m) => applyMessageRemoved(r, m.id), next);
}

/** `GET /api/cars/:id/questions` (or the page's copy of it): the Q&A as the server has it now. */
export function applyQuestions(room: CarRoom, questions: readonly CarQuestion[]): CarRoom {
  const mine = questions.filter((q) => q.question.carId === room.carId);
  return { ...room, questions: mergeQuestions(mine, room.messages.filter((m) => m.id > newestIdIn(mine))), questionsLoaded: true, questionsFailed: false };
}

/** A failed read of the Q&A: what it showed stays, and a Q&A never read says it could not be. */
export function applyQuestionsError(room: CarRoom): CarRoom {
  return room.questionsFailed ? room : { ...room, questionsFailed: true };
}

/** The newest message id a Q&A holds (questions and answers), 0 when empty. */
function newestIdIn(questions: readonly CarQuestion[]): number {
  return questions.reduce((max, q) => Math.max(max, q.question.id, ...q.answers.map((a) => a.id)), 0);
}

/** `chat:updated`: a message's upvotes and reply count as they are now. */
export function applyChatUpdated(room: CarRoom, event: ChatUpdated): CarRoom {
  if (event.carId !== room.carId) return room;
  const change = (m: ChatMessage) => withCounts(m, { upvotes: event.upvotes, replyCount: event.replyCount });
  return withMessageChange(room, event.id, change);
}

/** The answer to the reader's own vote: the count after it, and whether the reader's vote stands. */
export function applyVote(room: CarRoom, vote: ChatVote): CarRoom {
  return withMessageChange(room, vote.id, (m) => withCounts(m, { upvotes: vote.upvotes, upvotedByMe: vote.upvotedByMe }));
}

function withMessageChange(room: CarRoom, id: number, change: (m: ChatMessage) => ChatMessage): CarRoom {
  const messages = updateMessageIn(room.messages, id, change);
  const questions = updateQuestionMessage(room.questions, id, change);
  return messages === room.messages && questions === room.questions ? room : { ...room, messages, questions };
}

/** `chat:removed` (held by reports, or removed by an operator): the message leaves the discussion and the Q&A. */
export function applyMessageRemoved(room: CarRoom, id: number): CarRoom {
  const messages = withoutMessage(room.messages, id);
  const questions = withoutQuestionMessage(room.questions, id);
  return messages === room.messages && questions === room.questions ? room : { ...room, messages, questions };
}

export function applyMessagesError(room: CarRoom, message: string): CarRoom {
  return room.messagesError === message ? room : { ...room, messagesError: message };
}

/** Bids from `GET /api/bids/car/:id` (or one just placed): the list merges, counters take the max. */
export function applyBids(room: CarRoom, bids: readonly RecordedBid[], fromSnapshot = false): CarRoom {
  const mine = bids.filter((b) => b.carId === room.carId);
  const merged = mergeById(room.bids, mine, compareBidsNewestFirst);
  const highest = mine.reduce<number | null>((max, b) => maxOrNull(max, b.amount), null);
  let next = withCounters(room, merged.length, highest);
  if (merged !== room.bids || (fromSnapshot && !room.bidsLoaded)) {
    next = { ...next, bids: merged, bidsLoaded: room.bidsLoaded || fromSnapshot };
  }
  return next;
}

/**
 * A `bid:placed` event (or the answer to our own bid); on an auction it carries the end after the
 * bid and whether the (secret) reserve is met, which once met stays met.
 */
export function applyBidPlaced(
  room: CarRoom,
  event: Pick<BidPlaced, 'carId' | 'bid' | 'currentBids' | 'highestBid'> & Partial<Pick<BidPlaced, 'endsAt' | 'reserveMet'>>,
  now: number = Date.now(),
): CarRoom {
  if (event.carId !== room.carId) return room;
  const next = withCounters(applyBids(room, [event.bid]), event.currentBids, event.highestBid);
  return withEnd(withReserveMet(next, event.reserveMet), event.endsAt, now, true);
}

function withReserveMet(room: CarRoom, reserveMet: boolean | null | undefined): CarRoom {
  const auction = room.detail?.auction;
  if (reserveMet !== true || !auction || auction.reserveMet) return room;
  return { ...room, detail: { ...room.detail!, auction: { ...auction, reserveMet: true } } };
}

/** `auction:ended`: the server closed the auction; its outcome holds from now on. */
export function applyAuctionEnded(room: CarRoom, result: AuctionResult): CarRoom {
  if (result.carId !== room.carId || room.result !== null) return room;
  const next = withCounters(room, undefined, result.highestBid);
  return { ...next, result, detail: next.detail ? settled(next.detail, result) : null };
}

/** The server refused our bid with 409 AUCTION_ENDED (`message` is its sentence). */
export function applyLateBid(room: CarRoom, message: string): CarRoom {
  return room.lateBid === message ? room : { ...room, lateBid: message };
}

export function applyCounters(room: CarRoom, counters: { currentBids?: number; highestBid?: number | null }): CarRoom {
  return withCounters(room, counters.currentBids, counters.highestBid);
}

/** `car:viewers` or a join acknowledgement: the latest count is the truth (it goes down too). */
export function applyViewers(room: CarRoom, count: number): CarRoom {
  if (!Number.isFinite(count) || count < 0 || room.viewers === count) return room;
  return { ...room, viewers: count };
}

/** A 409 BID_TOO_LOW reply: remember the server's minimum and the highest bid it saw. */
export function applyBidTooLow(room: CarRoom, minimumAmount: number | undefined, highestBid: number | null | undefined): CarRoom {
  const next = withCounters(room, undefined, highestBid);
  const serverMinimum = maxOrNull(room.serverMinimum, minimumAmount);
  return serverMinimum === next.serverMinimum ? next : { ...next, serverMinimum };
}

/** Id of the newest message held, or null. */
export function lastMessageId(room: CarRoom): number | null {
  return room.messages.length > 0 ? room.messages[room.messages.length - 1]!.id : null;
}

/** The smallest bid the form should offer: the shared rule, raised to what the server last demanded. */
export function currentMinimumBid(room: CarRoom): number | null {
  if (!room.detail) return null;
  const byRule = minimumBid(room.detail.price, room.highestBid, { auction: room.detail.auction !== null });
  return room.serverMinimum === null ? byRule : Math.max(byRule, room.serverMinimum);
}

/** The largest bid the form takes: auctions settle through escrow, which covers up to $1,000,000. */
export function maximumBid(room: CarRoom): number | null {
  return room.detail?.auction ? AUCTION_BID_LIMIT : null;
}

/** A timed auction as the car page shows it (see `auctionView`). */
export interface AuctionView {
  endsAt: string;
  extensions: number;
  /** Local time (ms) a later end was seen. */
  extendedAt: number | null;
  hasReserve: boolean;
  reserveMet: boolean;
  /** The seller's own reserve (only they see it). */
  reservePrice: number | null;
  /** Bidding is open (or, for a draft, will open): the clock runs. */
  live: boolean;
  /** The server says bidding is over (its close, a snapshot, or its refusal of our bid). */
  closed: boolean;
  /** How it ended; null while running, or while the result is on its way. */
  outcome: AuctionOutcome | null;
  highestBid: number | null;
  /** True when the signed-in user won (from `auction:ended`, or from their order for the car). */
  won: boolean;
  /** The winner's order, for the winner and the seller. */
  order: { id: number; status: Order['status'] } | null;
  /** Reserve not met: until when the seller may still accept the highest bid. */
  acceptUntil: string | null;
  /** Our bid refused after the end (the server's words). */
  lateBid: string | null;
}

/**
 * The auction of the room for the signed-in user `userId` (null: a visitor); null for a
 * fixed-price car. The outcome is always the server's: its push, or its snapshot.
 */
export function auctionView(room: CarRoom, userId: number | null): AuctionView | null {
  const auction = room.detail?.auction;
  if (!room.detail || !auction) return null;
  const result = room.result;
  const highestBid = room.highestBid;
  const reservePrice = auction.reservePrice ?? null;
  const reserveMet =
    !auction.hasReserve || auction.reserveMet || (reservePrice !== null && highestBid !== null && highestBid >= reservePrice);
  const outcome = result?.outcome ?? auction.outcome ?? null;
  const status = room.detail.status;
  // Closed by the server: its push, its outcome, the statuses only a close leads to, or its refusal of our bid.
  const closed =
    result !== null || outcome !== null || room.lateBid !== null || status === 'ended' || status === 'pending' || status === 'sold';
  // A withdrawn auction is neither running nor decided: it just stopped.
  const live = !closed && (status === 'active' || status === 'draft');
  // The winner's order: named by the close, or found among the user's orders for this car.
  const mine = userId !== null && room.myOrdersOf === userId ? room.myOrders : [];
  const ordered = result?.orderId != null ? mine.find((o) => o.id === result.orderId) : undefined;
  const asBuyer = outcome === 'sold' ? mine.find((o) => o.buyerId === userId) : undefined;
  const won = outcome === 'sold' && userId !== null && (result ? result.winnerId === userId : asBuyer !== undefined);
  const isSeller = userId !== null && room.detail.seller.userId === userId;
  let order: AuctionView['order'] = null;
  if (won || isSeller) {
    const held = ordered ?? (won ? asBuyer : mine.find((o) => o.buyerId !== userId && !isFinalOrderStatus(o.status)));
    if (held) order = { id: held.id, status: held.status };
    else if (result?.orderId != null && (won || isSeller)) order = { id: result.orderId, status: 'awaiting_payment' };
  }
  return {
    endsAt: room.endsAt ?? auction.endsAt,
    extensions: Math.max(room.extensions, auction.extensions),
    extendedAt: room.extendedAt,
    hasReserve: auction.hasReserve,
    reserveMet,
    reservePrice,
    live,
    closed,
    outcome: closed ? outcome : null,
    highestBid: result?.highestBid ?? highestBid,
    won,
    order,
    acceptUntil: auction.acceptUntil,
    lateBid: room.lateBid,
  };
}

/** `car:status`: the listing became pending, sold, or active again. */
export function applyCarStatus(room: CarRoom, status: CarStatus): CarRoom {
  if (!room.detail || room.detail.status === status) return room;
  return { ...room, detail: { ...room.detail, status } };
}

/**
 * Orders of `userId` (a snapshot of all their orders, an order just placed, or a push): those for
 * this car are merged by id, a newer copy never replaced by an older one. Another user's orders
 * start the list afresh.
 */
export function applyMyOrders(room: CarRoom, userId: number, orders: readonly Order[]): CarRoom {
  const mine = orders.filter((o) => o.carId === room.carId);
  const held = room.myOrdersOf === userId ? room.myOrders : [];
  const merged = mergeOrderList(held, mine);
  if (merged === room.myOrders && room.myOrdersOf === userId) return room;
  return { ...room, myOrders: merged, myOrdersOf: userId };
}

/** The order to point the user to: their newest open one, else their newest. */
export function orderToShow(room: CarRoom, userId: number | null): Order | null {
  if (userId === null || room.myOrdersOf !== userId || room.myOrders.length === 0) return null;
  return room.myOrders.find((o) => !isFinalOrderStatus(o.status)) ?? room.myOrders[0]!;
}
