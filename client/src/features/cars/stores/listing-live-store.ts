import { create } from 'zustand';
import { AUCTION_OUTCOMES, type AuctionOutcome } from '@common/auction-rules.ts';
import { MAX_WATCHED_CARS } from '@common/listing.ts';
import { isExtension, laterEnd } from '../../../lib/countdown.ts';
import { recordServerTime } from '../../../lib/server-clock.ts';
import { emitIfConnected, getSocket, onSocketConnect } from '../../../lib/socket.ts';
import { getCarAuction } from '../api/get-cars.ts';

/**
 * Live counters for the listing cards on screen: `cars:watch` subscribes to `car:summary`
 * updates for those cars without counting as a viewer of any of them. Updates land here via
 * `setState` outside React; each card reads its own entry.
 *
 * Auction cards also follow their end (`car:summary` carries `endsAt`; a later one is a late
 * bid's extension), their current bid, and their close (`auction:ended`, `car:status`).
 */

export interface LiveCounts {
  currentBids?: number;
  viewers?: number;
  highestBid?: number;
  /** Auctions: the end as last heard; only ever later. */
  endsAt?: string;
  /** Auctions: local time (ms) a later end was heard, for "Extended". */
  extendedAt?: number;
  /** Auctions: whether the highest bid meets the reserve, as last read or pushed (once met, always met). */
  reserveMet?: boolean;
  /** Auctions: the close, as pushed (`car:status` ended first, then `auction:ended` with the outcome). */
  ended?: boolean;
  outcome?: AuctionOutcome;
}

export interface ListingLiveState {
  byId: Record<number, LiveCounts>;
}

export const useListingLiveStore = create<ListingLiveState>()(() => ({ byId: {} }));

/** A card on screen: its id, and for an auction the end and bid count its snapshot shows. */
export interface WatchedCar {
  id: number;
  auction?: { endsAt: string; currentBids: number; ended: boolean } | null;
}

let watched: number[] = [];
let listening = false;
/** Bumped with every new set of cards, so a late answer for an old set is dropped. */
let generation = 0;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const same = (a: LiveCounts, b: LiveCounts) =>
  (Object.keys(a) as (keyof LiveCounts)[]).length === (Object.keys(b) as (keyof LiveCounts)[]).length &&
  (Object.keys(a) as (keyof LiveCounts)[]).every((k) => a[k] === b[k]);

/**
 * Applies one `car:summary` to the counts (pure; exported for tests). `now` (local ms) stamps an
 * extension: an end later than the one held.
 */
export function applySummary(byId: Record<number, LiveCounts>, summary: unknown, now: number = Date.now()): Record<number, LiveCounts> {
  if (!isObject(summary)) return byId;
  const { carId, currentBids, viewers, highestBid, endsAt, reserveMet } = summary;
  if (typeof carId !== 'number') return byId;
  const held = byId[carId] ?? {};
  const next: LiveCounts = { ...held };
  if (typeof currentBids === 'number') next.currentBids = Math.max(held.currentBids ?? 0, currentBids);
  if (typeof viewers === 'number' && viewers >= 0) next.viewers = viewers;
  if (typeof highestBid === 'number') next.highestBid = Math.max(held.highestBid ?? 0, highestBid);
  if (reserveMet === true) next.reserveMet = true;
  if (typeof endsAt === 'string' && !Number.isNaN(Date.parse(endsAt))) {
    if (isExtension(held.endsAt, endsAt)) next.extendedAt = now;
    next.endsAt = laterEnd(held.endsAt, endsAt) ?? endsAt;
  }
  if (same(next, held) && carId in byId) return byId;
  return { ...byId, [carId]: next };
}

/** Applies `auction:ended` or `car:status` (pure; exported for tests). */
export function applyClose(byId: Record<number, LiveCounts>, event: unknown): Record<number, LiveCounts> {
  if (!isObject(event) || typeof event.carId !== 'number') return byId;
  const carId = event.carId;
  const held = byId[carId] ?? {};
  const next: LiveCounts = { ...held };
  if (typeof event.outcome === 'string' && (AUCTION_OUTCOMES as readonly string[]).includes(event.outcome)) {
    next.ended = true;
    next.outcome = event.outcome as AuctionOutcome;
    if (typeof event.highestBid === 'number') next.highestBid = Math.max(held.highestBid ?? 0, event.highestBid);
    if (event.outcome === 'sold') next.reserveMet = true;
  } else if (typeof event.status === 'string' && event.status !== 'active') {
    next.ended = true;
  } else {
    return byId;
  }
  if (same(next, held) && carId in byId) return byId;
  return { ...byId, [carId]: next };
}

