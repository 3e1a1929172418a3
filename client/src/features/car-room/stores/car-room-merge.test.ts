import { describe, expect, it } from 'vitest';
import type { RecordedBid, CarDetail, ChatMessage, Order } from '../api/car-room-api.ts';
import type { AuctionDetail } from '@common/schemas/cars.ts';
import { EMPTY_DOSSIER } from '@common/schemas/dossier.ts';
import { sampleOrder } from '../../../lib/order-fixture.ts';
import { sampleMessage } from './message-fixture.ts';
import {
  applyAuctionEnded,
  applyLateBid,
  auctionView,
  maximumBid,
  applyBidPlaced,
  applyCarStatus,
  applyMyOrders,
  orderToShow,
  applyBidTooLow,
  applyBids,
  applyDetail,
  applyDetailError,
  applyMessages,
  applyNotFound,
  applyViewers,
  currentMinimumBid,
  emptyRoom,
  lastMessageId,
  mergeById,
} from './car-room-merge.ts';

const CAR = 7;

function detail(overrides: Partial<CarDetail> = {}): CarDetail {
  return {
    id: CAR,
    status: 'active',
    auction: null,
    serverTime: '2026-11-23T12:00:00.000Z',
    make: 'Porsche',
    model: '911 GT3',
    year: 2022,
    price: 200_000,
    marketValue: 210_000,
    marketValueBasis: 'reference',
    dossier: EMPTY_DOSSIER,
    mileage: 3_000,
    condition: 'Excellent',
    images: [],
    photos: [],
    description: '',
    seller: { id: 1, name: 'Gotham Motorcars', rating: 4.8, verified: true, userId: null },
    currentBids: 0,
    highestBid: null,
    viewingCount: 0,
    location: 'New York, NY',
    features: [],
    bodyStyle: 'sports',
    reviews: [],
    ...overrides,
  };
}

const message = (id: number, overrides: Partial<ChatMessage> = {}): ChatMessage => sampleMessage(id, CAR, overrides);

const bid = (id: number, amount: number): RecordedBid => ({
  id,
  carId: CAR,
  userId: 2,
  userName: 'Bob',
  amount,
  timestamp: new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString(),
  auto: false,
});

