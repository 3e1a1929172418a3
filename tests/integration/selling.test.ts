import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellers, users } from '../../db/schema/index.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { ChatMessage } from '@common/schemas/chat.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar as listCarAs, listingBody } from '../helpers/cars.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { orderApi, waitForOrder } from '../helpers/escrow.ts';
import { connectSocket, nextEvent, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_SECONDS: '0.5' });
  await t.listen();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

const call = requestsTo(() => t);

let made = 0;
/** A valid listing, unique per call so each test has a model of its own unless it asks for one. */
function listing(overrides: Record<string, unknown> = {}) {
  made += 1;
  return listingBody({
    make: 'Aston Martin',
    model: `Vantage Test ${made}`,
    year: 2021,
    price: 150_000,
    mileage: 12_000,
    location: 'Seattle, WA',
    description: 'One owner, full service history.',
    features: ['Carbon pack', 'Sport exhaust'],
    ...overrides,
  });
}

const listCar = (seller: SignedInUser, overrides: Record<string, unknown> = {}): Promise<CarDetail> => listCarAs(t, seller, listing(overrides));

const detail = async (id: number, user?: SignedInUser) => call('GET', `/api/cars/${id}`, user);
const listed = async (search: string) => (await call('GET', `/api/cars?search=${encodeURIComponent(search)}&limit=50`)).json().data.cars as { id: number; market_value: number | null }[];

