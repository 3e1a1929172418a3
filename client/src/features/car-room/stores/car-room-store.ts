import { create } from 'zustand';
import { ApiError, isAbortError } from '../../../lib/api-client.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { CLIENT_ERRORS, ClientErrorCode } from '../../../lib/client-error-codes.ts';
import { recordServerTime } from '../../../lib/server-clock.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { emitIfConnected, emitWithAck, getSocket, isSocketConnected, onSocketConnect } from '../../../lib/socket.ts';
import { UseCounts } from '../../../lib/use-counts.ts';
import {
  acceptHighestBid,
  CHAT_INITIAL_LIMIT,
  CHAT_PAGE_MAX,
  getBids,
  getCarDetail,
  getChatMessages,
  getMyMaximum,
  getMyOrders,
  getQuestions,
  placeBid,
  postChatMessage,
  reportMessage,
  voteOnMessage,
  toAuctionEnded,
  toBidPlaced,
  toCarStatus,
  toChatMessage,
  toChatRemoved,
  toChatUpdated,
  toPushedOrder,
  type ChatMessage,
  type ChatVote,
  type ReportChat,
  type Order,
  type OrderWithEvents,
  type PlacedBid,
} from '../api/car-room-api.ts';
import { takeEarlyCarRead } from '../api/early-car-read.ts';
import {
  applyAuctionEnded,
  applyBidPlaced,
  applyBidTooLow,
  applyBids,
  applyCarStatus,
  applyChatUpdated,
  applyDetail,
  applyDetailError,
  applyLateBid,
  applyLatestMessages,
  applyMessageRemoved,
  applyMessages,
  applyMessagesError,
  applyMyOrders,
  applyNotFound,
  applyQuestions,
  applyQuestionsError,
  applyVote,
  applyViewers,
  emptyRoom,
  lastMessageId,
  type CarRoom,
} from './car-room-merge.ts';

/**
 * Car rooms (car detail screen): per car, the detail snapshot, the discussion, the bids and the
 * live counters. REST snapshots and socket events both land here through the pure merges of
 * car-room-merge.ts. Socket listeners call `setState` outside React.
 */

export interface CarRoomStoreState {
  rooms: Record<number, CarRoom>;
  /** `${userId}:${carId}` for cars the server told us are the user's own (403 CANNOT_BID_OWN_CAR). */
  ownCars: Record<string, true>;
  /** `${userId}:${carId}` → the user's maximum for the car (proxy bid), private to them. */
  myMaxes: Record<string, number>;
  /** `${userId}:${messageId}` for messages the user has reported (here, or refused as already reported). */
  reported: Record<string, true>;
}

export const useCarRoomStore = create<CarRoomStoreState>()(() => ({ rooms: {}, ownCars: {}, myMaxes: {}, reported: {} }));

function recordMyMaximum(userId: number, carId: number, maxAmount: number): void {
  useCarRoomStore.setState((state) => ({ myMaxes: { ...state.myMaxes, [ownCarKey(userId, carId)]: maxAmount } }));
}

export const ownCarKey = (userId: number, carId: number) => `${userId}:${carId}`;
export const reportedKey = (userId: number, messageId: number) => `${userId}:${messageId}`;

const CHAT_CATCH_UP_MAX_PAGES = 50;
const CHAT_HISTORY_FAILED = 'Could not load the discussion.';
const DETAIL_FAILED = 'Could not load this vehicle.';

/** Applies `change` to the room of `carId` if it is open; a closed room ignores late answers. */
function updateRoom(carId: number, change: (room: CarRoom) => CarRoom): void {
  useCarRoomStore.setState((state) => {
    const room = state.rooms[carId];
    if (!room) return state;
    const next = change(room);
    return next === room ? state : { rooms: { ...state.rooms, [carId]: next } };
  });
}

const roomOf = (carId: number): CarRoom | undefined => useCarRoomStore.getState().rooms[carId];

// ── Open rooms and the socket ─────────────────────────────────────────────────────────────────

