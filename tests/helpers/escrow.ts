import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cars, sellers } from '../../db/schema/index.ts';
import { carSearchText } from '../../db/search-text.ts';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import type { PayoutRequest, PaymentResult } from '../../server/src/services/orders/payment-provider.ts';
import { SimulatedBank } from '../../server/src/services/orders/payment-provider.ts';
import type { Database } from '../../db/client.ts';
import type { TestApp } from './app.ts';
import { waitUntil } from './sockets.ts';
import type { SignedInUser } from './users.ts';

let listings = 0;

/** A car listed by `seller` (given a seller profile if it has none), straight into the catalogue. */
export function createListing(t: TestApp, seller: SignedInUser, options: ListingOptions = {}): Promise<{ id: number; price: number }> {
  return insertListing(t.database.db, seller, options);
}

export interface ListingOptions {
  price?: number;
  make?: string;
  model?: string;
}

export async function insertListing(db: Database, seller: { id: number; name: string }, options: ListingOptions = {}): Promise<{ id: number; price: number }> {
  listings += 1;
  let [profile] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.userId, seller.id));
  profile ??= (await db.insert(sellers).values({ userId: seller.id, name: seller.name, rating: 4.5, verified: true }).returning({ id: sellers.id }))[0]!;
  const make = options.make ?? 'Porsche';
  const model = options.model ?? `911 Test ${listings}`;
  const price = options.price ?? 90_000 + listings * 100;
  const [car] = await db
    .insert(cars)
    .values({
      sellerId: profile.id,
      make,
      model,
      year: 2022,
      price,
      marketValue: price,
      marketValueBasis: 'reference',
      mileage: 8_000,
      condition: 'Excellent',
      bodyStyle: 'coupe',
      color: '#1f2937',
      location: 'Austin, TX',
      description: 'A test listing.',
      searchText: carSearchText({ make, model }),
    })
    .returning({ id: cars.id, price: cars.price });
  return car!;
}

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
  const call = (method: 'GET' | 'POST', url: string, user: Caller, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, ...(payload !== undefined ? { payload } : {}), headers: { ...(user ? user.auth : {}), ...headers } });
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

/** Places an order for a new listing of `seller` and drives it to `status` through the API. */
export async function orderIn(t: TestApp, status: OrderStatus, buyer: SignedInUser, seller: SignedInUser, plan = 'premium'): Promise<OrderWithEvents> {
  const api = orderApi(t);
  const car = await createListing(t, seller);
  const placed = await api.place(buyer, car, plan);
  expect(placed.statusCode, placed.body).toBe(201);
  let order: OrderWithEvents = placed.json().data;
  for (const step of PATH_TO[status] ?? []) {
    const res = await api.act(step.by === 'buyer' ? buyer : seller, order.id, step.action, step.body ?? {});
    expect(res.statusCode, `${step.action}: ${res.body}`).toBe(200);
    order = res.json().data;
  }
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
