import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarListItem, Pagination } from '@common/schemas/cars.ts';
import { SAMPLE_CARS, SAMPLE_REVIEWS, SAMPLE_SELLERS } from '../../db/seed/sample-data.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

interface Listing {
  cars: CarListItem[];
  pagination: Pagination;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string): Promise<Listing> {
  const res = await t.app.inject({ method: 'GET', url: `/api/cars${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Listing }>().data;
}
const names = (cars: CarListItem[]) => cars.map((c) => `${c.make} ${c.model}`);
/** The sample car a served car was seeded from (by make and model), and its seller. */
function sampleOf(car: { make: string; model: string }) {
  const sample = SAMPLE_CARS.find((c) => c.make === car.make && c.model === car.model)!;
  return { sample, seller: SAMPLE_SELLERS.find((s) => s.key === sample.sellerKey)! };
}
/** The fields a served car, listed or in detail, carries under the sample's own names. */
const sharedFields = ({ year, price, mileage, condition, location }: (typeof SAMPLE_CARS)[number]) => ({ year, price, mileage, condition, location });
const sampleNames = (predicate: (c: (typeof SAMPLE_CARS)[number]) => boolean) =>
  SAMPLE_CARS.filter(predicate).map((c) => `${c.make} ${c.model}`);

describe('GET /api/cars', () => {
  it('lists the 12 sample cars on one page, cheapest first, in the listing shape', async () => {
    const { cars, pagination } = await list('');
    expect(pagination).toEqual({ page: 1, limit: 12, total: 12, pages: 1 });
    expect(cars).toHaveLength(12);
    expect(cars.map((c) => c.price)).toEqual([...SAMPLE_CARS.map((c) => c.price)].sort((a, b) => a - b));
    const first = cars[0]!;
    expect(Object.keys(first).sort()).toEqual(
      ['auction', 'condition', 'current_bids', 'highest_bid', 'id', 'location', 'make', 'market_value', 'mileage', 'model', 'price', 'primary_image', 'seller_name', 'seller_verified', 'viewing_count', 'year'].sort(),
    );
    const { sample, seller } = sampleOf(first);
    expect(first).toMatchObject({
      ...sharedFields(sample),
      market_value: sample.marketValue,
      seller_name: seller.name,
      seller_verified: seller.verified,
      current_bids: 0,
      viewing_count: 0,
    });
    expect(first.primary_image).toMatch(/^\/media\/cars\/[a-z]+\/[0-9a-f]{6}\/side\.svg$/);
  });

  it('serves every listed image as an SVG illustration', async () => {
    const { cars } = await list('');
    for (const car of cars) {
      const res = await t.app.inject({ method: 'GET', url: car.primary_image! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.body.startsWith('<svg')).toBe(true);
    }
  });

  it('filters luxury cars at $100,000 and above', async () => {
    const { cars, pagination } = await list('?filter=luxury');
    expect(names(cars).sort()).toEqual(sampleNames((c) => c.price >= 100_000).sort());
    expect(pagination.total).toBe(cars.length);
    expect(cars.every((c) => c.price >= 100_000)).toBe(true);
  });

  it('filters sports cars by body style', async () => {
    const { cars } = await list('?filter=sports');
    expect(names(cars).sort()).toEqual(sampleNames((c) => c.bodyStyle === 'sports').sort());
    expect(cars.length).toBeGreaterThan(0);
  });

  it('filters cars priced below market value', async () => {
    const { cars } = await list('?filter=below-market');
    expect(names(cars).sort()).toEqual(sampleNames((c) => c.price < c.marketValue).sort());
    expect(cars.every((c) => c.market_value !== null && c.price < c.market_value)).toBe(true);
  });

  it('treats filter=all as no filter', async () => {
    expect((await list('?filter=all')).pagination.total).toBe(12);
  });

  it.each([
    ['price-low', (a: CarListItem, b: CarListItem) => a.price - b.price || a.id - b.id],
    ['price-high', (a: CarListItem, b: CarListItem) => b.price - a.price || b.id - a.id],
    ['year-new', (a: CarListItem, b: CarListItem) => b.year - a.year || b.id - a.id],
    ['year-old', (a: CarListItem, b: CarListItem) => a.year - b.year || a.id - b.id],
  ])('sorts by %s', async (sort, compare) => {
    const { cars } = await list(`?sort=${sort}`);
    expect(cars.map((c) => c.id)).toEqual([...cars].sort(compare).map((c) => c.id));
  });

  it('sorts popular cars by bids, then newest listing first', async () => {
    const { cars } = await list('?sort=popular');
    const newestFirst = [...SAMPLE_CARS].sort((a, b) => a.listedDaysAgo - b.listedDaysAgo).map((c) => `${c.make} ${c.model}`);
    expect(names(cars)).toEqual(newestFirst);
  });

  it('combines filter, sort and search', async () => {
    const { cars } = await list('?filter=luxury&sort=price-high&search=porsche');
    const expected = SAMPLE_CARS.filter((c) => c.make === 'Porsche' && c.price >= 100_000).sort((a, b) => b.price - a.price);
    expect(cars.map((c) => c.price)).toEqual(expected.map((c) => c.price));
  });

  describe('search', () => {
    const porsches = sampleNames((c) => c.make === 'Porsche').sort();

    it('matches the make, whatever the case', async () => {
      expect(porsches.length).toBeGreaterThan(0);
      expect(names((await list('?search=porsche')).cars).sort()).toEqual(porsches);
      expect(names((await list('?search=PORSCHE')).cars).sort()).toEqual(porsches);
    });

    it('matches the model', async () => {
      const sample = SAMPLE_CARS.find((c) => c.make === 'McLaren') ?? SAMPLE_CARS[0]!;
      const { cars } = await list(`?search=${encodeURIComponent(sample.model)}`);
      expect(names(cars)).toContain(`${sample.make} ${sample.model}`);
    });

    it('ignores accents in both directions', async () => {
      const accented = SAMPLE_CARS.find((c) => /[^ -~]/.test(c.model));
      expect(accented, 'the sample set has a model with an accent').toBeDefined();
      const plain = accented!.model.normalize('NFD').replace(/\p{M}/gu, '');
      expect(names((await list(`?search=${encodeURIComponent(plain)}`)).cars)).toContain(`${accented!.make} ${accented!.model}`);
      expect(names((await list(`?search=${encodeURIComponent(accented!.model)}`)).cars)).toContain(`${accented!.make} ${accented!.model}`);
    });

    it('matches a four-digit year exactly', async () => {
      const year = SAMPLE_CARS[0]!.year;
      const { cars } = await list(`?search=${year}`);
      expect(names(cars).sort()).toEqual(sampleNames((c) => c.year === year).sort());
    });

    it('requires every word to match', async () => {
      const porsche = SAMPLE_CARS.find((c) => c.make === 'Porsche')!;
      const { cars } = await list(`?search=${encodeURIComponent(`porsche ${porsche.year}`)}`);
      expect(names(cars).sort()).toEqual(sampleNames((c) => c.make === 'Porsche' && c.year === porsche.year).sort());
    });

    it('forgives a small typo', async () => {
      expect(names((await list('?search=porshe')).cars).sort()).toEqual(porsches);
      expect(names((await list('?search=lamborgini')).cars)).toEqual(sampleNames((c) => c.make === 'Lamborghini'));
    });

    it('treats SQL and LIKE metacharacters as plain text', async () => {
      // As wildcards, 'p%e' would match Porsche and '9_1' would match 911.
      for (const text of ['%', '_', '\\', 'p%e', '9_1', "'; drop table cars; --", "porsche' or '1'='1"]) {
        const { cars, pagination } = await list(`?search=${encodeURIComponent(text)}`);
        expect(cars, text).toEqual([]);
        expect(pagination.total).toBe(0);
      }
      expect((await list('')).pagination.total).toBe(12);
    });

    it('returns an empty page, not an error, when nothing matches', async () => {
      expect(await list('?search=trabant')).toEqual({ cars: [], pagination: { page: 1, limit: 12, total: 0, pages: 0 } });
    });
  });

  describe('pagination', () => {
    it('splits results into pages that do not overlap', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => list(`?limit=5&page=${page}`)));
      expect(pages.map((p) => p.cars.length)).toEqual([5, 5, 2]);
      expect(pages[0]!.pagination).toEqual({ page: 1, limit: 5, total: 12, pages: 3 });
      const ids = pages.flatMap((p) => p.cars.map((c) => c.id));
      expect(new Set(ids).size).toBe(12);
    });

    it('returns no cars but the right totals for a page past the end', async () => {
      expect(await list('?limit=5&page=4')).toEqual({ cars: [], pagination: { page: 4, limit: 5, total: 12, pages: 3 } });
    });

    it('accepts the largest page size', async () => {
      expect((await list('?limit=50')).pagination).toEqual({ page: 1, limit: 50, total: 12, pages: 1 });
    });
  });

  it.each([
    ['filter=bogus', 'filter'],
    ['sort=cheapest', 'sort'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['limit=0', 'limit'],
    ['limit=500', 'limit'],
    ['limit=ten', 'limit'],
    [`search=${'x'.repeat(101)}`, 'search'],
  ])('rejects %s with a 400 naming the field', async (query, field) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/cars?${query}` });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(typeof body.error).toBe('string');
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining(field) })]));
  });
});