/** Mounted screens per car (React StrictMode mounts twice; two panels may share a room). */
const openCount = new UseCounts<number>();
/** Rooms closed while offline: a recovered connection may still hold them on the server. */
const leftWhileOffline = new Set<number>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  socket.on('chat:message', (raw: unknown) => {
    const message = toChatMessage(raw);
    if (message) updateRoom(message.carId, (r) => applyMessages(r, [message]));
  });
  socket.on('chat:updated', (raw: unknown) => {
    const event = toChatUpdated(raw);
    if (event) updateRoom(event.carId, (r) => applyChatUpdated(r, event));
  });
  socket.on('chat:removed', (raw: unknown) => {
    const event = toChatRemoved(raw);
    if (event) updateRoom(event.carId, (r) => applyMessageRemoved(r, event.id));
  });
  socket.on('bid:placed', (raw: unknown) => {
    const event = toBidPlaced(raw);
    if (!event) return;
    updateRoom(event.carId, (r) => applyBidPlaced(r, event));
  });
  socket.on('auction:ended', (raw: unknown) => {
    const result = toAuctionEnded(raw);
    if (!result) return;
    updateRoom(result.carId, (r) => applyAuctionEnded(r, result));
    const room = roomOf(result.carId);
    const userId = signedInUserId();
    if (!room?.detail || userId === null) return;
    // Only those who act on the result read more: the winner their order, the seller (reserve
    // not met) until when they may still accept. Everyone else has all they need in the push.
    if (result.winnerId === userId) void syncMyOrders(result.carId);
    if (room.detail.seller.userId === userId) void Promise.all([syncDetail(result.carId), syncBids(result.carId), syncMyOrders(result.carId)]);
  });
  socket.on('car:status', (raw: unknown) => {
    const event = toCarStatus(raw);
    if (event) updateRoom(event.carId, (r) => applyCarStatus(r, event.status));
  });
  socket.on('order:updated', (raw: unknown) => {
    const order = toPushedOrder(raw);
    const userId = signedInUserId();
    if (order && userId !== null) updateRoom(order.carId, (r) => applyMyOrders(r, userId, [order]));
  });
  socket.on('car:viewers', (event: { carId?: unknown; count?: unknown }) => {
    if (typeof event?.carId === 'number' && typeof event.count === 'number') {
      const count = event.count;
      updateRoom(event.carId, (r) => applyViewers(r, count));
    }
  });
  // After every (re)connect: leave stale rooms, re-join open ones, re-read what may have been missed.
  onSocketConnect(() => {
    for (const carId of leftWhileOffline) {
      if (!openCount.has(carId)) emitIfConnected('car:leave', { carId });
    }
    leftWhileOffline.clear();
    for (const carId of openCount.keys()) void joinAndSync(carId);
  });
}

async function join(carId: number): Promise<void> {
  const ack = await emitWithAck('car:join', { carId });
  if (ack.ok) updateRoom(carId, (r) => applyViewers(r, ack.data.viewers));
}

async function joinAndSync(carId: number): Promise<void> {
  // Join first: whatever is committed after the join arrives live, the rest comes from REST.
  await join(carId);
  await syncRoom(carId);
}

/**
 * Starts (or shares) the room of `carId`: joins it live and loads its snapshots. `fromPage` is
 * the room a server-rendered page was drawn with: the screen keeps showing it while the
 * snapshots (the signed-in view, bids, discussion) are read.
 */
export function openRoom(carId: number, fromPage?: CarRoom): void {
  listen();
  if (!openCount.open(carId)) return;
  leftWhileOffline.delete(carId);
  if (fromPage?.detail) recordServerTime(fromPage.detail.serverTime);
  useCarRoomStore.setState((state) => ({ rooms: { ...state.rooms, [carId]: state.rooms[carId] ?? fromPage ?? emptyRoom(carId) } }));
  // The server has just said there is no such car: nothing to join or read.
  if (fromPage?.status === 'not-found') return;
  if (isSocketConnected()) void joinAndSync(carId);
  else void syncRoom(carId); // show the car now; the connect handler joins and catches up
}

/** Ends one user of the room; the last one leaves it and forgets its state. */
export function closeRoom(carId: number): void {
  if (!openCount.close(carId)) return;
  if (!emitIfConnected('car:leave', { carId })) leftWhileOffline.add(carId);
  useCarRoomStore.setState((state) => {
    if (!(carId in state.rooms)) return state;
    const rooms = { ...state.rooms };
    delete rooms[carId];
    return { rooms };
  });
}

// ── REST snapshots ───────────────────────────────────────────────────────────────────────────

function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