/** What a car's detail says about its auction (pure; exported for tests). */
export function applyAuctionRead(
  byId: Record<number, LiveCounts>,
  carId: number,
  read: { highestBid: number | null; endsAt: string; reserveMet: boolean },
  now: number = Date.now(),
): Record<number, LiveCounts> {
  const held = byId[carId] ?? {};
  const next: LiveCounts = { ...held, reserveMet: held.reserveMet || read.reserveMet };
  if (read.highestBid !== null) next.highestBid = Math.max(held.highestBid ?? 0, read.highestBid);
  if (isExtension(held.endsAt, read.endsAt)) next.extendedAt = now;
  next.endsAt = laterEnd(held.endsAt, read.endsAt) ?? read.endsAt;
  if (same(next, held) && carId in byId) return byId;
  return { ...byId, [carId]: next };
}

function update(change: (byId: Record<number, LiveCounts>) => Record<number, LiveCounts>): void {
  useListingLiveStore.setState((state) => {
    const byId = change(state.byId);
    return byId === state.byId ? state : { byId };
  });
}

function listen(): void {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  socket.on('car:summary', (summary: unknown) => update((byId) => applySummary(byId, summary)));
  socket.on('auction:ended', (event: unknown) => update((byId) => applyClose(byId, event)));
  socket.on('car:status', (event: unknown) => update((byId) => applyClose(byId, event)));
  // Re-subscribe after every reconnect (a recovered connection may hold an outdated set).
  onSocketConnect(({ recovered }) => {
    if (watched.length > 0 || recovered) emitIfConnected('cars:watch', { carIds: watched });
  });
}

/**
 * The listing row has no current bid, so an auction card with bids reads its car once (which
 * also measures this device's clock against the server's). Cards without bids show the
 * starting bid, and live updates carry every later bid.
 */
async function readAuctions(cars: readonly WatchedCar[], of: number): Promise<void> {
  const withBids = cars.filter((car) => car.auction && !car.auction.ended && car.auction.currentBids > 0);
  await Promise.all(
    withBids.map(async (car) => {
      try {
        const read = await getCarAuction(car.id);
        recordServerTime(read.serverTime);
        if (of !== generation || !read.auction) return;
        const auction = read.auction;
        update((byId) => applyAuctionRead(byId, car.id, { highestBid: read.highestBid, endsAt: auction.endsAt, reserveMet: auction.reserveMet }));
      } catch {
        // The card still shows the bid count; the next bid brings the amount.
      }
    }),
  );
}

/**
 * Replaces the watched set (an empty list stops all updates). Earlier live counts are dropped: a
 * new set comes with a fresh snapshot, whose auction ends seed the entries (so a later end heard
 * live shows as an extension).
 */
export function watchCars(cars: readonly WatchedCar[]): void {
  const next = [...new Set(cars.map((c) => c.id))].slice(0, MAX_WATCHED_CARS);
  const unchanged = next.length === watched.length && next.every((id, i) => id === watched[i]);
  watched = next;
  generation += 1;
  const seeded: Record<number, LiveCounts> = {};
  for (const car of cars) if (car.auction && next.includes(car.id)) seeded[car.id] = { endsAt: car.auction.endsAt };
  const held = useListingLiveStore.getState().byId;
  if (Object.keys(held).length > 0 || Object.keys(seeded).length > 0) useListingLiveStore.setState({ byId: seeded });
  if (next.length === 0 && !listening) return; // nothing watched yet: no need for a socket
  listen();
  if (!unchanged || next.length === 0) emitIfConnected('cars:watch', { carIds: next });
  void readAuctions(
    cars.filter((c) => next.includes(c.id)),
    generation,
  );
}
