import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedSearches } from '../db/schema/index.ts';
import type { SavedSearch, SoldResult } from '@common/api-types.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { orderApi } from './helpers/escrow.ts';
import { TestMailbox, tokenFrom } from './helpers/smtp.ts';
import { sleep, waitUntil } from './helpers/sockets.ts';
import { createUser, type SignedInUser } from './helpers/users.ts';

/** Listing filters, saved searches with alerts, price history and sold results: contract §"Discovery and market data (v3)". */

let t: TestApp;
let mailbox: TestMailbox;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  mailbox = new TestMailbox();
  t = await startTestApp({ SMTP_URL: await mailbox.start(), ALERT_MATCH_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' });
  await t.listen();
  api = orderApi(t);
});
afterAll(async () => {
  await t?.close();
  await mailbox?.stop();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, user?: SignedInUser, payload?: object) =>
  t.app.inject({ method, url, ...(payload !== undefined ? { payload } : {}), headers: user ? user.auth : {} });
const notificationsOf = async (user: SignedInUser) => (await call('GET', '/api/notifications', user)).json().data.notifications as { title: string; message: string; carId: number | null }[];

let listed = 0;
/** A car listed by `seller` through the API (published unless `draft`). */
async function list(seller: SignedInUser, fields: { make?: string; model?: string; year?: number; price?: number; bodyStyle?: string; draft?: boolean } = {}) {
  listed += 1;
  const res = await call('POST', '/api/cars', seller, {
    make: fields.make ?? 'Porsche',
    model: fields.model ?? '911 Carrera S',
    year: fields.year ?? 2018,
    price: fields.price ?? 120_000,
    mileage: 10_000 + listed,
    condition: 'Excellent',
    location: 'Denver, CO',
    description: 'Listed for the market data tests.',
    features: [],
    bodyStyle: fields.bodyStyle ?? 'coupe',
    ...(fields.draft ? { draft: true } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; price: number };
}

const save = (user: SignedInUser, query: object, alerts = 'instant', name = 'Porsche 911 from 2015') => call('POST', '/api/saved-searches', user, { name, query, alerts });

describe('listing filters', () => {
  it('narrows the listing by make, model, body style, year and price, together', async () => {
    const seller = await createUser(t);
    const make = `Filtermake${Date.now()}`;
    const want = await list(seller, { make, model: '911 Turbo', year: 2016, price: 140_000 });
    await list(seller, { make, model: '911 Turbo', year: 2012, price: 140_000 });
    await list(seller, { make, model: '911 Turbo', year: 2016, price: 160_000 });
    await list(seller, { make, model: 'Cayman', year: 2016, price: 90_000 });
    await list(seller, { make, model: '911 Turbo', year: 2016, price: 140_000, bodyStyle: 'convertible' });
    const ids = async (qs: string) => ((await call('GET', `/api/cars?${qs}&limit=50`)).json().data.cars as { id: number }[]).map((c) => c.id);
    expect(await ids(`make=${make.toLowerCase()}&model=911%20TURBO&bodyStyle=coupe&minYear=2015&maxPrice=150000`)).toEqual([want.id]);
    expect((await ids(`make=${make}`)).length).toBe(5);
    expect((await ids(`make=${make}&minPrice=150000&maxPrice=150000`)).length).toBe(0);
    expect((await ids(`make=${make}&minYear=2016&maxYear=2016&model=Cayman`)).length).toBe(1);
  });

  it.each([
    ['minYear=abc', 'minYear'],
    ['minYear=1800', 'minYear'],
    ['maxYear=2200', 'maxYear'],
    ['minPrice=-1', 'minPrice'],
    ['maxPrice=99999999999', 'maxPrice'],
    ['bodyStyle=tank', 'bodyStyle'],
    [`make=${'x'.repeat(61)}`, 'make'],
    ['model=', 'model'],
    ['minYear=2020&maxYear=2010', 'maxYear'],
    ['minPrice=200000&maxPrice=100000', 'maxPrice'],
  ])('refuses %s with 400 naming %s', async (qs, field) => {
    const res = await call('GET', `/api/cars?${qs}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.json().details)).toContain(field);
  });
});

describe('saved searches', () => {
  it('keeps a user\'s searches to themselves: another user\'s is 404, and the 21st is 409', async () => {
    const [owner, other] = await Promise.all([createUser(t), createUser(t)]);
    const created = await save(owner, { make: 'Porsche', minYear: 2015, maxPrice: 150_000 });
    expect(created.statusCode, created.body).toBe(201);
    const search: SavedSearch = created.json().data;
    expect(search).toMatchObject({ name: 'Porsche 911 from 2015', query: { make: 'Porsche', minYear: 2015, maxPrice: 150_000 }, alerts: 'instant', lastAlertAt: null });
    for (const [method, body] of [['PATCH', { alerts: 'off' }], ['DELETE', undefined]] as const) {
      const res = await call(method, `/api/saved-searches/${search.id}`, other, body);
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call('GET', '/api/saved-searches', other)).json().data.searches).toEqual([]);
    // Signed out: 401 for every saved-search route, and nothing changes.
    for (const [method, url, body] of [['GET', '/api/saved-searches'], ['POST', '/api/saved-searches', { name: 'x', query: {}, alerts: 'off' }], ['PATCH', `/api/saved-searches/${search.id}`, { alerts: 'off' }], ['DELETE', `/api/saved-searches/${search.id}`]] as const) {
      expect((await call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await call('GET', '/api/saved-searches', owner)).json().data.searches).toEqual([search]);
    const renamed = await call('PATCH', `/api/saved-searches/${search.id}`, owner, { name: 'Any Porsche', alerts: 'daily' });
    expect(renamed.json().data).toMatchObject({ name: 'Any Porsche', alerts: 'daily' });
    for (let i = 1; i < 20; i += 1) expect((await save(owner, { minYear: 2000 + i })).statusCode).toBe(201);
    const over = await save(owner, { minYear: 1990 });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('LIMIT_REACHED');
    expect((await call('DELETE', `/api/saved-searches/${search.id}`, owner)).statusCode).toBe(200);
    expect((await save(owner, { minYear: 1990 })).statusCode).toBe(201);
  });

  it.each([
    [{ name: '', query: {}, alerts: 'instant' }, 'name'],
    [{ name: 'x', query: { minYear: 'new' }, alerts: 'instant' }, 'minYear'],
    [{ name: 'x', query: { colour: 'red' }, alerts: 'instant' }, 'colour'],
    [{ name: 'x', query: {}, alerts: 'hourly' }, 'alerts'],
    [{ name: 'x', query: { minPrice: 5, maxPrice: 1 }, alerts: 'off' }, 'maxPrice'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const user = await createUser(t);
    const res = await call('POST', '/api/saved-searches', user, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(JSON.stringify(res.json().details)).toContain(field);
  });
});

describe('alerts', () => {
  it('tells an instant search of a matching publication by notification and one email that unsubscribes in one click', async () => {
    const [buyer, seller] = await Promise.all([createUser(t, { name: 'Hana Hunter' }), createUser(t)]);
    const model = `Alert ${Date.now()}`;
    const search: SavedSearch = (await save(buyer, { make: 'Porsche', model, minYear: 2015, maxPrice: 150_000 })).json().data;
    // Neither of these matches: too old, too dear.
    await list(seller, { model, year: 2012, price: 100_000 });
    await list(seller, { model, year: 2019, price: 180_000 });
    const car = await list(seller, { model, year: 2019, price: 140_000 });
    const mail = await mailbox.waitFor((m) => m.to.includes(buyer.email), 15_000);
    expect(mail.subject).toContain('Porsche 911 from 2015');
    expect(mail.body).toContain(`/car/${car.id}`);
    expect(mail.headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/saved-searches\/unsubscribe\?token=[^>]+>/m);
    expect(mail.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.carId === car.id && n.title === `New match: ${search.name}`));
    await sleep(1_500);
    expect(mailbox.to(buyer.email)).toHaveLength(1);

    // One click, as a mail client sends it (RFC 8058): the token from the header, the form body.
    const oneClick = /^List-Unsubscribe: <([^>]+)>/m.exec(mail.headers)![1]!;
    const res = await t.app.inject({ method: 'POST', url: new URL(oneClick).pathname + new URL(oneClick).search, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ name: search.name });
    expect((await call('GET', '/api/saved-searches', buyer)).json().data.searches[0]).toMatchObject({ id: search.id, alerts: 'off' });
    // The page's link carries the same token.
    expect(tokenFrom(mail, '/unsubscribe')).toBe(new URL(oneClick).searchParams.get('token'));
  });

  it('refuses forged or altered unsubscribe tokens with 400 and changes nothing', async () => {
    const buyer = await createUser(t);
    const search: SavedSearch = (await save(buyer, { make: 'Nobody' })).json().data;
    const forged = [`${search.id}.${'A'.repeat(43)}`, `${search.id + 1}.abc`, 'nonsense', `${search.id}`, ''];
    for (const token of forged) {
      const res = await call('POST', '/api/saved-searches/unsubscribe', undefined, { token });
      expect(res.statusCode, token).toBe(400);
    }
    const [row] = await t.database.db.select().from(savedSearches).where(eq(savedSearches.id, search.id));
    expect(row!.alerts).toBe('instant');
  });

  it('alerts again only when the price drops, never for the owner\'s own listing, and not for a car withdrawn at once', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const model = `Drop ${Date.now()}`;
    await save(buyer, { model });
    await save(seller, { model });
    const car = await list(seller, { model, price: 130_000 });
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.body.includes(`/car/${car.id}`));
    // A rise, then a drop: only the drop alerts again.
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 135_000 })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 125_000 })).statusCode).toBe(200);
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.includes('dropped to $125,000'));
    // Listed and withdrawn within a second: nobody hears of it.
    const gone = await list(seller, { model, price: 110_000 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${gone.id}`, headers: seller.auth })).statusCode).toBe(200);
    await sleep(3_000);
    expect(mailbox.to(buyer.email)).toHaveLength(2);
    expect(mailbox.to(seller.email)).toHaveLength(0);
    expect((await notificationsOf(buyer)).filter((n) => n.carId === gone.id)).toHaveLength(0);
  });

  it('gathers daily matches into one digest email per search', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const model = `Digest ${Date.now()}`;
    await save(buyer, { model }, 'daily', 'Daily digest');
    const cars = [await list(seller, { model, price: 90_000 }), await list(seller, { model, price: 95_000 })];
    await sleep(2_500);
    expect(mailbox.to(buyer.email)).toHaveLength(0);
    expect(await t.app.services.savedSearches.sendDigests('2026-11-26')).toBeGreaterThanOrEqual(1);
    const digest = await mailbox.waitFor((m) => m.to.includes(buyer.email));
    expect(digest.subject).toBe('Daily digest: 2 new cars today');
    for (const car of cars) expect(digest.body).toContain(`/car/${car.id}`);
    // Run again the same day: nothing new, nothing sent.
    await t.app.services.savedSearches.sendDigests('2026-11-26');
    await sleep(1_000);
    expect(mailbox.to(buyer.email)).toHaveLength(1);
  });
});

