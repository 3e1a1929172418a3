import { useEffect } from 'react';
import { create } from 'zustand';
import type { OfferPartyMove } from '@common/offer-lifecycle.ts';
import { ApiError, errorMessage, isAbortError } from '../../../lib/api-client.ts';
import { getSocket, onSocketConnect } from '../../../lib/socket.ts';
import { UseCounts } from '../../../lib/use-counts.ts';
import { getOffer, getOffers, postOfferMove, toPushedOffer, type Offer, type OfferMoveBodies, type OfferMoveResult } from '../api/offers-api.ts';
import { newerOffer } from '../lib/offer-view.ts';

/**
 * The signed-in user's offers, by id: the list (dashboard tab, car page) and the threads open on
 * screen share them. REST snapshots, the answers to the user's own moves and `offer:updated`
 * pushes all land here through `newerOffer`, so an older copy never replaces a newer one.
 */

export type LoadStatus = 'loading' | 'ready' | 'not-found' | 'error';

export interface OfferStoreState {
  /** Whose offers these are; another user starts from nothing. */
  userId: number | null;
  offers: Record<number, Offer>;
  list: { status: LoadStatus; error: string | null } | null;
  threads: Record<number, { status: LoadStatus; error: string | null }>;
}

export const useOfferStore = create<OfferStoreState>()(() => ({ userId: null, offers: {}, list: null, threads: {} }));

/** Merges copies of offers (a snapshot, a push or a move's answer). */
export function applyOffers(incoming: readonly Offer[]): void {
  useOfferStore.setState((state) => {
    let offers = state.offers;
    for (const offer of incoming) {
      const next = newerOffer(offers[offer.id], offer);
      if (next !== offers[offer.id]) offers = { ...offers, [offer.id]: next };
    }
    const threads = { ...state.threads };
    for (const offer of incoming) if (threads[offer.id]) threads[offer.id] = { status: 'ready', error: null };
    return offers === state.offers && incoming.every((o) => state.threads[o.id]?.status !== 'loading') ? state : { offers, threads };
  });
}

const listViewers = new UseCounts<'list'>();
const threadViewers = new UseCounts<number>();

/** Follows `offer:updated` from the first screen on, and re-reads what is on screen after every (re)connect. */
const listen = (() => {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    getSocket().on('offer:updated', (raw: unknown) => applyOffers([toPushedOffer(raw)].filter((o) => o !== null)));
    // Pushes may have been missed while the connection was down.
    onSocketConnect(() => {
      if (listViewers.has('list')) void syncOfferList();
      for (const id of threadViewers.keys()) void syncOffer(id);
    });
  };
})();

/** Starts over for another user (signed in elsewhere, signed out). */
function forUser(userId: number): void {
  if (useOfferStore.getState().userId !== userId) useOfferStore.setState({ userId, offers: {}, list: null, threads: {} });
}

export async function syncOfferList(): Promise<void> {
  try {
    const offers = await getOffers();
    applyOffers(offers);
    useOfferStore.setState({ list: { status: 'ready', error: null } });
  } catch (error) {
    if (isAbortError(error)) return;
    useOfferStore.setState((s) => (s.list?.status === 'ready' ? s : { list: { status: 'error', error: errorMessage(error, 'Could not load your offers.') } }));
  }
}

export async function syncOffer(offerId: number): Promise<void> {
  try {
    applyOffers([await getOffer(offerId)]);
  } catch (error) {
    if (isAbortError(error)) return;
    const status: LoadStatus = error instanceof ApiError && error.status === 404 ? 'not-found' : 'error';
    useOfferStore.setState((s) =>
      s.threads[offerId]?.status === 'ready' && status === 'error'
        ? s
        : { threads: { ...s.threads, [offerId]: { status, error: errorMessage(error, 'Could not load this offer.') } } },
    );
  }
}

/** The user's offers (newest first), read once per viewer and kept live. */
export function useOfferList(userId: number): { status: LoadStatus; error: string | null; offers: Offer[]; retry: () => void } {
  useEffect(() => {
    forUser(userId);
    listen();
    if (listViewers.open('list')) {
      useOfferStore.setState((s) => (s.list ? s : { list: { status: 'loading', error: null } }));
      void syncOfferList();
    }
    return () => void listViewers.close('list');
  }, [userId]);
  const list = useOfferStore((s) => (s.userId === userId ? s.list : null));
  const offers = useOfferStore((s) => s.offers);
  return {
    status: list?.status ?? 'loading',
    error: list?.error ?? null,
    offers: Object.values(offers).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id),
    retry: () => void syncOfferList(),
  };
}

/** One offer's thread, read when opened and kept live. */
export function useOfferThread(userId: number, offerId: number): { status: LoadStatus; error: string | null; offer: Offer | null } {
  useEffect(() => {
    forUser(userId);
    listen();
    if (threadViewers.open(offerId)) {
      useOfferStore.setState((s) => ({ threads: { ...s.threads, [offerId]: { status: 'loading', error: null } } }));
      void syncOffer(offerId);
    }
    return () => void threadViewers.close(offerId);
  }, [userId, offerId]);
  const thread = useOfferStore((s) => (s.userId === userId ? s.threads[offerId] : undefined));
  const offer = useOfferStore((s) => s.offers[offerId] ?? null);
  if (thread?.status === 'ready' && offer) return { status: 'ready', error: null, offer };
  return { status: thread?.status === 'ready' ? 'loading' : (thread?.status ?? 'loading'), error: thread?.error ?? null, offer: null };
}

/**
 * Makes a move. The answer updates the offer at once (after accept: re-read, the answer is the
 * order); a refusal because the offer moved meanwhile (409) re-reads it. Throws the ApiError.
 */
export async function runOfferMove<M extends OfferPartyMove>(offerId: number, move: M, body: OfferMoveBodies[M], idempotencyKey: string): Promise<OfferMoveResult<M>> {
  try {
    const result = await postOfferMove(offerId, move, body, idempotencyKey);
    if (move === 'accept') void syncOffer(offerId);
    else applyOffers([result as Offer]);
    return result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) void syncOffer(offerId);
    throw error;
  }
}
