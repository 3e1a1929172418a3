import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, savedSearchMatches, savedSearches } from '../../db/schema/index.ts';
import { LISTING_LIMITS, SEARCH_MAX_LENGTH } from '@common/listing.ts';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import type { SavedSearch, SoldResult } from '@common/schemas/discovery.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { orderApi } from '../helpers/escrow.ts';
import { TestMailbox, tokenFrom } from '../helpers/smtp.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { driveOrder, type ReachableStatus } from '../helpers/escrow.ts';
import { alertsDone, quietFor } from '../helpers/wait.ts';

/** Listing filters, saved searches with alerts, price history and sold results: contract §"Discovery and market data (v3)". */

let t: TestApp;
let mailbox: TestMailbox;
let api: ReturnType<typeof orderApi>;

beforeAll(async () => {
  mailbox = new TestMailbox();
  t = await startTestApp({ SMTP_URL: await mailbox.start(), ALERT_MATCH_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5', AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1' });
  await t.listen();
  api = orderApi(t);
});
afterAll(async () => {
  await t?.close();
  await mailbox?.stop();
});

const call = requestsTo(() => t);
const notificationsOf = async (user: SignedInUser) => (await call('GET', '/api/notifications', user)).json().data.notifications as { title: string; message: string; carId: number | null }[];