describe('price history', () => {
  it('starts at publication and adds a point per change; a draft has none until published; hidden cars are 404', async () => {
    const seller = await createUser(t);
    const car = await list(seller, { price: 100_000 });
    await call('PATCH', `/api/cars/${car.id}`, seller, { price: 95_000 });
    await call('PATCH', `/api/cars/${car.id}`, seller, { description: 'No price change here.' });
    const points = (await call('GET', `/api/cars/${car.id}/price-history`)).json().data.points as { price: number; at: string }[];
    expect(points.map((p) => p.price)).toEqual([100_000, 95_000]);
    expect(Date.parse(points[1]!.at)).toBeGreaterThanOrEqual(Date.parse(points[0]!.at));
    const draft = await list(seller, { draft: true });
    expect((await call('GET', `/api/cars/${draft.id}/price-history`)).statusCode).toBe(404);
    expect((await call('GET', `/api/cars/${draft.id}/price-history`, seller)).json().data.points).toEqual([]);
    expect((await call('GET', '/api/cars/999999999/price-history')).statusCode).toBe(404);
  });
});

describe('sold results', () => {
  it('lists released orders, newest first, with how each sold and no buyer identity; market values name the sales they used', async () => {
    const [buyer, seller] = await Promise.all([createUser(t, { name: 'Private Buyer' }), createUser(t)]);
    const make = `Soldmake${Date.now()}`;
    const car = await list(seller, { make, model: 'GT3', price: 150_000 });
    const order = (await api.place(buyer, car)).json().data;
    for (const [who, action, body] of [
      [buyer, 'pay', {}],
      [seller, 'ship', { carrier: 'Reliable', trackingNumber: 'R-1' }],
      [buyer, 'confirm-delivery', {}],
      [buyer, 'accept', {}],
    ] as const) {
      expect((await api.act(who, order.id, action, body)).statusCode, action).toBe(200);
    }
    await waitUntil(async () => (await api.get(buyer, order.id)).json().data.status === 'released', 10_000, 'released');
    const res = await call('GET', `/api/results?make=${make}`);
    expect(res.statusCode).toBe(200);
    const results = res.json().data.results as SoldResult[];
    expect(results).toEqual([{ carId: car.id, year: 2018, make, model: 'GT3', mileage: expect.any(Number), soldPrice: 150_000, soldAt: expect.any(String), via: 'buy_now' }]);
    expect(res.body).not.toContain('Private Buyer');
    expect(res.json().data.pagination).toMatchObject({ total: 1, page: 1 });
    expect((await call('GET', '/api/results?limit=0')).statusCode).toBe(400);
    expect((await call('GET', `/api/results?carId=${car.id}`)).json().data.results).toEqual(results);
    expect((await call('GET', '/api/results?carId=999999999')).json().data.results).toEqual([]);

    // The market value of a car like it names the sale among its comparables, with the result's date.
    const similar = [];
    for (const price of [155_000, 158_000, 161_000]) similar.push(await list(seller, { make, model: 'GT3', price }));
    const valuation = (await call('GET', `/api/cars/${similar[0]!.id}/valuation`)).json().data;
    expect(valuation.basis).toBe('comparables');
    expect(valuation.comparables).toContainEqual(expect.objectContaining({ carId: car.id, source: 'sale', price: 150_000, soldAt: results[0]!.soldAt }));
    expect(valuation.comparables).toContainEqual(expect.objectContaining({ carId: similar[1]!.id, source: 'listing', soldAt: null }));
  });
});