async function syncDetail(carId: number): Promise<void> {
  try {
    const detail = await (takeEarlyCarRead(carId) ?? getCarDetail(carId));
    // Every read re-measures the offset of this device's clock (a reconnect's re-read too).
    recordServerTime(detail.serverTime);
    updateRoom(carId, (r) => applyDetail(r, detail));
  } catch (error) {
    if (isAbortError(error)) return;
    if (error instanceof ApiError && error.status === 404) updateRoom(carId, applyNotFound);
    else updateRoom(carId, (r) => applyDetailError(r, failureText(error, DETAIL_FAILED)));
  }
}

/**
 * First read: the latest page. Later reads (a reconnect): everything after the newest held
 * message, page by page, then the latest page again for what changed while away (votes, reply
 * counts, messages removed or held by reports).
 */
async function syncChat(carId: number): Promise<void> {
  try {
    const room = roomOf(carId);
    if (!room) return;
    if (!room.messagesLoaded) {
      const latest = await getChatMessages(carId, { limit: CHAT_INITIAL_LIMIT });
      updateRoom(carId, (r) => applyMessages(r, latest, true));
      return;
    }
    let after = lastMessageId(room);
    for (let page = 0; page < CHAT_CATCH_UP_MAX_PAGES; page += 1) {
      const batch = await getChatMessages(carId, { after: after ?? undefined, limit: CHAT_PAGE_MAX });
      updateRoom(carId, (r) => applyMessages(r, batch, true));
      if (batch.length < CHAT_PAGE_MAX || !roomOf(carId)) break;
      after = batch[batch.length - 1]!.id;
    }
    if (!roomOf(carId)) return;
    const latest = await getChatMessages(carId, { limit: CHAT_INITIAL_LIMIT });
    updateRoom(carId, (r) => applyLatestMessages(r, latest));
  } catch (error) {
    if (!isAbortError(error)) updateRoom(carId, (r) => applyMessagesError(r, failureText(error, CHAT_HISTORY_FAILED)));
  }
}

async function syncQuestions(carId: number): Promise<void> {
  try {
    const questions = await getQuestions(carId);
    updateRoom(carId, (r) => applyQuestions(r, questions));
  } catch (error) {
    // The Q&A keeps what it showed (the page's copy, live answers); it is read again on reconnect.
    if (!isAbortError(error)) updateRoom(carId, applyQuestionsError);
  }
}

async function syncBids(carId: number): Promise<void> {
  try {
    const bids = await getBids(carId);
    updateRoom(carId, (r) => applyBids(r, bids, true));
  } catch {
    // The counters still come from the detail snapshot and live events; the list retries on reconnect.
  }
}

const signedInUserId = (): number | null => {
  const { isAuthenticated, user } = useSessionStore.getState();
  return isAuthenticated && user ? user.id : null;
};

/** The signed-in user's orders for the car (for "View your order"); nothing for visitors. */
async function syncMyOrders(carId: number): Promise<void> {
  const userId = signedInUserId();
  if (userId === null) return;
  try {
    const orders = await getMyOrders();
    if (signedInUserId() === userId) updateRoom(carId, (r) => applyMyOrders(r, userId, orders));
  } catch {
    // Only the link to the order is missing; it comes back with the next read.
  }
}

/** An order the user just placed for the car (from the Buy with Escrow dialog). */
export function recordPlacedOrder(order: Order): void {
  const userId = signedInUserId();
  if (userId !== null) updateRoom(order.carId, (r) => applyMyOrders(r, userId, [order]));
}

/** Re-reads the car's detail (e.g. when its auction's clock ran out and no close was heard). */
export function refreshDetail(carId: number): Promise<void> {
  return syncDetail(carId);
}

/** Re-reads the detail (counters, status), the discussion since the last known message, the Seller Q&A, the bids and the user's orders and maximum. */
export async function syncRoom(carId: number): Promise<void> {
  await Promise.all([syncDetail(carId), syncChat(carId), syncQuestions(carId), syncBids(carId), syncMyOrders(carId), syncMyMaximum(carId)]);
}

async function syncMyMaximum(carId: number): Promise<void> {
  const userId = signedInUserId();
  if (userId === null) return;
  try {
    const maxAmount = await getMyMaximum(carId);
    if (maxAmount !== null && signedInUserId() === userId) recordMyMaximum(userId, carId, maxAmount);
  } catch {
    // Only the reminder of the user's maximum is missing; it comes back with the next read.
  }
}