describe('GET /api/cars/:id', () => {
  it('returns the detail shape with seller, gallery, features and reviews', async () => {
    const { cars } = await list('?limit=50');
    for (const item of cars) {
      const res = await t.app.inject({ method: 'GET', url: `/api/cars/${item.id}` });
      expect(res.statusCode).toBe(200);
      const car = res.json().data;
      const { sample, seller } = sampleOf(car);
      expect(car).toMatchObject({
        id: item.id,
        ...sharedFields(sample),
        marketValue: sample.marketValue,
        description: sample.description,
        features: sample.features,
        bodyStyle: sample.bodyStyle,
        currentBids: 0,
        highestBid: null,
        viewingCount: 0,
        seller: { name: seller.name, rating: seller.rating, verified: seller.verified },
      });
      expect(car.images).toHaveLength(sample.views.length);
      expect(car.images[0]).toBe(item.primary_image);
      const expectedReviews = SAMPLE_REVIEWS.filter((r) => r.carKey === sample.key);
      expect(car.reviews).toHaveLength(expectedReviews.length);
      for (const review of car.reviews) {
        expect(review).toEqual({
          id: expect.any(Number),
          carId: item.id,
          userId: null,
          userName: expect.any(String),
          rating: expect.any(Number),
          comment: expect.any(String),
          date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
          verified: expect.any(Boolean),
        });
      }
      const dates = car.reviews.map((r: { date: string }) => r.date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });

  it.each(['999999', 'abc', '1.5', '-1', '0', '99999999999', '1%20or%201=1'])('answers 404 for the unknown or malformed id %s', async (id) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/cars/${id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Car not found', code: 'NOT_FOUND' });
  });
});

describe('API conventions', () => {
  it('answers unknown API paths with a JSON 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
  });

  it('reports health with the database status', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok', db: 'ok', redis: 'off', queueMs: expect.any(Number) } });
  });

  it('publishes an OpenAPI document describing the catalogue', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/cars', '/api/cars/{id}', '/api/health']));
    const docsPage = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(docsPage.statusCode);
  });

  it('refuses unknown image paths', async () => {
    for (const url of ['/media/cars/tank/ff0000/side.svg', '/media/cars/sports/red/side.svg', '/media/cars/sports/ff0000/top.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
