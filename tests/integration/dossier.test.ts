import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dossierEntries, orders } from '../../db/schema/index.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { Inspection } from '@common/schemas/dossier.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { snapshotHash } from '../../server/src/services/dossier/dossier-records.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { SAMPLE_DOSSIER, dossierApi } from '../helpers/dossier.ts';
import { createListing, orderApi, orderIn } from '../helpers/escrow.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let api: ReturnType<typeof dossierApi>;
let orderCalls: ReturnType<typeof orderApi>;

beforeAll(async () => {
  t = await startTestApp({ AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1', JOB_POLL_SECONDS: '0.5' });
  await t.listen();
  api = dossierApi(t);
  orderCalls = orderApi(t);
});
afterAll(async () => {
  await t?.close();
});

async function sellerWithCar(options: { make?: string } = {}) {
  const seller = await createUser(t);
  const car = await createListing(t, seller, options);
  return { seller, car };
}

const fieldsOf = (res: { json(): { details?: { field: string }[] } }) => (res.json().details ?? []).map((d) => d.field);

/** Sends `vin` alone for a new car of `make`: the VIN is checked against the car's make and year. */
async function vinOnNewCar(make: string, vin: string) {
  const { seller, car } = await sellerWithCar({ make });
  return api.put(seller, car.id, { vin });
}

describe('the VIN and the chassis number', () => {
  it.each([
    { make: 'Porsche', vin: 'WP0AC2A94NS270123', vinCheck: 'not_applicable' },
    { make: 'Ferrari', vin: 'ZFF95NLA8N0261234', vinCheck: 'not_applicable' },
    { make: 'Chevrolet', vin: '1G1YB2D46N5100001', vinCheck: 'valid' },
    { make: 'BMW', vin: '5YMJU0C02N9J12345', vinCheck: 'valid' },
    { make: 'Bentley', vin: 'scbdg4zg9nc012399', vinCheck: 'not_applicable' },
  ])('accepts the valid $make VIN $vin, with its check ($vinCheck)', async ({ make, vin, vinCheck }) => {
    const res = await vinOnNewCar(make, vin);
    expect(res.statusCode, `${make} ${vin}: ${res.body}`).toBe(200);
    expect(res.json().data.dossier).toMatchObject({ vin: vin.toUpperCase(), vinCheck });
  });

  it.each([
    { make: 'Chevrolet', vin: '1G1YB2D46N510000', why: '16 characters' },
    { make: 'Chevrolet', vin: '1G1YB2D46N51000011', why: '18 characters' },
    { make: 'Chevrolet', vin: '1G1YB2D46N51I0001', why: 'I' },
    { make: 'Chevrolet', vin: '1G1YB2D46N51O0001', why: 'O' },
    { make: 'Chevrolet', vin: '1G1YB2D46N51Q0001', why: 'Q' },
    { make: 'Chevrolet', vin: '1G1YB2D47N5100001', why: 'wrong check digit' },
    { make: 'BMW', vin: '5YMJU0C03N9J12345', why: 'wrong check digit' },
    { make: 'Ferrari', vin: 'WP0AC2A94NS270123', why: 'a Porsche maker code on a Ferrari' },
    { make: 'BMW', vin: '5YMJU0C04M9J12345', why: 'a 2021 year character on a 2022 car' },
  ])('refuses $vin on a $make ($why): 400 naming vin', async ({ make, vin, why }) => {
    const res = await vinOnNewCar(make, vin);
    expect(res.statusCode, `${why}: ${res.body}`).toBe(400);
    expect(fieldsOf(res), why).toContain('vin');
  });

  it('takes a chassis number of letters, digits and hyphens, and refuses spaces or 21 characters', async () => {
    const { seller, car } = await sellerWithCar();
    const ok = await api.put(seller, car.id, { chassisNumber: 'BNR32-305156' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.dossier).toMatchObject({ chassisNumber: 'BNR32-305156', vin: null, vinCheck: null });
    for (const chassisNumber of ['BNR32 305156', 'A'.repeat(21)]) {
      const res = await api.put(seller, car.id, { chassisNumber });
      expect(res.statusCode, chassisNumber).toBe(400);
      expect(fieldsOf(res)).toContain('chassisNumber');
    }
  });
});

describe('the lists', () => {
  it('replaces each list given, keeps the ids of items sent back, and shows the dossier on the car', async () => {
    const { seller, car } = await sellerWithCar();
    const first = await api.put(seller, car.id, SAMPLE_DOSSIER);
    expect(first.statusCode, first.body).toBe(200);
    const dossier = (first.json().data as CarDetail).dossier;
    expect(dossier.knownFlaws.map((i) => i.text)).toEqual(SAMPLE_DOSSIER.knownFlaws.map((i) => i.text));
    expect(dossier.serviceRecords[0]).toMatchObject({ date: '2024-05-10', mileage: 6_120, shop: 'Porsche Austin', cost: 1_450 });
    expect(dossier.updatedAt).not.toBeNull();

    const [chips, rash] = dossier.knownFlaws;
    const second = await api.put(seller, car.id, { knownFlaws: [{ id: rash!.id, text: 'Curb rash on both rear wheels' }, { text: 'Small tear in the driver seat bolster' }] });
    const after = (second.json().data as CarDetail).dossier;
    expect(after.knownFlaws[0]).toEqual({ id: rash!.id, text: 'Curb rash on both rear wheels' });
    expect(after.knownFlaws).toHaveLength(2);
    expect(after.knownFlaws.map((i) => i.id)).not.toContain(chips!.id);
    // Lists not sent stay as they were.
    expect(after.itemsIncluded).toEqual(dossier.itemsIncluded);

    const publicView = (await api.car(car.id)).json().data as CarDetail;
    expect(publicView.dossier.knownFlaws).toEqual(after.knownFlaws);
  });

  it('refuses more than 50 items, empty or 501-character text, and ids of other items', async () => {
    const { seller, car } = await sellerWithCar();
    const tooMany = await api.put(seller, car.id, { knownFlaws: Array.from({ length: 51 }, (_, i) => ({ text: `Flaw ${i}` })) });
    expect(tooMany.statusCode).toBe(400);
    expect((await api.put(seller, car.id, { knownFlaws: [{ text: '' }] })).statusCode).toBe(400);
    expect((await api.put(seller, car.id, { knownFlaws: [{ text: 'x'.repeat(501) }] })).statusCode).toBe(400);
    expect((await api.put(seller, car.id, { knownFlaws: [{ text: 'x'.repeat(500) }] })).statusCode).toBe(200);

    const other = await sellerWithCar();
    const theirs = (await api.put(other.seller, other.car.id, SAMPLE_DOSSIER)).json().data as CarDetail;
    const foreign = await api.put(seller, car.id, { knownFlaws: [{ id: theirs.dossier.knownFlaws[0]!.id, text: 'Not mine' }] });
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toContain('knownFlaws/0/id');
    const wrongSection = await api.put(other.seller, other.car.id, { modifications: [{ id: theirs.dossier.knownFlaws[0]!.id, text: 'Moved' }] });
    expect(wrongSection.statusCode).toBe(400);
    expect((await api.put(seller, car.id, { serviceRecords: [{ date: '2024-02-30', mileage: 1, shop: 'A', work: 'B' }] })).statusCode).toBe(400);
    expect((await api.put(seller, car.id, { serviceRecords: [{ date: '2024-02-10', mileage: 1, shop: 'A', work: 'B', documentId: 999_999 }] })).statusCode).toBe(400);
    expect((await api.put(seller, car.id, { extra: true })).statusCode).toBe(400);
  });
});

describe('who edits, and when', () => {
  it('answers 404 to anyone but the seller, and changes nothing', async () => {
    const { car } = await sellerWithCar();
    const stranger = await createUser(t);
    expect((await api.put(stranger, car.id, SAMPLE_DOSSIER)).statusCode).toBe(404);
    expect((await api.put(undefined, car.id, SAMPLE_DOSSIER)).statusCode).toBe(401);
    expect((await api.car(car.id)).json().data.dossier.knownFlaws).toEqual([]);
    expect((await api.put(stranger, 999_999, SAMPLE_DOSSIER)).statusCode).toBe(404);
  });

  it('answers 409 LISTING_LOCKED once an order is funded', async () => {
    const [buyer, seller] = [await createUser(t), await createUser(t)];
    const order = await orderIn(t, 'funded', buyer, seller);
    const res = await api.put(seller, order.carId, SAMPLE_DOSSIER);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('LISTING_LOCKED');
  });
});

describe('frozen at the sale', () => {
  async function inspectionOf(user: SignedInUser, orderId: number): Promise<Inspection> {
    const res = await api.inspection(user, orderId);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  it('freezes the dossier into a bought order; later edits, even behind the application, never change its checklist or hash', async () => {
    const { seller, car } = await sellerWithCar();
    await api.put(seller, car.id, SAMPLE_DOSSIER);
    const buyer = await createUser(t);
    const placed = await orderCalls.place(buyer, car);
    expect(placed.statusCode, placed.body).toBe(201);
    const order: OrderWithEvents = placed.json().data;
    const frozen = await inspectionOf(buyer, order.id);
    expect(frozen.items.map((i) => i.section)).toEqual(['knownFlaws', 'knownFlaws', 'modifications', 'itemsIncluded', 'itemsIncluded', 'serviceRecords']);
    expect(frozen.items[0]).toMatchObject({ text: 'Stone chips on the front bumper', result: null, note: null });
    expect(frozen.snapshotHash).toMatch(/^[0-9a-f]{64}$/);

    // The seller edits through the API while the order is unpaid...
    expect((await api.put(seller, car.id, { knownFlaws: [{ text: 'None' }] })).statusCode).toBe(200);
    // ...and someone edits the listing behind the application's back.
    await t.database.db.execute(sql`update dossier_entries set text = 'Nothing to see' where car_id = ${car.id} and section <> 'serviceRecords'`);
    await t.database.db.execute(sql`update cars set vin = null where id = ${car.id}`);
    await t.database.db.delete(dossierEntries).where(eq(dossierEntries.section, 'serviceRecords'));

    const later = await inspectionOf(buyer, order.id);
    expect(later).toEqual(frozen);
    const [row] = await t.database.db.select({ snapshot: orders.dossierSnapshot, hash: orders.snapshotHash }).from(orders).where(eq(orders.id, order.id));
    expect(row!.hash).toBe(frozen.snapshotHash);
    expect(snapshotHash(row!.snapshot!)).toBe(frozen.snapshotHash);
    expect(row!.snapshot!.vin).toBe(SAMPLE_DOSSIER.vin);

    // The database itself refuses to change a frozen dossier.
    await expect(t.database.db.execute(sql`update orders set snapshot_hash = ${'0'.repeat(64)} where id = ${order.id}`)).rejects.toThrow();
  });

  it('freezes the dossier when the seller accepts a bid, when an offer is accepted and when an auction is won', async () => {
    // An accepted bid.
    {
      const { seller, car } = await sellerWithCar();
      await api.put(seller, car.id, SAMPLE_DOSSIER);
      const bidder = await createUser(t);
      const bid = await orderCalls.call('POST', '/api/bids', bidder, { carId: car.id, amount: car.price - 1_000 });
      expect(bid.statusCode, bid.body).toBe(201);
      const accepted = await t.app.inject({ method: 'POST', url: `/api/cars/${car.id}/accept-bid`, headers: seller.auth, payload: { bidId: bid.json().data.bid.id } });
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect((await inspectionOf(bidder, accepted.json().data.id)).items).toHaveLength(6);
    }
    // An accepted offer.
    {
      const { seller, car } = await sellerWithCar();
      await api.put(seller, car.id, SAMPLE_DOSSIER);
      const buyer = await createUser(t);
      const offer = await orderCalls.call('POST', `/api/cars/${car.id}/offers`, buyer, { amount: car.price - 5_000 });
      expect(offer.statusCode, offer.body).toBe(201);
      const accepted = await orderCalls.call('POST', `/api/offers/${offer.json().data.id}/accept`, seller, {});
      expect(accepted.statusCode, accepted.body).toBe(201);
      const [order] = (await orderCalls.call('GET', '/api/orders', buyer)).json().data.orders as { id: number; carId: number }[];
      expect(order!.carId).toBe(car.id);
      expect((await inspectionOf(buyer, order!.id)).items).toHaveLength(6);
    }
    // A won auction.
    {
      const seller = await createUser(t);
      const listed = await t.app.inject({
        method: 'POST',
        url: '/api/cars',
        headers: seller.auth,
        payload: { make: 'Porsche', model: '911 GT3', year: 2022, price: 100_000, mileage: 6_000, condition: 'Excellent', location: 'Austin, TX', description: 'Auction car.', features: [], bodyStyle: 'coupe', auction: { endsAt: new Date(Date.now() + 3_000).toISOString() } },
      });
      expect(listed.statusCode, listed.body).toBe(201);
      const carId = listed.json().data.id as number;
      expect((await api.put(seller, carId, SAMPLE_DOSSIER)).statusCode).toBe(200);
      const bidder = await createUser(t);
      expect((await orderCalls.call('POST', '/api/bids', bidder, { carId, amount: 100_000 })).statusCode).toBe(201);
      let orderId: number | undefined;
      await waitUntil(async () => {
        const mine = (await orderCalls.call('GET', '/api/orders', bidder)).json().data.orders as { id: number; carId: number }[];
        orderId = mine.find((o) => o.carId === carId)?.id;
        return orderId !== undefined;
      }, 20_000, 'the auction to close with an order');
      expect((await inspectionOf(bidder, orderId!)).items).toHaveLength(6);
    }
  });
});

describe('a dossier at its limits', () => {
  it('takes every list full of the longest entries in one request', async () => {
    const { seller, car } = await sellerWithCar();
    const longest = (i: number) => `${i} ${'é'.repeat(498)}`.slice(0, 500);
    const full = {
      knownFlaws: Array.from({ length: 50 }, (_, i) => ({ text: longest(i) })),
      modifications: Array.from({ length: 50 }, (_, i) => ({ text: longest(i) })),
      itemsIncluded: Array.from({ length: 50 }, (_, i) => ({ text: longest(i) })),
      serviceRecords: Array.from({ length: 50 }, (_, i) => ({ date: '2024-05-10', mileage: i, shop: 'S'.repeat(120), work: `${i} ${'w'.repeat(990)}`, cost: i })),
    };
    const res = await api.put(seller, car.id, full);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const dossier = (res.json().data as CarDetail).dossier;
    expect([dossier.knownFlaws.length, dossier.modifications.length, dossier.itemsIncluded.length, dossier.serviceRecords.length]).toEqual([50, 50, 50, 50]);
  });
});
