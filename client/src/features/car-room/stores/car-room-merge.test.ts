import { describe, expect, it } from 'vitest';
import type { Bid, CarDetail, ChatMessage, Order } from '../api/car-room-api.ts';
import {
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

const message = (id: number, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  carId: CAR,
  role: null,
  userId: 1,
  userName: 'Ann',
  message: `message ${id}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString(),
  type: 'message',
  ...overrides,
});

const bid = (id: number, amount: number): Bid => ({
  id,
  carId: CAR,
  userId: 2,
  userName: 'Bob',
  amount,
  timestamp: new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString(),
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
  return {
    id: 1,
    carId: CAR,
    buyerId: 50,
    sellerId: 1,
    amount: 200_000,
    plan: 'premium',
    escrowFee: 399,
    status: 'awaiting_payment',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    paymentDueAt: '2025-01-04T10:00:00.000Z',
    inspectionDays: 7,
    inspectionEndsAt: null,
    shipment: null,
    payment: null,
    payout: null,
    refund: null,
    waitingOn: 'buyer',
    car: { id: CAR, year: 2022, make: 'Porsche', model: '911 GT3', primaryImage: null, status: 'active' },
    buyerName: 'Bea',
    sellerName: 'Gotham Motorcars',
    ...overrides,
  };
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
