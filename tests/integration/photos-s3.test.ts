import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { listCar } from '../helpers/cars.ts';
import { syntheticPhoto } from '../helpers/photos.ts';
import { invoicePdf } from '../helpers/pdfs.ts';
import { uploadDocument } from '../helpers/dossier.ts';
import { carDocuments } from '../../db/schema/index.ts';
import { eq } from 'drizzle-orm';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Photos in an S3-compatible bucket: a local S3 server (s3rver, from the npm registry) stands in
 * for AWS, MinIO or R2, and the app is configured only through its S3_* settings.
 */
let s3: S3rver;
let endpoint: string;
let t: TestApp;
let seller: SignedInUser;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(join(tmpdir(), 'lm-s3-')), configureBuckets: [{ name: 'listing-photos', configs: [] }] });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    S3_BUCKET: 'listing-photos',
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    JOB_POLL_SECONDS: '0.5',
  });
  await t.listen();
  seller = await createUser(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('photos in an S3-compatible bucket', () => {
  it('stores every size in the bucket, serves them from it and removes them with the photo', async () => {
    const car = await listCar(t, seller, { make: 'Bentley', model: 'Continental GT', year: 2022, price: 210_000, mileage: 9_000, condition: 'Excellent', location: 'Denver, CO', description: 'Mulliner spec.', features: [], bodyStyle: 'coupe' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await syntheticPhoto({ width: 2000, height: 1500, gps: true }))], { type: 'image/jpeg' }), 'car.jpg');
    const res = await fetch(`${t.url}/api/cars/${car.id}/images`, { method: 'POST', headers: seller.auth, body: form });
    expect(res.status).toBe(201);
    const [photo] = (await t.app.inject({ method: 'GET', url: `/api/cars/${car.id}` })).json().data.photos;
    const urls = [photo.card.webp, photo.card.jpeg, photo.gallery.webp, photo.gallery.jpeg] as string[];
    for (const url of urls) {
      expect(url.startsWith(`${endpoint}/listing-photos/cars/${car.id}/`), url).toBe(true);
      const served = await fetch(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(metadata.exif).toBeUndefined();
    }
    // Nothing of it lands on the app's own disk.
    expect((await fetch(`${t.url}/media/photos/cars/${car.id}/x/card.webp`)).status).toBe(404);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/images/0`, headers: seller.auth });
    expect(removed.json().data.images).toEqual([]);
    await waitUntil(async () => (await Promise.all(urls.map(async (url) => (await fetch(url)).status))).every((s) => s === 404), 10_000, 'the objects to be removed');
  });

  it('refuses half a bucket configuration at start, listing what is missing', async () => {
    const { loadConfig, ConfigError } = await import('../../server/src/config.ts');
    expect(() => loadConfig({ S3_ENDPOINT: endpoint, DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-cfg-')) })).toThrow(ConfigError);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-one', DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-cfg-')) })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
  });
});

describe('documents in the same bucket', () => {
  it('stores a document under documents/, serves it through the app with its headers, and removes it', async () => {
    const car = await listCar(t, seller, { make: 'Bentley', model: 'Bentayga', year: 2022, price: 190_000, mileage: 7_000, condition: 'Excellent', location: 'Denver, CO', description: 'First Edition.', features: [], bodyStyle: 'suv' });
    const pdf = await invoicePdf();
    const res = await uploadDocument(t, seller, car.id, pdf);
    expect(res.status).toBe(201);
    const document = (await res.json()).data as { id: number; url: string };
    const [row] = await t.database.db.select().from(carDocuments).where(eq(carDocuments.id, document.id));
    expect(row!.storageKey.startsWith(`documents/cars/${car.id}/`)).toBe(true);
    const inBucket = await fetch(`${endpoint}/listing-photos/${row!.storageKey}`);
    expect(inBucket.status).toBe(200);
    const served = await fetch(`${t.url}${document.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toBe('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/documents/${document.id}`, headers: seller.auth })).statusCode).toBe(200);
    expect((await fetch(`${endpoint}/listing-photos/${row!.storageKey}`)).status).toBe(404);
  });
});

