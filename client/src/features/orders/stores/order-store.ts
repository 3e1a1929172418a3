import { create } from 'zustand';
import type { PartyAction } from '@common/order-lifecycle.ts';
import { ApiError, isAbortError } from '../../../lib/api-client.ts';
import { mergeOrder } from '../../../lib/order-merge.ts';
import { UseCounts } from '../../../lib/use-counts.ts';
import { getSocket, onSocketConnect } from '../../../lib/socket.ts';
import { getOrder, postOrderAction, toPushedOrder, type ActionBodies, type OrderWithEvents } from '../api/orders-api.ts';

/**
 * Orders open on screen (the order page), by id. The REST snapshot, the answers to the user's
 * own moves and `order:updated` pushes all land here through `mergeOrder`, so an older copy never
 * replaces a newer one whatever order they arrive in. Socket listeners call `setState` outside React.
 */

export type OrderEntryStatus = 'loading' | 'ready' | 'not-found' | 'error';

export interface OrderEntry {
  status: OrderEntryStatus;
  order: OrderWithEvents | null;
  /** Why the order could not be loaded (status 'error'). */
  error: string | null;
}

export interface OrderStoreState {
  entries: Record<number, OrderEntry>;
}

export const useOrderStore = create<OrderStoreState>()(() => ({ entries: {} }));

const LOAD_FAILED = 'Could not load this order.';

function update(orderId: number, change: (entry: OrderEntry) => OrderEntry): void {
  useOrderStore.setState((state) => {
    const entry = state.entries[orderId];
    if (!entry) return state; // closed: late answers are dropped
    const next = change(entry);
    return next === entry ? state : { entries: { ...state.entries, [orderId]: next } };
  });
}

/** Merges a copy of an order into its open entry (a snapshot, a push, or an action's answer). */
export function applyOrder(order: OrderWithEvents): void {
  update(order.id, (entry) => {
    const merged = mergeOrder(entry.order, order);
    if (merged === entry.order && entry.status === 'ready') return entry;
    return { status: 'ready', order: merged, error: null };
  });
}

const openCount = new UseCounts<number>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  getSocket().on('order:updated', (raw: unknown) => {
    const order = toPushedOrder(raw);
    if (order) applyOrder(order);
  });
  // Pushes may have been missed while the connection was down: re-read every open order.
  onSocketConnect(() => {
    for (const orderId of openCount.keys()) void syncOrder(orderId);
  });
}

/** Reads the order's snapshot into its entry. */
export async function syncOrder(orderId: number): Promise<void> {
  try {
    applyOrder(await getOrder(orderId));
  } catch (error) {
    if (isAbortError(error)) return;
    if (error instanceof ApiError && error.status === 404) {
      update(orderId, (entry) => (entry.status === 'not-found' ? entry : { status: 'not-found', order: null, error: null }));
      return;
    }
    // An order on screen stays on screen; the next reconnect or action re-reads it.
    update(orderId, (entry) =>
      entry.status === 'ready' ? entry : { ...entry, status: 'error', error: error instanceof ApiError ? error.message : LOAD_FAILED },
    );
  }
}

/** Starts (or shares) the live view of an order. */
export function openOrder(orderId: number): void {
  listen();
  if (!openCount.open(orderId)) return;
  useOrderStore.setState((state) => ({
    entries: { ...state.entries, [orderId]: { status: 'loading', order: null, error: null } },
  }));
  void syncOrder(orderId);
}

/** Ends one viewer of the order; the last one forgets it. */
export function closeOrder(orderId: number): void {
  if (!openCount.close(orderId)) return;
  useOrderStore.setState((state) => {
    if (!(orderId in state.entries)) return state;
    const entries = { ...state.entries };
    delete entries[orderId];
    return { entries };
  });
}

/**
 * Makes a move. The answer updates the order at once; a refusal because the order moved meanwhile
 * (409) re-reads it so the page shows what happened. Throws the ApiError for the caller to show.
 */
export async function runOrderAction<A extends PartyAction>(orderId: number, action: A, body: ActionBodies[A], idempotencyKey: string): Promise<OrderWithEvents> {
  try {
    const order = await postOrderAction(orderId, action, body, idempotencyKey);
    applyOrder(order);
    return order;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) void syncOrder(orderId);
    throw error;
  }
}