describe('listing a car', () => {
  it('lists a car for a verified user, creating their seller profile, and shows it in the listing', async () => {
    const seller = await createUser(t, { name: 'Quinn Seller' });
    const car = await listCar(seller, { make: 'Lotus', model: 'Emira First Edition', features: ['  Clubsport pack  '] });
    expect(car).toMatchObject({
      status: 'active',
      make: 'Lotus',
      model: 'Emira First Edition',
      price: 150_000,
      marketValue: null,
      marketValueBasis: null,
      features: ['Clubsport pack'],
      images: [],
      photos: [],
      currentBids: 0,
      highestBid: null,
      seller: { name: 'Quinn Seller', verified: false, rating: 0, userId: seller.id },
    });
    expect((await listed('lotus emira')).map((c) => c.id)).toContain(car.id);
    const second = await listCar(seller);
    expect(second.seller.id).toBe(car.seller.id);
    const [profiles] = [await t.database.db.select().from(sellers).where(eq(sellers.userId, seller.id))];
    expect(profiles).toHaveLength(1);
    const mine = (await call('GET', '/api/users/me/listings', seller)).json().data.listings;
    expect(mine.map((l: { id: number }) => l.id)).toEqual([second.id, car.id]);
    expect(mine[0]).toMatchObject({ status: 'active', highestBid: null, openOrderId: null, watchers: 0, market_value: null, seller_name: 'Quinn Seller' });
  });

  it.each([
    ['make empty', { make: '' }],
    ['make blank', { make: '   ' }],
    ['make too long', { make: 'x'.repeat(61) }],
    ['model too long', { model: 'x'.repeat(61) }],
    ['year before 1900', { year: 1899 }],
    ['year after next year', { year: new Date().getUTCFullYear() + 2 }],
    ['year not a whole number', { year: 2020.5 }],
    ['price zero', { price: 0 }],
    ['price above a million', { price: 1_000_001 }],
    ['price as text', { price: '150000' }],
    ['negative mileage', { mileage: -1 }],
    ['mileage above a million', { mileage: 1_000_001 }],
    ['unknown condition', { condition: 'Good' }],
    ['location too long', { location: 'x'.repeat(121) }],
    ['description empty', { description: '' }],
    ['description too long', { description: 'x'.repeat(5_001) }],
    ['41 features', { features: Array.from({ length: 41 }, (_, i) => `Feature ${i}`) }],
    ['feature too long', { features: ['x'.repeat(81)] }],
    ['empty feature', { features: [''] }],
    ['unknown body style', { bodyStyle: 'truck' }],
    ['market value sent', { marketValue: 1 }],
    ['status sent', { status: 'sold' }],
    ['seller sent', { sellerId: 1 }],
  ])('refuses %s with a 400 and lists nothing', async (_, overrides) => {
    const seller = await createUser(t);
    const res = await call('POST', '/api/cars', seller, listing(overrides));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((await call('GET', '/api/users/me/listings', seller)).json().data.listings).toEqual([]);
  });

  it('needs a signed-in user with a verified email', async () => {
    expect((await call('POST', '/api/cars', undefined, listing())).statusCode).toBe(401);
    const user = await createUser(t);
    await t.database.db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
    const res = await call('POST', '/api/cars', user, listing());
    expect([res.statusCode, res.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
  });

  it('keeps a draft off the market and visible only to its seller until it is published', async () => {
    const seller = await createUser(t);
    const stranger = await createUser(t);
    const draft = await listCar(seller, { draft: true, model: 'Draft Special' });
    expect(draft.status).toBe('draft');
    expect((await listed('Draft Special')).map((c) => c.id)).not.toContain(draft.id);
    expect((await detail(draft.id)).statusCode).toBe(404);
    expect((await detail(draft.id, stranger)).statusCode).toBe(404);
    expect((await detail(draft.id, seller)).json().data.status).toBe('draft');
    expect((await call('POST', '/api/bids', stranger, { carId: draft.id, amount: 100_000 })).statusCode).toBe(404);
    expect((await call('POST', `/api/cars/${draft.id}/publish`, stranger)).statusCode).toBe(404);
    const published = await call('POST', `/api/cars/${draft.id}/publish`, seller);
    expect(published.json().data.status).toBe('active');
    expect((await listed('Draft Special')).map((c) => c.id)).toContain(draft.id);
    expect((await call('POST', `/api/cars/${draft.id}/publish`, seller)).json().code).toBe('NOT_A_DRAFT');
  });

  it('lists once for a repeated Idempotency-Key and refuses the key for a different listing', async () => {
    const seller = await createUser(t);
    const body = listing();
    const key = { 'idempotency-key': `list-${made}` };
    const first = await call('POST', '/api/cars', seller, body, key);
    const again = await call('POST', '/api/cars', seller, body, key);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect((await call('POST', '/api/cars', seller, { ...body, price: 1 }, key)).statusCode).toBe(422);
    expect((await call('GET', '/api/users/me/listings', seller)).json().data.listings).toHaveLength(1);
  });
});

describe('editing and withdrawing', () => {
  it('lets only the seller change the listing, and tells watchers about a lower price', async () => {
    const seller = await createUser(t);
    const watcher = await createUser(t);
    const car = await listCar(seller, { price: 200_000 });
    await call('POST', '/api/watchlist', watcher, { carId: car.id });
    const watcherSocket = await connectSocket(t.url, { token: watcher.accessToken });
    sockets.push(watcherSocket);
    const told = nextEvent<{ title: string; message: string; carId: number }>(watcherSocket, 'notification:new');

    const edited = await call('PATCH', `/api/cars/${car.id}`, seller, { price: 185_000, description: 'Price reduced for a quick sale.', features: ['New tyres'] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ price: 185_000, description: 'Price reduced for a quick sale.', features: ['New tyres'] });
    expect(await told).toMatchObject({ title: 'Price drop', carId: car.id, message: expect.stringContaining('$185,000') });

    const stranger = await createUser(t);
    expect((await call('PATCH', `/api/cars/${car.id}`, stranger, { price: 1 })).statusCode).toBe(404);
    for (const body of [{}, { price: 0 }, { make: 'Other' }, { marketValue: 1 }, { price: 100, status: 'sold' }, { mileage: -5 }]) {
      expect((await call('PATCH', `/api/cars/${car.id}`, seller, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', '/api/cars/999999', seller, { price: 1 })).statusCode).toBe(404);
    expect((await call('PATCH', '/api/cars/abc', seller, { price: 1 })).statusCode).toBe(404);
    expect((await detail(car.id)).json().data.price).toBe(185_000);
  });

  it('refuses changes once an escrow order holds the payment', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const car = await listCar(seller, { price: 90_000 });
    const order = (await orderApi(t).place(buyer, car)).json().data;
    expect((await orderApi(t).act(buyer, order.id, 'pay')).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['PATCH', `/api/cars/${car.id}`, { price: 80_000 }],
      ['DELETE', `/api/cars/${car.id}`, undefined],
      ['PUT', `/api/cars/${car.id}/images/order`, { order: [] }],
    ] as const) {
      const res = await call(method, url, seller, body);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([409, 'LISTING_LOCKED']);
    }
    expect((await detail(car.id)).json().data).toMatchObject({ price: 90_000, status: 'pending' });
  });

  it('withdraws a listing: off the market, unpaid orders cancelled, watchers told; twice is fine', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const car = await listCar(seller, { model: 'Withdrawn Special' });
    await call('POST', '/api/watchlist', buyer, { carId: car.id });
    const order = (await orderApi(t).place(buyer, car)).json().data;
    expect((await call('DELETE', `/api/cars/${car.id}`, await createUser(t))).statusCode).toBe(404);
    const withdrawn = await call('DELETE', `/api/cars/${car.id}`, seller);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().data.status).toBe('withdrawn');
    expect((await call('DELETE', `/api/cars/${car.id}`, seller)).statusCode).toBe(200);
    expect((await listed('Withdrawn Special')).map((c) => c.id)).not.toContain(car.id);
    expect((await detail(car.id)).json().data.status).toBe('withdrawn');
    const cancelled = await waitForOrder(t, buyer, order.id, (o) => o.status === 'cancelled');
    expect(cancelled.events.at(-1)).toMatchObject({ actor: 'system', note: 'The seller withdrew the listing.' });
    const titles = (await call('GET', '/api/notifications', buyer)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['Listing withdrawn', 'Order cancelled']));
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 1 })).json().code).toBe('LISTING_LOCKED');
    expect((await call('POST', '/api/bids', buyer, { carId: car.id, amount: car.price })).json().code).toBe('CAR_NOT_AVAILABLE');
  });
});

