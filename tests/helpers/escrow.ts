import { expect } from 'vitest';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import type { PayoutRequest, PaymentResult } from '../../server/src/services/orders/payment-provider.ts';
import { SimulatedBank } from '../../server/src/services/orders/payment-provider.ts';
import type { TestApp } from './app.ts';
import { request, type Caller as AnyCaller } from './api.ts';
import { createListing } from './cars.ts';
import { waitUntil } from './sockets.ts';
import type { SignedInUser } from './users.ts';

// Listings moved to cars.ts; these names stay for the files that import them from here.
export { createListing, insertListing, type ListingOptions } from './cars.ts';

/** A simulated bank whose payouts can be held back for chosen orders, to see orders wait in `accepted`. */
export class HoldingBank extends SimulatedBank {
  readonly heldOrders = new Set<number>();
  /** Payout requests received, by order. */
  readonly payoutCalls = new Map<number, number>();

  override async payout(request: PayoutRequest): Promise<PaymentResult> {
    this.payoutCalls.set(request.orderId, (this.payoutCalls.get(request.orderId) ?? 0) + 1);
    if (this.heldOrders.has(request.orderId)) throw new Error('payouts to this seller are on hold (test)');
    return super.payout(request);
  }
}

export type Caller = SignedInUser | undefined;

export function orderApi(t: TestApp) {
  const call = (method: 'GET' | 'POST', url: string, user: AnyCaller, payload?: object, headers: Record<string, string> = {}) => request(t, method, url, user, payload, headers);
  return {
    call,
    place: (buyer: Caller, car: { id: number; price: number }, plan?: string) =>
      call('POST', '/api/orders', buyer, { carId: car.id, amount: car.price, ...(plan ? { plan } : {}) }),
    act: (user: Caller, orderId: number, action: string, body: object = {}, headers: Record<string, string> = {}) =>
      call('POST', `/api/orders/${orderId}/${action}`, user, body, headers),
    get: (user: Caller, orderId: number) => call('GET', `/api/orders/${orderId}`, user),
  };
}

/** The moves that take a new order to `status` (statuses reached by the system are not here). */
export const PATH_TO: Partial<Record<OrderStatus, { action: string; by: 'buyer' | 'seller'; body?: object }[]>> = {
  awaiting_payment: [],
  funded: [{ action: 'pay', by: 'buyer' }],
  in_transit: [
    { action: 'pay', by: 'buyer' },
    { action: 'ship', by: 'seller', body: { carrier: 'Reliable Carriers', trackingNumber: 'RC-100' } },
  ],
  inspection: [
    { action: 'pay', by: 'buyer' },
    { action: 'ship', by: 'seller', body: { carrier: 'Reliable Carriers', trackingNumber: 'RC-100' } },
    { action: 'confirm-delivery', by: 'buyer' },
  ],
  disputed: [
    { action: 'pay', by: 'buyer' },
    { action: 'ship', by: 'seller', body: { carrier: 'Reliable Carriers', trackingNumber: 'RC-100' } },
    { action: 'confirm-delivery', by: 'buyer' },
    { action: 'dispute', by: 'buyer', body: { reason: 'The paint does not match the listing.' } },
  ],
  cancelled: [{ action: 'cancel', by: 'buyer', body: { reason: 'Changed my mind' } }],
};

/** Where `orderIn` and `driveOrder` take an order: a status the parties reach, or `released` (accepted, then paid out). */
export type ReachableStatus = keyof typeof PATH_TO | 'released';

export interface OrderOptions {
  /** The escrow plan (premium unless told). */
  plan?: string;
  /** The car to order (a new listing of `seller` unless given; `seller` must be its seller's account). */
  car?: { id: number; price: number };
}

/**
 * Places an order as `buyer` for a car of `seller` (a new listing unless `options.car`) and
 * drives it to `status` through the API. `options` may be the plan's name, as before.
 */
export async function orderIn(t: TestApp, status: ReachableStatus, buyer: SignedInUser, seller: SignedInUser, options: string | OrderOptions = {}): Promise<OrderWithEvents> {
  const { plan = 'premium', car } = typeof options === 'string' ? { plan: options } : options;
  const placed = await orderApi(t).place(buyer, car ?? (await createListing(t, seller)), plan);
  expect(placed.statusCode, placed.body).toBe(201);
  return driveOrder(t, placed.json().data, status, buyer, seller);
}

/**
 * Drives an existing order (in `awaiting_payment`) to `status` with the parties' moves; for
 * `released`, the buyer accepts and the payout is waited for.
 */
export async function driveOrder(t: TestApp, placed: { id: number }, status: ReachableStatus, buyer: SignedInUser, seller: SignedInUser): Promise<OrderWithEvents> {
  const api = orderApi(t);
  const steps = status === 'released' ? [...PATH_TO.inspection!, { action: 'accept', by: 'buyer' as const }] : (PATH_TO[status] ?? []);
  let order = ('status' in placed ? placed : (await api.get(buyer, placed.id)).json().data) as OrderWithEvents;
  for (const step of steps) {
    const res = await api.act(step.by === 'buyer' ? buyer : seller, order.id, step.action, step.body ?? {});
    expect(res.statusCode, `${step.action}: ${res.body}`).toBe(200);
    order = res.json().data;
  }
  if (status === 'released') return waitForOrder(t, buyer, order.id, (o) => o.status === 'released', 10_000);
  expect(order.status).toBe(status);
  return order;
}

/** Waits until the order (read as `user`) satisfies `predicate`, and returns it. */
export async function waitForOrder(t: TestApp, user: SignedInUser, orderId: number, predicate: (o: OrderWithEvents) => boolean, timeoutMs = 15_000): Promise<OrderWithEvents> {
  let latest: OrderWithEvents | undefined;
  await waitUntil(
    async () => {
      latest = (await orderApi(t).get(user, orderId)).json().data;
      return latest !== undefined && predicate(latest);
    },
    timeoutMs,
    `order ${orderId} (last seen: ${latest?.status})`,
  );
  return latest!;
}