// ── Commands ─────────────────────────────────────────────────────────────────────────────────

/**
 * Posts a message, or with `parentId` a reply to that message; it shows at once (the live echo
 * merges into it by id), a held one only to its author. Throws ApiError.
 */
export async function sendChatMessage(carId: number, text: string, type: 'message' | 'question', parentId?: number): Promise<ChatMessage> {
  const message = await postChatMessage(carId, text, type, parentId);
  updateRoom(carId, (r) => applyMessages(r, [message], false, true));
  return message;
}

/** Upvotes a message (`on`) or takes the vote back; the count shown is the server's answer. Throws ApiError. */
export async function voteOn(carId: number, messageId: number, on: boolean): Promise<ChatVote> {
  const vote = await voteOnMessage(messageId, on);
  updateRoom(carId, (r) => applyVote(r, vote));
  return vote;
}

/**
 * Reports a message for the moderators. Throws ApiError; a 409 ALREADY_REPORTED marks it as
 * reported all the same (the report stands), so the screen stops offering it.
 */
export async function reportChatMessage(messageId: number, report: ReportChat): Promise<void> {
  const userId = signedInUserId();
  const markReported = () => {
    if (userId !== null) useCarRoomStore.setState((state) => ({ reported: { ...state.reported, [reportedKey(userId, messageId)]: true } }));
  };
  try {
    await reportMessage(messageId, report);
    markReported();
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.ALREADY_REPORTED) markReported();
    throw error;
  }
}

/**
 * Places a bid (with the bidder's maximum when given). Throws ApiError; a 409 BID_TOO_LOW and a
 * 403 CANNOT_BID_OWN_CAR update the room first. The bids it recorded (an automatic one for a rival
 * may follow) arrive as bid:placed and in the next bids read.
 */
export async function submitBid(carId: number, amount: number, idempotencyKey: string, userId: number | null, maxAmount?: number): Promise<PlacedBid> {
  try {
    const placed = await placeBid(carId, amount, idempotencyKey, maxAmount);
    if (userId !== null) recordMyMaximum(userId, carId, placed.maxAmount);
    updateRoom(carId, (r) =>
      applyBidPlaced(r, {
        carId,
        bid: placed.bid,
        currentBids: placed.car.currentBids,
        highestBid: placed.car.highestBid,
        endsAt: placed.car.endsAt,
        reserveMet: placed.car.reserveMet,
      }),
    );
    return placed;
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.BID_TOO_LOW) {
      const details = (error.details ?? {}) as { minimumAmount?: unknown; highestBid?: unknown };
      const minimum = typeof details.minimumAmount === 'number' ? details.minimumAmount : undefined;
      const highest = typeof details.highestBid === 'number' ? details.highestBid : undefined;
      updateRoom(carId, (r) => applyBidTooLow(r, minimum, highest));
    } else if (error instanceof ApiError && error.code === ErrorCode.CANNOT_BID_OWN_CAR && userId !== null) {
      useCarRoomStore.setState((state) => ({ ownCars: { ...state.ownCars, [ownCarKey(userId, carId)]: true } }));
    } else if (error instanceof ApiError && error.code === ErrorCode.AUCTION_ENDED) {
      // The server's clock says it is over, whatever ours showed: show that, and read the result.
      updateRoom(carId, (r) => applyLateBid(r, error.message));
      void Promise.all([syncDetail(carId), syncBids(carId)]);
    }
    throw error;
  }
}

/**
 * The seller accepts the highest bid after a reserve-not-met close: the highest bid is read
 * fresh (bids newest first, and they only rise), and the new order joins the room. Throws ApiError.
 */
export async function acceptHighestBidOf(carId: number, idempotencyKey: string): Promise<OrderWithEvents> {
  const bids = await getBids(carId);
  updateRoom(carId, (r) => applyBids(r, bids, true));
  const highest = bids[0];
  if (!highest) throw new ApiError(CLIENT_ERRORS.NO_BIDS.message, 409, { code: ClientErrorCode.NO_BIDS });
  const order = await acceptHighestBid(carId, highest.id, idempotencyKey);
  recordPlacedOrder(order);
  return order;
}
