import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cars, orders } from '../../db/schema/index.ts';
import type { Valuation } from '@common/schemas/cars.ts';
import type { SoldResult } from '@common/schemas/discovery.ts';
import { findComparables, RECENT_SALE_MONTHS } from '../../server/src/services/valuation.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { orderIn } from '../helpers/escrow.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * The market value names the recent sales it used (only sales released in the last
 * RECENT_SALE_MONTHS count), and a sold car's own result: `GET /api/results?carId=`.
 */

let t: TestApp;

beforeAll(async () => {
  // The car pages are drawn on the server too: what they say about sales is in their first HTML.
  t = await startTestApp({ SERVE_CLIENT: 'true' });
});
afterAll(async () => {
  await t?.close();
});

const call = requestsTo(() => t);

let listed = 0;
async function list(seller: SignedInUser, fields: { make: string; model: string; year: number; price: number }) {
  listed += 1;
  return listCar(t, seller, { ...fields, mileage: 12_000 + listed, description: 'Listed for the valuation and results tests.' });
}

/** `car` bought at its price by `buyer` and the money released to the seller. */
async function sell(buyer: SignedInUser, seller: SignedInUser, car: { id: number; price: number }): Promise<number> {
  return (await orderIn(t, 'released', buyer, seller, { car })).id;
}

const monthsAgo = (months: number, from = new Date()) => {
  const at = new Date(from.getTime());
  at.setUTCMonth(at.getUTCMonth() - months);
  return at;
};

describe('recent sales in the market value', () => {
  let seller: SignedInUser;
  let buyer: SignedInUser;
  const make = `Recentmake${Date.now() % 1_000_000}`;
  const model = 'GT3';
  let recent: { id: number; price: number };
  let old: { id: number; price: number };
  let subject: { id: number };

  beforeAll(async () => {
    [seller, buyer] = await Promise.all([createUser(t), createUser(t, { name: 'Quiet Buyer' })]);
    recent = await list(seller, { make, model, year: 2021, price: 150_000 });
    old = await list(seller, { make, model, year: 2021, price: 90_000 });
    await sell(buyer, seller, recent);
    const oldOrder = await sell(buyer, seller, old);
    // Released a month past the window: what that car fetched then says little about now.
    await t.database.db.update(orders).set({ updatedAt: monthsAgo(RECENT_SALE_MONTHS + 1) }).where(eq(orders.id, oldOrder));
    subject = await list(seller, { make, model, year: 2021, price: 155_000 });
    for (const price of [158_000, 161_000]) await list(seller, { make, model, year: 2020, price });
  }, 60_000);

  it('uses a sale released within RECENT_SALE_MONTHS, with its date, and leaves out an older one', async () => {
    const res = await call('GET', `/api/cars/${subject.id}/valuation`);
    expect(res.statusCode, res.body).toBe(200);
    const valuation = res.json().data as Valuation;
    expect(valuation.basis).toBe('comparables');
    const sales = valuation.comparables.filter((c) => c.source === 'sale');
    expect(sales.map((c) => c.carId)).toEqual([recent.id]);
    expect(sales[0]).toMatchObject({ price: 150_000, soldAt: expect.any(String) });
    // The date is the one the car's result shows.
    const result = (await call('GET', `/api/results?carId=${recent.id}`)).json().data.results as SoldResult[];
    expect(sales[0]!.soldAt).toBe(result[0]!.soldAt);
    expect(valuation.comparables.map((c) => c.carId)).not.toContain(old.id);
    // The old sale is still a result (the window is the estimate's, not the record's).
    expect(((await call('GET', `/api/results?carId=${old.id}`)).json().data.results as SoldResult[]).map((r) => r.soldPrice)).toEqual([90_000]);
  });

  it('names the sale in the car page the server draws, and the sold car\'s page links to its own result there', async () => {
    // The market value is worked out by a job after each listing; the box names sales once it has one.
    await waitUntil(async () => (await call('GET', `/api/cars/${subject.id}`)).json().data.marketValue !== null, 15_000, 'the market value');
    const page = await call('GET', `/car/${subject.id}`);
    expect(page.statusCode).toBe(200);
    const sales = /<section[^>]*data-testid="market-sales"[^>]*>([\s\S]*?)<\/section>/.exec(page.body)?.[1] ?? '';
    expect(sales).toContain(`href="/results?carId=${recent.id}"`);
    expect(sales).not.toContain(`carId=${old.id}"`);
    const soldPage = await call('GET', `/car/${recent.id}`);
    expect(soldPage.statusCode).toBe(200);
    const note = /<section[^>]*data-testid="car-sale"[^>]*>([\s\S]*?)<\/section>/.exec(soldPage.body)?.[1] ?? '';
    expect(note).toContain('$150,000');
    expect(note).toContain(`href="/results?carId=${recent.id}"`);
  });

  it('drops a sale once it is older than the window, and keeps it until then', async () => {
    const [car] = await t.database.db.select({ id: cars.id, searchText: cars.searchText, year: cars.year }).from(cars).where(eq(cars.id, subject.id));
    const saleIds = async (now: Date) => (await findComparables(t.database.db, car!, now)).filter((c) => c.source === 'sale').map((c) => c.carId);
    const [order] = await t.database.db.select({ releasedAt: orders.updatedAt }).from(orders).where(eq(orders.carId, recent.id));
    const released = order!.releasedAt;
    const windowEnd = new Date(released.getTime());
    windowEnd.setUTCMonth(windowEnd.getUTCMonth() + RECENT_SALE_MONTHS);
    expect(await saleIds(new Date(windowEnd.getTime() - 60_000))).toEqual([recent.id]);
    expect(await saleIds(windowEnd)).toEqual([recent.id]);
    expect(await saleIds(new Date(windowEnd.getTime() + 60_000))).toEqual([]);
  });
});

