import { create } from 'zustand';
import type { WatchedCars } from '@common/schemas/cars.ts';
import { api } from './api-client.ts';
import { useSessionStore } from './session-store.ts';

/**
 * Which cars the signed-in user watches. The ids are read from `GET /api/watchlist` once per
 * session (per signed-in user) and then kept in step by the toggles, which update the screen at
 * once and roll back if the server refuses. Signing out or in as someone else starts over.
 */

export type WatchlistStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface WatchlistState {
  /** The user these ids belong to; null when signed out. */
  ownerId: number | null;
  status: WatchlistStatus;
  ids: ReadonlySet<number>;
  /** Cars with a change on its way to the server. */
  pending: ReadonlySet<number>;
  /** The car whose last change failed, for a message beside its button. */
  failedId: number | null;
  /** Loads the ids unless already loaded (or loading) for the current user. */
  ensureLoaded: () => Promise<void>;
  /** Watches or unwatches `carId`; resolves to whether it is watched afterwards. */
  toggle: (carId: number) => Promise<boolean>;
  /** Watches `carId` (no-op when already watched). */
  add: (carId: number) => Promise<boolean>;
  /** Stops watching `carId`; resolves to false when the server refused. */
  remove: (carId: number) => Promise<boolean>;
}

const EMPTY: ReadonlySet<number> = new Set();
let loading: { ownerId: number; promise: Promise<void> } | null = null;

function withId(set: ReadonlySet<number>, id: number, present: boolean): ReadonlySet<number> {
  if (set.has(id) === present) return set;
  const next = new Set(set);
  if (present) next.add(id);
  else next.delete(id);
  return next;
}

function currentUserId(): number | null {
  const { isAuthenticated, user } = useSessionStore.getState();
  return isAuthenticated && user ? user.id : null;
}

export const useWatchlistStore = create<WatchlistState>()((set, get) => {
  /** Sends one change; the screen shows it at once and goes back if the server says no. */
  async function change(carId: number, watch: boolean): Promise<boolean> {
    await get().ensureLoaded();
    const ownerId = get().ownerId;
    if (ownerId === null || get().pending.has(carId)) return get().ids.has(carId);
    const before = get().ids.has(carId);
    set((s) => ({ ids: withId(s.ids, carId, watch), pending: withId(s.pending, carId, true), failedId: null }));
    try {
      if (watch) await api.post('/api/watchlist', { carId });
      else await api.delete(`/api/watchlist/${carId}`);
      return watch;
    } catch {
      if (get().ownerId === ownerId) {
        set((s) => ({ ids: withId(s.ids, carId, before), failedId: carId }));
      }
      return before;
    } finally {
      if (get().ownerId === ownerId) set((s) => ({ pending: withId(s.pending, carId, false) }));
    }
  }

  return {
    ownerId: null,
    status: 'idle',
    ids: EMPTY,
    pending: EMPTY,
    failedId: null,

    ensureLoaded() {
      const userId = currentUserId();
      if (userId === null) return Promise.resolve();
      const state = get();
      if (state.ownerId === userId && state.status === 'ready') return Promise.resolve();
      if (loading && loading.ownerId === userId) return loading.promise;

      set({ ownerId: userId, status: 'loading', ids: EMPTY, pending: EMPTY, failedId: null });
      const promise = api
        .get<WatchedCars>('/api/watchlist')
        .then((data) => {
          if (get().ownerId !== userId) return;
          set({ status: 'ready', ids: new Set(data.cars.map((car) => car.id)) });
        })
        .catch(() => {
          if (get().ownerId === userId) set({ status: 'error' });
        })
        .finally(() => {
          if (loading?.promise === promise) loading = null;
        });
      loading = { ownerId: userId, promise };
      return promise;
    },

    async toggle(carId) {
      await get().ensureLoaded();
      return change(carId, !get().ids.has(carId));
    },
    add: (carId) => change(carId, true),
    async remove(carId) {
      const watched = await change(carId, false);
      return !watched;
    },
  };
});

/** Forgets the list when the signed-in user changes (logout, another account, expired session). */
useSessionStore.subscribe((session, previous) => {
  const next = session.isAuthenticated && session.user ? session.user.id : null;
  const before = previous.isAuthenticated && previous.user ? previous.user.id : null;
  if (next === before) return;
  loading = null;
  useWatchlistStore.setState({ ownerId: null, status: 'idle', ids: EMPTY, pending: EMPTY, failedId: null });
});