describe('market value', () => {
  it('estimates from three or more comparable cars, explains how, and follows new comparables', async () => {
    const seller = await createUser(t);
    const model = { make: 'Ferrari', model: 'Roma Comparable' };
    const first = await listCar(seller, { ...model, year: 2021, mileage: 10_000, price: 220_000 });
    const second = await listCar(seller, { ...model, year: 2022, mileage: 10_000, price: 240_000 });
    expect(second.marketValue).toBeNull();
    await listCar(seller, { ...model, year: 2020, mileage: 10_000, price: 200_000 });
    // A different model, and the same model too many years apart, are not comparables.
    await listCar(seller, { make: 'Ferrari', model: 'Portofino', year: 2021, mileage: 10_000, price: 999_000 });
    await listCar(seller, { ...model, year: 2016, mileage: 10_000, price: 999_000 });
    const subject = await listCar(seller, { ...model, year: 2021, mileage: 20_000, price: 230_000 });
    expect(subject.marketValue).not.toBeNull();
    expect(subject.marketValueBasis).toBe('comparables');
    const valuation = (await call('GET', `/api/cars/${subject.id}/valuation`)).json().data;
    expect(valuation).toMatchObject({ basis: 'comparables', estimate: subject.marketValue, marketValue: subject.marketValue });
    expect(valuation.comparables).toHaveLength(3);
    expect(valuation.comparables.map((c: { carId: number }) => c.carId)).toContain(first.id);
    expect(valuation.low).toBeLessThanOrEqual(valuation.estimate);
    expect(valuation.high).toBeGreaterThanOrEqual(valuation.estimate);
    // The earlier listings are refreshed once they have three comparables of their own.
    await waitUntil(async () => (await detail(first.id)).json().data.marketValue !== null, 10_000, 'the first listing to get a market value');
    expect((await listed('Roma Comparable')).find((c) => c.id === first.id)?.market_value).not.toBeNull();
    // With a comparable withdrawn, two are left: no estimate, and no price label in the listing.
    expect((await call('DELETE', `/api/cars/${first.id}`, seller)).statusCode).toBe(200);
    await waitUntil(async () => (await detail(subject.id)).json().data.marketValue === null, 10_000, 'the estimate to go');
    expect((await listed('Roma Comparable')).find((c) => c.id === subject.id)?.market_value).toBeNull();
    // A model with no comparables has no estimate.
    const lone = await listCar(seller, { make: 'Bugatti', model: 'Lone Example' });
    expect((await call('GET', `/api/cars/${lone.id}/valuation`)).json().data).toMatchObject({ estimate: null, basis: null, comparables: [] });
  });

  it('keeps the sample catalogue\'s reference values until there is enough to estimate', async () => {
    const sample = (await call('GET', '/api/cars?limit=1')).json().data.cars[0];
    const valuation = (await call('GET', `/api/cars/${sample.id}/valuation`)).json().data;
    expect(valuation).toMatchObject({ basis: 'reference', estimate: null, marketValue: sample.market_value, comparables: [] });
    expect((await detail(sample.id)).json().data.marketValueBasis).toBe('reference');
  });
});