describe('a sale that grows too old', () => {
  it('is dropped from the stored market values around it by the daily age-out, queued at start for 03:00 UTC', async () => {
    const { rows } = await t.database.sql.executeSql(`select start_after, data->>'day' as day from pgboss.job where name = 'valuation.age-out' and state = 'created'`);
    expect(rows).toHaveLength(1);
    const next = new Date(rows[0]!.start_after as string);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([3, 0]);
    expect(next.getTime() - Date.now()).toBeGreaterThan(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(rows[0]!.day).toBe(next.toISOString().slice(0, 10));

    const [seller, buyer] = await Promise.all([createUser(t), createUser(t)]);
    const make = `Agedmake${Date.now() % 1_000_000}`;
    const sold = await list(seller, { make, model: 'GT3', year: 2021, price: 150_000 });
    const order = await sell(buyer, seller, sold);
    const subject = await list(seller, { make, model: 'GT3', year: 2021, price: 155_000 });
    for (const price of [158_000, 161_000]) await list(seller, { make, model: 'GT3', year: 2020, price });
    // Three comparables (the sale and two listings): an estimate.
    const marketValue = async () => (await call('GET', `/api/cars/${subject.id}`)).json().data.marketValue as number | null;
    await waitUntil(async () => (await marketValue()) !== null, 15_000, 'the market value');
    // Every refresh the listings queued has run: from here on only the age-out moves the value.
    await waitUntil(
      async () => (await t.database.sql.executeSql(`select 1 from pgboss.job where name = 'valuation.refresh' and state in ('created', 'retry', 'active')`)).rows.length === 0,
      15_000,
      'the refreshes done',
    );
    // The sale's release now lies an hour past the window: nothing else changes, so the stored value stays...
    await t.database.db.update(orders).set({ updatedAt: new Date(monthsAgo(RECENT_SALE_MONTHS).getTime() - 3_600_000) }).where(eq(orders.id, order));
    expect(await marketValue()).not.toBeNull();
    // ...until the daily run: two comparables left, too few to estimate.
    expect(await t.app.services.marketValues.ageOut()).toBeGreaterThanOrEqual(1);
    expect(await marketValue()).toBeNull();
  });
});

describe('one car\'s result: GET /api/results?carId=', () => {
  it('answers that car\'s sale alone, nothing for a car that did not sell, and 400 naming carId for a bad id', async () => {
    const [seller, buyer] = await Promise.all([createUser(t), createUser(t, { name: 'Private Person' })]);
    const make = `Onemake${Date.now() % 1_000_000}`;
    const sold = await list(seller, { make, model: 'Speedster', year: 2019, price: 210_000 });
    const other = await list(seller, { make, model: 'Speedster', year: 2019, price: 205_000 });
    const unsold = await list(seller, { make, model: 'Speedster', year: 2019, price: 199_000 });
    await sell(buyer, seller, sold);
    await sell(buyer, seller, other);

    const res = await call('GET', `/api/results?carId=${sold.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.results).toEqual([{ carId: sold.id, year: 2019, make, model: 'Speedster', mileage: expect.any(Number), soldPrice: 210_000, soldAt: expect.any(String), via: 'buy_now' }]);
    expect(res.json().data.pagination).toMatchObject({ total: 1, page: 1 });
    expect(res.body).not.toContain('Private Person');
    // The model's list has both sales; the car's own has only its own.
    expect(((await call('GET', `/api/results?make=${make}&model=Speedster`)).json().data.results as SoldResult[]).map((r) => r.carId).sort()).toEqual([sold.id, other.id].sort());
    expect((await call('GET', `/api/results?carId=${unsold.id}`)).json().data).toMatchObject({ results: [], pagination: { total: 0 } });

    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const refused = await call('GET', `/api/results?carId=${bad}`);
      expect(refused.statusCode, `carId=${bad}`).toBe(400);
      expect(refused.json().details, `carId=${bad}`).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('carId') })]));
    }
  });
});
