import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cars, users } from '../../db/schema/index.ts';
import { DEMO_SELLER_PASSWORD, SAMPLE_SELLER_EMAILS, seedGeneratedCars } from '../../db/seed/seed.ts';
import { SAMPLE_CARS } from '../../db/seed/sample-data.ts';
import { prepareDatabase } from '../../server/src/lib/prepare-database.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CarDetail } from '@common/schemas/cars.ts';
import { checkVin } from '@common/vin.ts';
import { LocalPhotoStorage } from '../../server/src/services/photos/photo-storage.ts';
import { checkPdf } from '../../server/src/services/dossier/document-checks.ts';

const quiet = { info: () => {} };

describe('preparing a new database', () => {
  let t: TestApp;
  beforeAll(async () => {
    const database = await createTestDatabase({ seed: false });
    const dataDir = mkdtempSync(join(tmpdir(), 'lm-seed-'));
    const documents = new LocalPhotoStorage(dataDir, 'documents');
    await prepareDatabase(database, quiet, documents);
    // A second start finds the data and seeds nothing more.
    await prepareDatabase(database, quiet, documents);
    t = await startTestApp({ DATA_DIR: dataDir }, database);
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.close();
  });

  it('seeds the sample catalogue exactly once', async () => {
    const [row] = await t.database.db.select({ n: count() }).from(cars);
    expect(row!.n).toBe(SAMPLE_CARS.length);
  });

  it('gives every sample car a dossier with a VIN valid for it, flaws, a service history and a PDF invoice that opens', async () => {
    for (const id of [1, 2, 3]) {
      const car = (await t.app.inject({ method: 'GET', url: `/api/cars/${id}` })).json().data as CarDetail;
      expect(checkVin(car.dossier.vin!, car)).toMatchObject({ ok: true });
      expect(car.dossier.knownFlaws.length).toBeGreaterThan(0);
      expect(car.dossier.serviceRecords.length).toBeGreaterThan(0);
      const invoice = car.dossier.documents[0]!;
      expect(car.dossier.serviceRecords.some((r) => r.documentId === invoice.id)).toBe(true);
      const served = await t.app.inject({ method: 'GET', url: invoice.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('application/pdf');
      await expect(checkPdf(served.rawPayload)).resolves.toBeUndefined();
    }
  });

  it('gives the sample sellers accounts that can sign in only on the embedded database', async () => {
    const [accounts] = await t.database.db.select({ n: count() }).from(users);
    expect(accounts!.n).toBe(SAMPLE_SELLER_EMAILS.length);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: SAMPLE_SELLER_EMAILS[0], password: DEMO_SELLER_PASSWORD } });
    expect(res.statusCode).toBe(t.database.driver === 'pglite' ? 200 : 401);
  });

  it('adds generated cars in bulk that the listing can search and filter', async () => {
    await seedGeneratedCars(t.database.db, 600, { batchSize: 250 });
    t.app.services.cars.clearListingCache();
    const all = (await t.app.inject({ method: 'GET', url: '/api/cars?limit=50&page=3' })).json().data;
    expect(all.pagination.total).toBe(SAMPLE_CARS.length + 600);
    expect(all.cars).toHaveLength(50);
    const porsches = (await t.app.inject({ method: 'GET', url: '/api/cars?search=porsche&limit=50' })).json().data;
    expect(porsches.pagination.total).toBeGreaterThan(10);
    expect(porsches.cars.every((c: { make: string }) => c.make === 'Porsche')).toBe(true);
    const image = await t.app.inject({ method: 'GET', url: porsches.cars[0].primary_image });
    expect(image.statusCode).toBe(200);
  });
});
