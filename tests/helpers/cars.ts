import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cars, sellers } from '../../db/schema/index.ts';
import { carSearchText } from '../../db/search-text.ts';
import type { Database } from '../../db/client.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { NewListing } from '@common/schemas/listing.ts';
import { request, type Caller } from './api.ts';
import type { TestApp } from './app.ts';
import { http } from './server-database.ts';

/**
 * Cars for tests: `listingBody` is the body of `POST /api/cars`, `listCar` lists one through the
 * API (as a seller would, with every rule of the route), `insertListing` puts one straight into
 * the catalogue (no route, no rule: for tests about something else that need a car).
 */

let made = 0;

/**
 * Fields of `NewListing` (common/schemas/listing.ts) to send instead of the defaults, typed
 * loosely on purpose (tests send wrong values too), and an auction ending `auctionInSeconds` from now.
 */
export type ListingOverrides = { [K in keyof NewListing]?: unknown } & Record<string, unknown> & { auctionInSeconds?: number; reservePrice?: number };

/**
 * A valid new listing with a model of its own (so searches find exactly it), with `overrides`
 * on top. `auctionInSeconds` makes it a timed auction (`reservePrice` with it); any other
 * field, valid or not, is sent as given.
 */
export function listingBody(overrides: ListingOverrides = {}): Record<string, unknown> {
  made += 1;
  const { auctionInSeconds, reservePrice, ...fields } = overrides;
  const auction =
    auctionInSeconds !== undefined
      ? { auction: { endsAt: new Date(Date.now() + auctionInSeconds * 1000).toISOString(), ...(reservePrice !== undefined ? { reservePrice } : {}) } }
      : {};
  return {
    make: 'Porsche',
    model: `911 Test ${made}-${process.pid}`,
    year: 2021,
    price: 120_000,
    mileage: 10_000 + made,
    condition: 'Excellent',
    location: 'Denver, CO',
    description: 'Listed by a test.',
    features: [],
    bodyStyle: 'coupe',
    ...auction,
    ...fields,
  };
}

/** Lists a car through `POST /api/cars` as `seller` (published unless `draft: true`), expecting 201. */
export async function listCar(t: TestApp, seller: Caller, overrides: ListingOverrides = {}): Promise<CarDetail> {
  const res = await request(t, 'POST', '/api/cars', seller, listingBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as CarDetail;
}

/** `listCar` against a server process at `base`, signed in with `token`. */
export async function listCarOn(base: string, token: string, overrides: ListingOverrides = {}): Promise<CarDetail> {
  const res = await http<CarDetail>(base, token, 'POST', '/api/cars', listingBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export interface ListingOptions {
  price?: number;
  make?: string;
  model?: string;
}

let inserted = 0;

/** A car listed by `seller` (given a seller profile if it has none), straight into the catalogue. */
export function createListing(t: TestApp, seller: { id: number; name: string }, options: ListingOptions = {}): Promise<{ id: number; price: number }> {
  return insertListing(t.database.db, seller, options);
}

/** `createListing` on any database (a server process's, before it starts). */
export async function insertListing(db: Database, seller: { id: number; name: string }, options: ListingOptions = {}): Promise<{ id: number; price: number }> {
  inserted += 1;
  let [profile] = await db.select({ id: sellers.id }).from(sellers).where(eq(sellers.userId, seller.id));
  profile ??= (await db.insert(sellers).values({ userId: seller.id, name: seller.name, rating: 4.5, verified: true }).returning({ id: sellers.id }))[0]!;
  const make = options.make ?? 'Porsche';
  const model = options.model ?? `911 Test ${inserted}`;
  const price = options.price ?? 90_000 + inserted * 100;
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

/**
 * The seeded catalogue's cars, handed out in turn by `next` so that each test has a car of its
 * own and its counters and rooms start clean. `load` reads them once the app has started.
 */
export function seededCars() {
  let ids: number[] = [];
  let handedOut = 0;
  return {
    async load(t: TestApp): Promise<void> {
      const res = await request(t, 'GET', '/api/cars?limit=50');
      ids = (res.json().data.cars as { id: number }[]).map((c) => c.id);
    },
    next: (): number => ids[handedOut++ % ids.length]!,
  };
}