describe('accepting an offer', () => {
  it('turns the highest bid into an escrow order for that bidder with the smallest plan that covers it', async () => {
    const seller = await createUser(t, { name: 'Avery Seller' });
    const [low, high] = [await createUser(t), await createUser(t, { name: 'Harper Bidder' })];
    const car = await listCar(seller, { price: 160_000 });
    const first = (await call('POST', '/api/bids', low, { carId: car.id, amount: 80_000 })).json().data.bid;
    const best = (await call('POST', '/api/bids', high, { carId: car.id, amount: 95_000 })).json().data.bid;
    const bidderSocket = await connectSocket(t.url, { token: high.accessToken });
    sockets.push(bidderSocket);
    const told = nextEvent<{ title: string }>(bidderSocket, 'notification:new');

    expect((await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: first.id })).json().code).toBe('BID_NOT_HIGHEST');
    expect((await call('POST', `/api/cars/${car.id}/accept-bid`, high, { bidId: best.id })).statusCode).toBe(404);
    expect((await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: 999_999 })).statusCode).toBe(404);
    for (const body of [{}, { bidId: 'x' }, { bidId: best.id, amount: 1 }]) {
      expect((await call('POST', `/api/cars/${car.id}/accept-bid`, seller, body)).statusCode).toBe(400);
    }
    const accepted = await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: best.id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const order = accepted.json().data;
    expect(order).toMatchObject({ carId: car.id, buyerId: high.id, amount: 95_000, plan: 'basic', escrowFee: 199, status: 'awaiting_payment' });
    expect(order.events[0]).toMatchObject({ to: 'awaiting_payment', actor: 'seller', note: 'The seller accepted the bid of $95,000' });
    expect((await told).title).toBe('Payment due');
    // Accepting again would open a second order for the same bidder.
    expect((await call('POST', `/api/cars/${car.id}/accept-bid`, seller, { bidId: best.id })).json().code).toBe('ORDER_EXISTS');
    // The car stays listed until the bidder pays, then leaves the market.
    expect((await detail(car.id)).json().data.status).toBe('active');
    expect((await orderApi(t).act(high, order.id, 'pay')).statusCode).toBe(200);
    expect((await detail(car.id)).json().data.status).toBe('pending');
    expect((await call('GET', '/api/users/me/listings', seller)).json().data.listings.find((l: { id: number }) => l.id === car.id)).toMatchObject({
      status: 'pending',
      highestBid: 95_000,
      openOrderId: order.id,
    });
  });
});

describe('the seller in the car room', () => {
  it('marks the seller\'s messages and tells the people who asked when the seller answers', async () => {
    const seller = await createUser(t, { name: 'Riley Seller' });
    const [asker, chatter] = [await createUser(t), await createUser(t)];
    const car = await listCar(seller);
    const askerSocket = await connectSocket(t.url, { token: asker.accessToken });
    sockets.push(askerSocket);
    await call('POST', '/api/chat', asker, { carId: car.id, message: 'Any paint work?', type: 'question' });
    await call('POST', '/api/chat', chatter, { carId: car.id, message: 'Lovely colour.' });
    const answered = nextEvent<{ title: string; message: string }>(askerSocket, 'notification:new', (n) => n.title === 'The seller answered');
    const answer = await call('POST', '/api/chat', seller, { carId: car.id, message: 'Original paint throughout.' });
    expect(answer.json().data).toMatchObject({ role: 'seller', userName: 'Riley Seller' });
    expect((await answered).message).toContain('Original paint throughout.');
    const chatterTitles = (await call('GET', '/api/notifications', chatter)).json().data.notifications.map((n: { title: string }) => n.title);
    expect(chatterTitles).not.toContain('The seller answered');
    const messages = (await call('GET', `/api/chat/car/${car.id}`)).json().data.messages as ChatMessage[];
    expect(messages.map((m) => m.role)).toEqual([null, null, 'seller']);
  });
});

describe('OpenAPI', () => {
  it('documents the selling endpoints', async () => {
    const doc = (await call('GET', '/docs/json')).json();
    expect(doc.paths['/api/cars'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/cars/{id}'].patch.responses['409']).toBeDefined();
    expect(doc.paths['/api/cars/{id}'].delete.responses['200']).toBeDefined();
    expect(Object.keys(doc.paths['/api/cars/{id}/images'].post.responses)).toEqual(expect.arrayContaining(['201', '409', '413', '415']));
    expect(doc.paths['/api/cars/{id}/images/{index}'].delete).toBeDefined();
    expect(doc.paths['/api/cars/{id}/accept-bid'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/cars/{id}/valuation'].get).toBeDefined();
    expect(doc.paths['/api/users/me/listings'].get).toBeDefined();
  });
});