/** A car listed by `seller` through the API (published unless `draft`), a 2018 Porsche 911 Carrera S unless told. */
const list = (seller: SignedInUser, fields: { make?: string; model?: string; year?: number; price?: number; bodyStyle?: string; draft?: boolean; auctionEndsAt?: string } = {}) => {
  const { auctionEndsAt, draft, ...rest } = fields;
  return listCar(t, seller, {
    model: '911 Carrera S',
    year: 2018,
    description: 'Listed for the market data tests.',
    ...rest,
    ...(draft ? { draft: true } : {}),
    ...(auctionEndsAt ? { auction: { endsAt: auctionEndsAt } } : {}),
  });
};

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
    ['make=', 'make'],
    [`make=${'x'.repeat(LISTING_LIMITS.make + 1)}`, 'make'],
    ['model=', 'model'],
    [`model=${'x'.repeat(LISTING_LIMITS.model + 1)}`, 'model'],
    ['bodyStyle=tank', 'bodyStyle'],
    ['bodyStyle=Coupe', 'bodyStyle'],
    ['bodyStyle=', 'bodyStyle'],
    ['minYear=abc', 'minYear'],
    ['minYear=1800', 'minYear'],
    ['minYear=1899', 'minYear'],
    ['minYear=3000', 'minYear'],
    ['minYear=2015.5', 'minYear'],
    ['minYear=-2015', 'minYear'],
    // Text JavaScript reads as a number: hexadecimal, an exponent, padding, a decimal point.
    ['minYear=0x7df', 'minYear'],
    ['minYear=2.015e3', 'minYear'],
    ['minYear=%202015', 'minYear'],
    ['minYear=2015.0', 'minYear'],
    ['minYear=', 'minYear'],
    ['maxYear=abc', 'maxYear'],
    ['maxYear=2101', 'maxYear'],
    ['maxYear=2200', 'maxYear'],
    ['maxYear=2015.5', 'maxYear'],
    ['maxYear=0x7e0', 'maxYear'],
    ['minPrice=-1', 'minPrice'],
    ['minPrice=abc', 'minPrice'],
    ['minPrice=1.5', 'minPrice'],
    ['minPrice=1e5', 'minPrice'],
    ['minPrice=0x10', 'minPrice'],
    [`minPrice=${LISTING_LIMITS.maxPrice + 1}`, 'minPrice'],
    ['maxPrice=99999999999', 'maxPrice'],
    ['maxPrice=abc', 'maxPrice'],
    ['maxPrice=1.5', 'maxPrice'],
    ['maxPrice=1e6', 'maxPrice'],
    ['maxPrice=-5', 'maxPrice'],
    [`search=${'x'.repeat(SEARCH_MAX_LENGTH + 1)}`, 'search'],
    ['minYear=2020&maxYear=2010', 'maxYear'],
    ['minPrice=200000&maxPrice=100000', 'maxPrice'],
    ['page=1e1', 'page'],
    ['limit=0x5', 'limit'],
  ])('refuses %s with 400 naming %s', async (qs, field) => {
    const res = await call('GET', `/api/cars?${qs}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((res.json().details as { field: string }[]).map((d) => d.field)).toEqual([field]);
  });

  it('takes every bound itself, and numbers written in plain digits', async () => {
    for (const qs of [`minYear=${LISTING_LIMITS.firstYear}&maxYear=2100`, `minPrice=0&maxPrice=${LISTING_LIMITS.maxPrice}`, 'minYear=02015', 'minYear=2015&maxYear=2015', 'minPrice=5&maxPrice=5']) {
      const res = await call('GET', `/api/cars?${qs}`);
      expect(res.statusCode, `${qs}: ${res.body}`).toBe(200);
    }
  });
});

describe('listing filters, each alone', () => {
  // Three cars, each filter alone keeps some of them and drops the others (bounds inclusive).
  const stamp = Date.now();
  const make = `Solomake${stamp}`;
  const otherMake = `Solomake${stamp}b`;
  const alpha = `Alpha ${stamp}`;
  const beta = `Beta ${stamp}`;
  // Prices no other test lists, near the top of the range.
  const P = 987_650;
  const group = {} as Record<'a' | 'b' | 'c', { id: number }>;
  interface ListItem {
    id: number;
    year: number;
    make: string;
    model: string;
    price: number;
  }
  /** Every car the listing answers for `qs`, across its pages. */
  async function everyCar(qs: string): Promise<ListItem[]> {
    const found: ListItem[] = [];
    for (let page = 1; page <= 100; page += 1) {
      const res = await call('GET', `/api/cars?${qs}${qs ? '&' : ''}limit=50&page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      const { cars, pagination } = res.json().data as { cars: ListItem[]; pagination: { pages: number } };
      found.push(...cars);
      if (page >= pagination.pages) break;
    }
    return found;
  }

  beforeAll(async () => {
    const seller = await createUser(t);
    group.a = await list(seller, { make, model: alpha, year: 1901, price: P, bodyStyle: 'coupe' });
    group.b = await list(seller, { make, model: beta, year: 1902, price: P + 1, bodyStyle: 'convertible' });
    group.c = await list(seller, { make: otherMake, model: alpha, year: 1902, price: P + 2, bodyStyle: 'coupe' });
    // Unfiltered, all three are listed: what each filter below drops, it drops itself.
    const all = (await everyCar('')).map((c) => c.id);
    for (const car of Object.values(group)) expect(all).toContain(car.id);
  });

  it.each<[string, () => string, string[], (c: ListItem) => boolean]>([
    ['make', () => `make=${make.toLowerCase()}`, ['a', 'b'], (c: ListItem) => c.make.toLowerCase() === make.toLowerCase()],
    ['model', () => `model=${encodeURIComponent(alpha.toUpperCase())}`, ['a', 'c'], (c: ListItem) => c.model.toLowerCase() === alpha.toLowerCase()],
    ['bodyStyle', () => 'bodyStyle=convertible', ['b'], () => true],
    ['minYear (equal year kept)', () => 'minYear=1902', ['b', 'c'], (c: ListItem) => c.year >= 1902],
    ['maxYear (equal year kept)', () => 'maxYear=1901', ['a'], (c: ListItem) => c.year <= 1901],
    ['minPrice (equal price kept)', () => `minPrice=${P + 1}`, ['b', 'c'], (c: ListItem) => c.price >= P + 1],
    ['maxPrice (equal price kept)', () => `maxPrice=${P + 1}`, ['a', 'b'], (c: ListItem) => c.price <= P + 1],
  ])('%s alone keeps exactly the cars within it', async (_name, query, kept, within) => {
    const found = await everyCar(query());
    const ours = Object.entries(group)
      .filter(([, car]) => found.some((c) => c.id === car.id))
      .map(([key]) => key);
    expect(ours).toEqual(kept);
    for (const car of found) expect(within(car), `car ${car.id} (${car.year} ${car.make} ${car.model}, $${car.price})`).toBe(true);
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
  describe('PATCH', () => {
    it.each([
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(81) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ alerts: 'hourly' }, 'alerts'],
      [{ alerts: null }, 'alerts'],
      [{ query: { minYear: 'new' } }, 'query.minYear'],
      [{ query: { minYear: '2015' } }, 'query.minYear'],
      [{ query: { minYear: 1800 } }, 'query.minYear'],
      [{ query: { maxYear: 2015.5 } }, 'query.maxYear'],
      [{ query: { minPrice: -1 } }, 'query.minPrice'],
      [{ query: { maxPrice: 1.5 } }, 'query.maxPrice'],
      [{ query: { make: '' } }, 'query.make'],
      [{ query: { model: 'x'.repeat(LISTING_LIMITS.model + 1) } }, 'query.model'],
      [{ query: { bodyStyle: 'tank' } }, 'query.bodyStyle'],
      [{ query: { search: 'x'.repeat(SEARCH_MAX_LENGTH + 1) } }, 'query.search'],
      [{ query: { auctionsOnly: 'yes' } }, 'query.auctionsOnly'],
      [{ query: { colour: 'red' } }, 'query.colour'],
      [{ query: { minYear: 2020, maxYear: 2010 } }, 'query.maxYear'],
      [{ query: { minPrice: 5, maxPrice: 1 } }, 'query.maxPrice'],
      [{ query: 'make=Porsche' }, 'query'],
      [{ colour: 'red' }, 'colour'],
    ])('refuses %j with 400 naming %s, and changes nothing', async (body, field) => {
      const user = await createUser(t);
      const search: SavedSearch = (await save(user, { make: 'Porsche', minYear: 2015 })).json().data;
      const res = await call('PATCH', `/api/saved-searches/${search.id}`, user, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect((res.json().details as { field: string }[]).map((d) => d.field)).toEqual([field]);
      expect((await call('GET', '/api/saved-searches', user)).json().data.searches).toEqual([search]);
    });

    it('refuses an empty edit with a sentence that says what to send', async () => {
      const user = await createUser(t);
      const search: SavedSearch = (await save(user, {})).json().data;
      const res = await call('PATCH', `/api/saved-searches/${search.id}`, user, {});
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details).toEqual([{ field: 'body', message: 'Send at least one of name, query or alerts to change' }]);
    });

    it('replaces the whole query: criteria left out are dropped', async () => {
      const user = await createUser(t);
      const search: SavedSearch = (await save(user, { make: 'Porsche', minYear: 2015, maxPrice: 150_000 })).json().data;
      const res = await call('PATCH', `/api/saved-searches/${search.id}`, user, { query: { model: 'Cayman', auctionsOnly: true } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ ...search, query: { model: 'Cayman', auctionsOnly: true } });
      const [row] = await t.database.db.select().from(savedSearches).where(eq(savedSearches.id, search.id));
      expect(row).toMatchObject({ make: null, model: 'cayman', minYear: null, maxPrice: null, auctionsOnly: true });
    });
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
    const mail = await mailbox.waitFor((m) => m.to.includes(buyer.email), 20_000);
    expect(mail.subject).toContain('Porsche 911 from 2015');
    expect(mail.body).toContain(`/car/${car.id}`);
    expect(mail.headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/saved-searches\/unsubscribe\?token=[^>]+>/m);
    expect(mail.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.carId === car.id && n.title === `New match: ${search.name}`), 15_000, 'the match notification');
    // The two that do not match were matched as well: once matching and its mail are done, one email it is.
    await alertsDone(t);
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
    // The instant search's notification says so too, beside the email.
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.carId === car.id && n.message.includes('dropped to $125,000')), 15_000, 'the price-drop notification');
    // Listed and withdrawn within a second: nobody hears of it.
    const gone = await list(seller, { model, price: 110_000 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${gone.id}`, headers: seller.auth })).statusCode).toBe(200);
    // Its match runs after the delay and finds it withdrawn: once matching and mail are done, nobody was told.
    await alertsDone(t);
    expect(mailbox.to(buyer.email)).toHaveLength(2);
    expect(mailbox.to(seller.email)).toHaveLength(0);
    expect((await notificationsOf(buyer)).filter((n) => n.carId === gone.id)).toHaveLength(0);
    // One notification for the listing and one for the drop; none for the rise, none to the seller.
    const told = (await notificationsOf(buyer)).filter((n) => n.carId === car.id).map((n) => `${n.title} | ${n.message}`);
    expect(told.sort()).toEqual([
      `New match: Porsche 911 from 2015 | The 2018 Porsche ${model} dropped to $125,000.`,
      `New match: Porsche 911 from 2015 | The 2018 Porsche ${model} was just listed at $130,000.`,
    ]);
    expect((await notificationsOf(seller)).filter((n) => n.carId === car.id && n.title.startsWith('New match'))).toHaveLength(0);
  });

  it('matches with the query a PATCH set: the old criteria alert no more, the new ones do', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const [before, after] = [`Patched from ${Date.now()}`, `Patched to ${Date.now()}`];
    const search: SavedSearch = (await save(buyer, { model: before }, 'instant', 'Changing search')).json().data;
    const edited = await call('PATCH', `/api/saved-searches/${search.id}`, buyer, { query: { model: after, maxPrice: 100_000 } });
    expect(edited.statusCode, edited.body).toBe(200);
    const old = await list(seller, { model: before, price: 90_000 });
    const tooDear = await list(seller, { model: after, price: 100_001 });
    const wanted = await list(seller, { model: after, price: 100_000 });
    const mail = await mailbox.waitFor((m) => m.to.includes(buyer.email));
    expect(mail.body).toContain(`/car/${wanted.id}`);
    await waitUntil(async () => (await notificationsOf(buyer)).some((n) => n.carId === wanted.id), 15_000, 'the new criteria\'s notification');
    // The three were matched together (one delay): once matching and mail are done, the other two sent nothing.
    await alertsDone(t);
    expect(mailbox.to(buyer.email)).toHaveLength(1);
    expect((await notificationsOf(buyer)).map((n) => n.carId)).toEqual([wanted.id]);
    const matches = await t.database.db.select({ carId: savedSearchMatches.carId }).from(savedSearchMatches).where(eq(savedSearchMatches.searchId, search.id));
    expect(matches.map((m) => m.carId)).toEqual([wanted.id]);
    for (const carId of [old.id, tooDear.id]) expect(mailbox.to(buyer.email).some((m) => new RegExp(`/car/${carId}\\b`).test(m.body)), `car ${carId}`).toBe(false);
  });

  it('gathers daily matches into one digest email per search', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const model = `Digest ${Date.now()}`;
    await save(buyer, { model }, 'daily', 'Daily digest');
    const cars = [await list(seller, { model, price: 90_000 }), await list(seller, { model, price: 95_000 })];
    // Daily matches are recorded, not mailed: once the matching is done, nothing was sent.
    await alertsDone(t);
    expect(mailbox.to(buyer.email)).toHaveLength(0);
    expect(await t.app.services.savedSearches.sendDigests('2026-11-26')).toBeGreaterThanOrEqual(1);
    const digest = await mailbox.waitFor((m) => m.to.includes(buyer.email));
    expect(digest.subject).toBe('Daily digest: 2 new cars today');
    for (const car of cars) expect(digest.body).toContain(`/car/${car.id}`);
    // Run again the same day: nothing new, nothing sent.
    await t.app.services.savedSearches.sendDigests('2026-11-26');
    await alertsDone(t);
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

  it('gives a draft its first point when it is published, at the price it is published at, not when drafted', async () => {
    const seller = await createUser(t);
    const draft = await list(seller, { draft: true, price: 100_000 });
    // Repriced while still a draft: no point either.
    expect((await call('PATCH', `/api/cars/${draft.id}`, seller, { price: 97_000 })).statusCode).toBe(200);
    expect((await call('GET', `/api/cars/${draft.id}/price-history`, seller)).json().data.points).toEqual([]);
    // The assertion is about time itself (a stamp at drafting would be 1.5 s too early): no condition to await.
    await quietFor(1_500, 'a publication stamp distinguishable from the drafting time');
    const publishedFrom = Date.now();
    const published = await call('POST', `/api/cars/${draft.id}/publish`, seller);
    expect(published.statusCode, published.body).toBe(200);
    const points = (await call('GET', `/api/cars/${draft.id}/price-history`)).json().data.points as { price: number; at: string }[];
    expect(points.map((p) => p.price)).toEqual([97_000]);
    // Stamped at publication, 1.5 s after the draft was made (the database's clock is this machine's).
    expect(Date.parse(points[0]!.at)).toBeGreaterThanOrEqual(publishedFrom - 250);
  });
});

describe('sold results', () => {
  it('lists released orders, newest first, with how each sold and no buyer identity; market values name the sales they used', async () => {
    const [buyer, seller] = await Promise.all([createUser(t, { name: 'Private Buyer' }), createUser(t)]);
    const make = `Soldmake${Date.now()}`;
    const car = await list(seller, { make, model: 'GT3', price: 150_000 });
    const order = (await api.place(buyer, car)).json().data;
    await driveOrder(t, order, 'released', buyer, seller);
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
  it('leaves out orders not released, tells auction, offer and buy-now sales apart, newest first, and filters by model exactly', async () => {
    const [buyer, seller, bidder] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const make = `Resultmake${Date.now()}`;
    const resultsFor = async (qs: string) => {
      const res = await call('GET', `/api/results?make=${make}${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { results: SoldResult[]; pagination: { total: number } };
    };
    const driveTo = (orderId: number, buyerOf: SignedInUser, status: OrderStatus | 'released') => driveOrder(t, { id: orderId }, status as ReachableStatus, buyerOf, seller);

    // The auction first, so its two seconds run while the other orders are made.
    const auctioned = await list(seller, { make, model: 'GT2', price: 90_000, auctionEndsAt: new Date(Date.now() + 2_500).toISOString() });
    const bid = await call('POST', '/api/bids', bidder, { carId: auctioned.id, amount: 90_000 });
    expect(bid.statusCode, bid.body).toBe(201);

    // Orders in every state short of released: none is a result.
    for (const status of ['awaiting_payment', 'funded', 'in_transit', 'inspection', 'disputed', 'cancelled'] as const) {
      const car = await list(seller, { make, model: 'GT3', price: 100_000 });
      const placed = await api.place(buyer, car);
      expect(placed.statusCode, placed.body).toBe(201);
      await driveTo(placed.json().data.id, buyer, status);
    }
    expect(await resultsFor('')).toMatchObject({ results: [], pagination: { total: 0 } });

    // Bought at the asking price.
    const bought = await list(seller, { make, model: 'GT3', price: 150_000 });
    const boughtOrder = (await api.place(buyer, bought)).json().data;
    await driveTo(boughtOrder.id, buyer, 'released');
    // An accepted offer.
    const offered = await list(seller, { make, model: 'GT3 RS', price: 120_000 });
    const offer = await call('POST', `/api/cars/${offered.id}/offers`, buyer, { amount: 110_000 });
    expect(offer.statusCode, offer.body).toBe(201);
    const accepted = await call('POST', `/api/offers/${offer.json().data.id}/accept`, seller);
    expect(accepted.statusCode, accepted.body).toBe(201);
    await driveTo(accepted.json().data.id, buyer, 'released');
    // Won at auction: the close makes the winner's order.
    let wonOrderId = 0;
    await waitUntil(
      async () => {
        const [row] = await t.database.db.select({ id: orders.id }).from(orders).where(and(eq(orders.carId, auctioned.id), eq(orders.buyerId, bidder.id)));
        wonOrderId = row?.id ?? 0;
        return wonOrderId > 0;
      },
      15_000,
      'the auction to close with a winner',
    );
    await driveTo(wonOrderId, bidder, 'released');

    const { results, pagination } = await resultsFor('');
    expect(results.map((r) => [r.carId, r.model, r.soldPrice, r.via])).toEqual([
      [auctioned.id, 'GT2', 90_000, 'auction'],
      [offered.id, 'GT3 RS', 110_000, 'offer'],
      [bought.id, 'GT3', 150_000, 'buy_now'],
    ]);
    expect(pagination.total).toBe(3);
    const soldAt = results.map((r) => Date.parse(r.soldAt));
    expect(soldAt).toEqual([...soldAt].sort((a, b) => b - a));
    // The model matches exactly, case aside: GT3 is not GT3 RS, and the unreleased GT3s stay out.
    expect((await resultsFor('&model=gt3')).results.map((r) => r.carId)).toEqual([bought.id]);
    expect((await resultsFor('&model=GT3%20rs')).results.map((r) => r.carId)).toEqual([offered.id]);
    expect((await resultsFor('&model=GT')).results).toEqual([]);
    // Pages keep the order.
    expect((await resultsFor('&limit=1&page=2')).results.map((r) => r.carId)).toEqual([offered.id]);
  });
});
