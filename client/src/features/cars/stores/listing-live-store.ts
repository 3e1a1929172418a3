import { create } from 'zustand';
import { emitIfConnected, getSocket, onSocketConnect } from '../../../lib/socket.ts';

/**
 * Live counters for the listing cards on screen: `cars:watch` subscribes to `car:summary`
 * updates for those cars without counting as a viewer of any of them. Updates land here via
 * `setState` outside React; each card reads its own entry.
 */

export interface LiveCounts {
  currentBids?: number;
  viewers?: number;
}

export interface ListingLiveState {
  byId: Record<number, LiveCounts>;
}

export const useListingLiveStore = create<ListingLiveState>()(() => ({ byId: {} }));

/** The server accepts at most this many ids per `cars:watch`. */
export const MAX_WATCHED_CARS = 60;

let watched: number[] = [];
let listening = false;

/** Applies one `car:summary` to the counts (pure; exported for tests). */
export function applySummary(byId: Record<number, LiveCounts>, summary: unknown): Record<number, LiveCounts> {
  if (typeof summary !== 'object' || summary === null) return byId;
  const { carId, currentBids, viewers } = summary as Record<string, unknown>;
  if (typeof carId !== 'number') return byId;
  const held = byId[carId] ?? {};
  const next: LiveCounts = { ...held };
  if (typeof currentBids === 'number') next.currentBids = Math.max(held.currentBids ?? 0, currentBids);
  if (typeof viewers === 'number' && viewers >= 0) next.viewers = viewers;
  if (next.currentBids === held.currentBids && next.viewers === held.viewers && carId in byId) return byId;
  return { ...byId, [carId]: next };
}

function listen(): void {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  socket.on('car:summary', (summary: unknown) => {
    useListingLiveStore.setState((state) => {
      const byId = applySummary(state.byId, summary);
      return byId === state.byId ? state : { byId };
    });
  });
  // Re-subscribe after every reconnect (a recovered connection may hold an outdated set).
  onSocketConnect(({ recovered }) => {
    if (watched.length > 0 || recovered) emitIfConnected('cars:watch', { carIds: watched });
  });
}

/** Replaces the watched set (an empty list stops all updates). Earlier live counts are dropped: a new set comes with a fresh snapshot. */
export function watchCars(carIds: readonly number[]): void {
  const next = [...new Set(carIds)].slice(0, MAX_WATCHED_CARS);
  const unchanged = next.length === watched.length && next.every((id, i) => id === watched[i]);
  watched = next;
  if (Object.keys(useListingLiveStore.getState().byId).length > 0) useListingLiveStore.setState({ byId: {} });
  if (next.length === 0 && !listening) return; // nothing watched yet: no need for a socket
  listen();
  if (!unchanged || next.length === 0) emitIfConnected('cars:watch', { carIds: next });
}
