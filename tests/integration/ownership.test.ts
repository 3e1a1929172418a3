import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { requestsTo, type Method } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { syntheticPhoto } from '../helpers/photos.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Broken object-level authorisation: for every route that reads or changes a user's own record,
 * another signed-in user is told it does not exist (404) and the record does not change.
 */

let t: TestApp;
let owner: SignedInUser;
let other: SignedInUser;
let order: OrderWithEvents;
let car: CarDetail;
let draft: CarDetail;
let notificationId: number;
let ticket: string;
let bidId: number;
let offerId: number;

const call = requestsTo(() => t);

beforeAll(async () => {
  t = await startTestApp({ SMTP_URL: '' });
  await t.listen();
  [owner, other] = [await createUser(t, { name: 'Record Owner' }), await createUser(t, { name: 'Someone Else' })];
  const seller = await createUser(t);
  order = await orderIn(t, 'inspection', owner, seller);
  const newCar = (draftFlag: boolean) =>
    listCar(t, owner, { make: 'Ferrari', model: draftFlag ? 'Draft F8' : 'F8 Tributo', year: 2021, price: 280_000, mileage: 3_000, location: 'Boston, MA', description: 'Owner record.', draft: draftFlag });
  car = await newCar(false);
  draft = await newCar(true);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await syntheticPhoto({ width: 400, height: 300 }))], { type: 'image/jpeg' }), 'p.jpg');
  expect((await fetch(`${t.url}/api/cars/${car.id}/images`, { method: 'POST', headers: owner.auth, body: form })).status).toBe(201);
  const placed = await call('POST', '/api/bids', seller, { carId: car.id, amount: 140_000 });
  expect(placed.statusCode, placed.body).toBe(201);
  bidId = placed.json().data.bid.id;
  const watched = await createListing(t, seller);
  await call('POST', '/api/watchlist', owner, { carId: watched.id });
  const offered = await call('POST', `/api/cars/${watched.id}/offers`, owner, { amount: Math.floor(watched.price / 2) });
  expect(offered.statusCode, offered.body).toBe(201);
  offerId = offered.json().data.id;
  notificationId = (await call('GET', '/api/notifications', owner)).json().data.notifications.find((n: { read: boolean }) => !n.read).id;
  ticket = (await call('POST', '/api/support/tickets', owner, { subject: 'My car', message: 'Private question' })).json().data.id;
});
afterAll(async () => {
  await t?.close();
});

/** What the owner sees of all their records: nothing in it may change when the other user tries. */
async function ownersView() {
  const get = async (url: string) => (await call('GET', url, owner)).json().data;
  return JSON.stringify({
    order: await get(`/api/orders/${order.id}`),
    orders: await get('/api/orders'),
    car: await get(`/api/cars/${car.id}`),
    draft: await get(`/api/cars/${draft.id}`),
    listings: await get('/api/users/me/listings'),
    notifications: (await get('/api/notifications')).notifications.map((n: { id: number; read: boolean }) => [n.id, n.read]),
    watchlist: await get('/api/watchlist'),
    bids: await get('/api/bids/user'),
    tickets: await get('/api/support/tickets'),
    ticket: await get(`/api/support/tickets/${ticket}`),
    profile: await get('/api/users/profile'),
    offer: await get(`/api/offers/${offerId}`),
    offers: await get('/api/offers'),
  }).replace(/"viewingCount":\d+|"viewing_count":\d+|"serverTime":"[^"]+"/g, '');
}

describe("another user's records", () => {
  // Paths and bodies are read when each test runs, once the records exist.
  const attempts: [string, Method, () => string, (() => object)?][] = [
    ['read an order', 'GET', () => `/api/orders/${order.id}`],
    ['accept an order', 'POST', () => `/api/orders/${order.id}/accept`, () => ({})],
    ['dispute an order', 'POST', () => `/api/orders/${order.id}/dispute`, () => ({ reason: 'Not mine' })],
    ['cancel an order', 'POST', () => `/api/orders/${order.id}/cancel`, () => ({})],
    ['pay an order', 'POST', () => `/api/orders/${order.id}/pay`, () => ({})],
    ['ship an order', 'POST', () => `/api/orders/${order.id}/ship`, () => ({ carrier: 'X', trackingNumber: 'Y' })],
    ['confirm delivery of an order', 'POST', () => `/api/orders/${order.id}/confirm-delivery`, () => ({})],
    ['mark a notification read', 'PUT', () => `/api/notifications/${notificationId}/read`],
    ['edit a listing', 'PATCH', () => `/api/cars/${car.id}`, () => ({ price: 1 })],
    ['withdraw a listing', 'DELETE', () => `/api/cars/${car.id}`],
    ['publish a draft', 'POST', () => `/api/cars/${draft.id}/publish`],
    ['read a draft', 'GET', () => `/api/cars/${draft.id}`],
    ['remove a listing photo', 'DELETE', () => `/api/cars/${car.id}/images/0`],
    ['reorder listing photos', 'PUT', () => `/api/cars/${car.id}/images/order`, () => ({ order: [0] })],
    ['accept a bid on a listing', 'POST', () => `/api/cars/${car.id}/accept-bid`, () => ({ bidId })],
    ['read a support ticket', 'GET', () => `/api/support/tickets/${ticket}`],
    ['read an offer', 'GET', () => `/api/offers/${offerId}`],
    ['counter an offer', 'POST', () => `/api/offers/${offerId}/counter`, () => ({ amount: 1_000 })],
    ['accept an offer', 'POST', () => `/api/offers/${offerId}/accept`, () => ({})],
    ['decline an offer', 'POST', () => `/api/offers/${offerId}/decline`, () => ({})],
    ['withdraw an offer', 'POST', () => `/api/offers/${offerId}/withdraw`, () => ({})],
    ['send a second-chance offer for a listing', 'POST', () => `/api/cars/${car.id}/second-chance`, () => ({})],
  ];

  it.each(attempts)('cannot %s: 404, and nothing changes', async (_, method, url, body) => {
    const before = await ownersView();
    const res = await call(method, url(), other, body?.());
    expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
    expect(await ownersView()).toBe(before);
  });

  it('cannot upload a photo to a listing', async () => {
    const before = await ownersView();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await syntheticPhoto({ width: 200, height: 150 }))], { type: 'image/jpeg' }), 'p.jpg');
    const res = await fetch(`${t.url}/api/cars/${car.id}/images`, { method: 'POST', headers: other.auth, body: form });
    expect(res.status).toBe(404);
    expect(await ownersView()).toBe(before);
  });

  it("never lists them among the other user's own", async () => {
    const before = await ownersView();
    const get = async (url: string) => JSON.stringify((await call('GET', url, other)).json().data);
    expect(await get('/api/orders')).not.toContain(`"id":${order.id},`);
    expect(await get('/api/users/me/listings')).toBe('{"listings":[]}');
    expect(await get('/api/bids/user')).toBe('{"bids":[]}');
    expect(await get('/api/watchlist')).toBe('{"cars":[]}');
    expect(await get('/api/support/tickets')).toBe('{"tickets":[]}');
    expect(await get('/api/offers')).toBe('{"offers":[]}');
    expect((await call('GET', '/api/notifications', other)).json().data.notifications.map((n: { id: number }) => n.id)).not.toContain(notificationId);
    // Their own "remove from watchlist" and "read all" touch only their own records.
    await call('DELETE', `/api/watchlist/${car.id}`, other);
    await call('PUT', '/api/notifications/read-all', other);
    expect(await ownersView()).toBe(before);
  });
});