describe('mergeById', () => {
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

  it('adds new items in order and drops duplicates', () => {
    const merged = mergeById([{ id: 1 }, { id: 3 }], [{ id: 2 }, { id: 3 }, { id: 2 }], byId);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('returns the same array when nothing is new', () => {
    const existing = [{ id: 1, v: 'a' }];
    expect(mergeById(existing, [{ id: 1, v: 'a' }], byId)).toBe(existing);
    expect(mergeById(existing, [], byId)).toBe(existing);
  });

  it('keeps the held copy of a known id (messages and bids never change)', () => {
    const held = { id: 1, v: 'first' };
    expect(mergeById([held], [{ id: 1, v: 'echo' }], byId)[0]).toBe(held);
  });
});

describe('messages', () => {
  it('merges history and live messages by id, oldest first, whatever the arrival order', () => {
    let room = emptyRoom(CAR);
    room = applyMessages(room, [message(5)]); // live, before the history arrived
    room = applyMessages(room, [message(3), message(4), message(5)], true);
    room = applyMessages(room, [message(6), message(5)]);
    expect(room.messages.map((m) => m.id)).toEqual([3, 4, 5, 6]);
    expect(room.messagesLoaded).toBe(true);
    expect(lastMessageId(room)).toBe(6);
  });

  it('ignores messages of another car and keeps the room object when nothing changes', () => {
    const room = applyMessages(emptyRoom(CAR), [message(1)], true);
    expect(applyMessages(room, [message(2, { carId: CAR + 1 })])).toBe(room);
    expect(applyMessages(room, [message(1)])).toBe(room);
  });

  it('lastMessageId is null for an empty room', () => {
    expect(lastMessageId(emptyRoom(CAR))).toBeNull();
  });
});

describe('counters', () => {
  it('a late detail snapshot never moves the bid counters backwards', () => {
    let room = emptyRoom(CAR);
    room = applyBidPlaced(room, { carId: CAR, bid: bid(1, 100_000), currentBids: 1, highestBid: 100_000 });
    room = applyBidPlaced(room, { carId: CAR, bid: bid(2, 101_000), currentBids: 2, highestBid: 101_000 });
    room = applyDetail(room, detail({ currentBids: 1, highestBid: 100_000 })); // read before bid 2
    expect(room.status).toBe('ready');
    expect(room.currentBids).toBe(2);
    expect(room.highestBid).toBe(101_000);
  });

  it('a newer snapshot raises the counters', () => {
    const room = applyDetail(emptyRoom(CAR), detail({ currentBids: 4, highestBid: 120_000 }));
    expect(room.currentBids).toBe(4);
    expect(room.highestBid).toBe(120_000);
  });

  it('merges the bids list newest first and raises the counters from it', () => {
    let room = applyBidPlaced(emptyRoom(CAR), { carId: CAR, bid: bid(3, 103_000), currentBids: 3, highestBid: 103_000 });
    room = applyBids(room, [bid(2, 102_000), bid(1, 100_000)], true);
    expect(room.bids.map((b) => b.id)).toEqual([3, 2, 1]);
    expect(room.bidsLoaded).toBe(true);
    expect(room.currentBids).toBe(3);
    expect(room.highestBid).toBe(103_000);
    // The same bid again (REST and event) is one bid.
    expect(applyBids(room, [bid(3, 103_000)])).toBe(room);
  });

  it('ignores bid events for another car', () => {
    const room = emptyRoom(CAR);
    expect(applyBidPlaced(room, { carId: CAR + 1, bid: { ...bid(1, 1), carId: CAR + 1 }, currentBids: 1, highestBid: 1 })).toBe(room);
  });

  it('viewers follow the latest count, up and down; the snapshot only fills a missing count', () => {
    let room = applyViewers(emptyRoom(CAR), 2);
    room = applyDetail(room, detail({ viewingCount: 5 }));
    expect(room.viewers).toBe(2);
    room = applyViewers(room, 1);
    expect(room.viewers).toBe(1);
    expect(applyDetail(emptyRoom(CAR), detail({ viewingCount: 5 })).viewers).toBe(5);
    expect(applyViewers(room, -1)).toBe(room);
  });
});

describe('detail status', () => {
  it('goes to not-found on a 404', () => {
    expect(applyNotFound(emptyRoom(CAR)).status).toBe('not-found');
  });

  it('a failed re-read keeps a car that is already shown', () => {
    const ready = applyDetail(emptyRoom(CAR), detail());
    expect(applyDetailError(ready, 'Network error occurred')).toBe(ready);
    const failed = applyDetailError(emptyRoom(CAR), 'Network error occurred');
    expect(failed.status).toBe('error');
    expect(failed.error).toBe('Network error occurred');
  });
});

describe('minimum bid', () => {
  it('is unknown before the detail, then follows the shared rule', () => {
    expect(currentMinimumBid(emptyRoom(CAR))).toBeNull();
    const room = applyDetail(emptyRoom(CAR), detail({ price: 200_000 }));
    expect(currentMinimumBid(room)).toBe(100_000); // opening bid: half the price
    const bidOn = applyBidPlaced(room, { carId: CAR, bid: bid(1, 100_000), currentBids: 1, highestBid: 100_000 });
    expect(currentMinimumBid(bidOn)).toBe(101_000); // + $1,000 between $100k and $250k
  });

  it("rises to the server's minimum after a 409 and records the highest bid it reported", () => {
    const room = applyBidTooLow(applyDetail(emptyRoom(CAR), detail({ price: 200_000 })), 130_000, 129_000);
    expect(room.highestBid).toBe(129_000);
    expect(room.serverMinimum).toBe(130_000);
    expect(currentMinimumBid(room)).toBe(130_000);
  });
});

function order(overrides: Partial<Order> = {}): Order {
  return sampleOrder({
    carId: CAR,
    buyerId: 50,
    sellerId: 1,
    amount: 200_000,
    car: { id: CAR, year: 2022, make: 'Porsche', model: '911 GT3', primaryImage: null, status: 'active' },
    sellerName: 'Gotham Motorcars',
    ...overrides,
  });
}

describe('car status', () => {
  it('a pushed status replaces the listing status; the same status changes nothing', () => {
    const room = applyDetail(emptyRoom(CAR), detail());
    const pending = applyCarStatus(room, 'pending');
    expect(pending.detail?.status).toBe('pending');
    expect(applyCarStatus(pending, 'pending')).toBe(pending);
    expect(applyCarStatus(emptyRoom(CAR), 'sold').detail).toBeNull();
  });
});

describe('my orders for the car', () => {
  it('keeps only this car\'s orders, merged by id, newer copies winning', () => {
    const room = applyMyOrders(emptyRoom(CAR), 50, [order(), order({ id: 2, carId: CAR + 1 })]);
    expect(room.myOrders.map((o) => o.id)).toEqual([1]);
    const paid = order({ status: 'funded', updatedAt: '2025-01-01T11:00:00.000Z' });
    const after = applyMyOrders(room, 50, [paid]);
    expect(after.myOrders[0]?.status).toBe('funded');
    expect(applyMyOrders(after, 50, [order()])).toBe(after);
  });

  it('shows the newest open order, else the newest, and only to its owner', () => {
    const cancelled = order({ id: 3, status: 'cancelled', createdAt: '2025-01-02T10:00:00.000Z' });
    const room = applyMyOrders(emptyRoom(CAR), 50, [order(), cancelled]);
    expect(orderToShow(room, 50)?.id).toBe(1);
    expect(orderToShow(room, 51)).toBeNull();
    expect(orderToShow(room, null)).toBeNull();
    const closed = applyMyOrders(emptyRoom(CAR), 50, [cancelled]);
    expect(orderToShow(closed, 50)?.id).toBe(3);
    // Another user signed in: their list starts afresh.
    expect(applyMyOrders(room, 51, []).myOrders).toEqual([]);
  });
});

describe('timed auctions', () => {
  const END = '2026-06-01T12:00:00.000Z';
  const LATER = '2026-06-01T12:00:04.000Z';
  const LATEST = '2026-06-01T12:00:09.000Z';
  const auction = (over: Partial<AuctionDetail> = {}): AuctionDetail => ({
    endsAt: END,
    reserveMet: false,
    ended: false,
    hasReserve: true,
    extensions: 0,
    outcome: null,
    acceptUntil: null,
    ...over,
  });
  const auctionCar = (over: Partial<AuctionDetail> = {}, rest: Partial<CarDetail> = {}) =>
    detail({ auction: auction(over), price: 150_000, seller: { id: 1, name: 'Sam', rating: 4.5, verified: true, userId: 9 }, ...rest });
  const placed = (id: number, amount: number, endsAt: string | null) => ({ carId: CAR, bid: bid(id, amount), currentBids: id, highestBid: amount, endsAt });

  it('opens at the starting bid and caps bids at the escrow limit', () => {
    const room = applyDetail(emptyRoom(CAR), auctionCar());
    expect(currentMinimumBid(room)).toBe(150_000);
    expect(maximumBid(room)).toBe(1_000_000);
    expect(maximumBid(applyDetail(emptyRoom(CAR), detail()))).toBeNull();
  });

  it('marks a later end heard live as an extension, counts it, and never moves the end back', () => {
    let room = applyDetail(emptyRoom(CAR), auctionCar(), 1_000);
    expect(room).toMatchObject({ endsAt: END, extensions: 0, extendedAt: null });
    room = applyBidPlaced(room, placed(1, 150_000, END), 2_000); // an early bid: same end
    expect(room).toMatchObject({ endsAt: END, extensions: 0, extendedAt: null });
    room = applyBidPlaced(room, placed(2, 152_500, LATER), 3_000);
    expect(room).toMatchObject({ endsAt: LATER, extensions: 1, extendedAt: 3_000 });
    // A snapshot read before that bid arrives late: the end stays, the count too.
    room = applyDetail(room, auctionCar({ endsAt: END, extensions: 0 }), 4_000);
    expect(room).toMatchObject({ endsAt: LATER, extensions: 1, extendedAt: 3_000 });
    // A snapshot after a bid we missed (say while reconnecting): later end, the server's count.
    room = applyDetail(room, auctionCar({ endsAt: LATEST, extensions: 2 }), 5_000);
    expect(room).toMatchObject({ endsAt: LATEST, extensions: 2, extendedAt: 5_000 });
    expect(auctionView(room, null)).toMatchObject({ endsAt: LATEST, extensions: 2, extendedAt: 5_000, closed: false, outcome: null });
  });

  it('the first snapshot is no extension, whatever its count', () => {
    const room = applyDetail(emptyRoom(CAR), auctionCar({ extensions: 3 }), 1_000);
    expect(room).toMatchObject({ extensions: 3, extendedAt: null });
  });

  it('tells the reserve: none, met, not met; the seller works it out from their own reserve', () => {
    const room = applyDetail(emptyRoom(CAR), auctionCar({ hasReserve: false, reserveMet: true }));
    expect(auctionView(room, null)).toMatchObject({ hasReserve: false, reserveMet: true });
    const below = applyBidPlaced(applyDetail(emptyRoom(CAR), auctionCar()), placed(1, 160_000, END));
    expect(auctionView(below, null)?.reserveMet).toBe(false);
    const own = applyBidPlaced(applyDetail(emptyRoom(CAR), auctionCar({ reservePrice: 160_000 })), placed(1, 160_000, END));
    expect(auctionView(own, 9)).toMatchObject({ reserveMet: true, reservePrice: 160_000 });
    // Everyone else learns it from the push itself (the reserve stays secret), and it stays met.
    const met = applyBidPlaced(below, { ...placed(2, 170_000, END), reserveMet: true });
    expect(auctionView(met, null)?.reserveMet).toBe(true);
    expect(auctionView(applyBidPlaced(met, { ...placed(3, 175_000, END), reserveMet: null }), null)?.reserveMet).toBe(true);
  });

  it('auction:ended closes it with the outcome; the winner is told apart from the others', () => {
    let room = applyBidPlaced(applyDetail(emptyRoom(CAR), auctionCar({ hasReserve: false, reserveMet: true })), placed(1, 170_000, END));
    const result = { carId: CAR, outcome: 'sold' as const, highestBid: 170_000, winnerId: 50, orderId: 77 };
    room = applyAuctionEnded(room, result);
    expect(room.detail?.status).toBe('ended');
    expect(auctionView(room, 50)).toMatchObject({ closed: true, outcome: 'sold', won: true, highestBid: 170_000, order: { id: 77, status: 'awaiting_payment' } });
    expect(auctionView(room, 51)).toMatchObject({ closed: true, outcome: 'sold', won: false, order: null });
    expect(auctionView(room, null)).toMatchObject({ won: false, order: null });
    // The seller sees the order too.
    expect(auctionView(room, 9)?.order).toEqual({ id: 77, status: 'awaiting_payment' });
    // Once held, a snapshot read before the close does not reopen it; a second push changes nothing.
    const stale = applyDetail(room, auctionCar({ hasReserve: false, reserveMet: true }, { currentBids: 1, highestBid: 170_000 }));
    expect(auctionView(stale, 50)).toMatchObject({ closed: true, outcome: 'sold' });
    expect(applyAuctionEnded(room, { ...result, outcome: 'no_bids' })).toBe(room);
    expect(applyAuctionEnded(room, { ...result, carId: CAR + 1 })).toBe(room);
  });

  it('from a snapshot alone, the winner is the buyer of the order the close created', () => {
    let room = applyDetail(emptyRoom(CAR), auctionCar({ ended: true, outcome: 'sold', reserveMet: true }, { status: 'ended', currentBids: 2, highestBid: 180_000 }));
    expect(auctionView(room, 50)).toMatchObject({ closed: true, outcome: 'sold', won: false, order: null });
    room = applyMyOrders(room, 50, [order({ id: 12, amount: 180_000 })]);
    expect(auctionView(room, 50)).toMatchObject({ won: true, order: { id: 12, status: 'awaiting_payment' } });
    const paid = applyMyOrders(room, 50, [order({ id: 12, status: 'funded', updatedAt: '2025-01-02T10:00:00.000Z' })]);
    expect(auctionView(paid, 50)?.order).toEqual({ id: 12, status: 'funded' });
  });

  it('reserve not met: the seller gets until when they may accept', () => {
    const room = applyDetail(
      emptyRoom(CAR),
      auctionCar({ ended: true, outcome: 'reserve_not_met', acceptUntil: '2026-06-02T12:00:00.000Z', reservePrice: 200_000 }, { status: 'ended', currentBids: 1, highestBid: 160_000 }),
    );
    expect(auctionView(room, 9)).toMatchObject({ outcome: 'reserve_not_met', acceptUntil: '2026-06-02T12:00:00.000Z', reserveMet: false, won: false });
  });

  it('a bid the server refused as too late closes the auction on screen, the result to follow', () => {
    let room = applyDetail(emptyRoom(CAR), auctionCar());
    room = applyLateBid(room, 'This auction has ended');
    expect(auctionView(room, 50)).toMatchObject({ closed: true, outcome: null, lateBid: 'This auction has ended' });
    expect(applyLateBid(room, 'This auction has ended')).toBe(room);
  });

  it('runs while active (a draft shows its planned clock); a withdrawn auction neither runs nor waits for a result', () => {
    expect(auctionView(applyDetail(emptyRoom(CAR), auctionCar()), null)).toMatchObject({ live: true, closed: false });
    expect(auctionView(applyDetail(emptyRoom(CAR), auctionCar({ ended: true }, { status: 'draft' })), 9)).toMatchObject({ live: true, closed: false });
    expect(auctionView(applyDetail(emptyRoom(CAR), auctionCar({ ended: true }, { status: 'withdrawn' })), null)).toMatchObject({ live: false, closed: false, outcome: null });
    // car:status ended arrives just before auction:ended: closed, the result on its way.
    const ending = applyCarStatus(applyDetail(emptyRoom(CAR), auctionCar()), 'ended');
    expect(auctionView(ending, null)).toMatchObject({ live: false, closed: true, outcome: null });
  });

  it('is null for a fixed-price car', () => {
    expect(auctionView(applyDetail(emptyRoom(CAR), detail()), 50)).toBeNull();
    expect(auctionView(emptyRoom(CAR), 50)).toBeNull();
  });
});
