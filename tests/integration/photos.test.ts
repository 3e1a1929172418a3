import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarDetail } from '@common/schemas/cars.ts';
import { LocalPhotoStorage, type PhotoStorage } from '../../server/src/services/photos/photo-storage.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { exifHasGps, pngBomb, syntheticPhoto } from '../helpers/photos.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Local storage that fails its third write, to see a failed upload leave nothing behind. */
class FlakyStorage extends LocalPhotoStorage implements PhotoStorage {
  failOnPut: number | null = null;
  private puts = 0;
  override async put(key: string, body: Buffer, contentType: string): Promise<void> {
    this.puts += 1;
    if (this.failOnPut !== null && this.puts === this.failOnPut) throw new Error('disk full (test)');
    await super.put(key, body, contentType);
  }
  resetCount() {
    this.puts = 0;
  }
}

let t: TestApp;
let storage: FlakyStorage;
let seller: SignedInUser;
let photo: Buffer;

beforeAll(async () => {
  const dataDir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'lm-photos-'));
  storage = new FlakyStorage(dataDir);
  t = await startTestApp({ DATA_DIR: dataDir, JOB_POLL_SECONDS: '0.5' }, undefined, { photoStorage: storage });
  await t.listen();
  seller = await createUser(t, { name: 'Photo Seller' });
  photo = await syntheticPhoto({ gps: true });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let made = 0;
async function newCar(owner = seller): Promise<CarDetail> {
  made += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/cars',
    headers: owner.auth,
    payload: { make: 'McLaren', model: `Artura ${made}`, year: 2023, price: 230_000, mileage: 3_000, condition: 'Like New', location: 'Miami, FL', description: 'Hybrid supercar.', features: [], bodyStyle: 'sports' },
  });
  return res.json().data;
}

async function upload(carId: number, body: Buffer | Blob, options: { user?: SignedInUser | null; filename?: string; type?: string; field?: string } = {}) {
  const form = new FormData();
  form.append(options.field ?? 'file', body instanceof Blob ? body : new Blob([new Uint8Array(body)], { type: options.type ?? 'image/jpeg' }), options.filename ?? 'photo.jpg');
  const user = options.user === undefined ? seller : options.user;
  const res = await fetch(`${t.url}/api/cars/${carId}/images`, { method: 'POST', headers: user ? user.auth : {}, body: form });
  return { status: res.status, body: (await res.json()) as { data: { images: string[] }; code?: string; error?: string } };
}

const carDetail = async (id: number): Promise<CarDetail> => (await t.app.inject({ method: 'GET', url: `/api/cars/${id}` })).json().data;

/** Every file under the photo folder. */
function storedFiles(): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)])) : [];
  return walk(storage.root);
}

async function fetchImage(url: string) {
  const res = await fetch(`${t.url}${url}`);
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body, metadata: res.ok ? await sharp(body).metadata() : null };
}

describe('photo uploads', () => {
  it('stores a camera photo re-encoded in card and gallery sizes, without its camera and GPS data', async () => {
    const source = await sharp(photo).metadata();
    expect(exifHasGps(source.exif)).toBe(true);
    const car = await newCar();
    const res = await upload(car.id, photo, { filename: 'IMG_0001.JPG' });
    expect(res.status).toBe(201);
    expect(res.body.data.images).toHaveLength(1);
    const [only] = (await carDetail(car.id)).photos;
    expect(only).toMatchObject({ width: 1600, height: 1200 });
    expect(res.body.data.images[0]).toBe(only!.gallery.webp);
    expect((res.body.data as unknown as { photos: unknown[] }).photos).toEqual([only]);
    for (const [url, format, width] of [
      [only!.gallery.webp, 'webp', 1600],
      [only!.gallery.jpeg, 'jpeg', 1600],
      [only!.card.webp, 'webp', 640],
      [only!.card.jpeg, 'jpeg', 640],
    ] as const) {
      const { res: served, body, metadata } = await fetchImage(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expect(metadata).toMatchObject({ format, width });
      expect(metadata!.exif, url).toBeUndefined();
      expect(body.includes(Buffer.from('secret-tool')), url).toBe(false);
    }
    const card = await fetchImage(only!.card.webp);
    expect(card.body.length).toBeLessThan(80 * 1024);
    // The first photo is the listing's primary image, at card size.
    const listed = (await t.app.inject({ method: 'GET', url: `/api/cars?search=${encodeURIComponent(car.model)}` })).json().data.cars;
    expect(listed[0]).toMatchObject({ id: car.id, primary_image: only!.card.webp });
  });

  it('accepts PNG and WebP, and keeps a portrait photo upright within the sizes', async () => {
    const car = await newCar();
    expect((await upload(car.id, await syntheticPhoto({ width: 1200, height: 900, format: 'png' }), { type: 'image/png', filename: 'a.png' })).status).toBe(201);
    expect((await upload(car.id, await syntheticPhoto({ width: 1200, height: 1800, format: 'webp' }), { type: 'image/webp', filename: 'b.webp' })).status).toBe(201);
    const photos = (await carDetail(car.id)).photos;
    // Never enlarged; a portrait photo fits the gallery size by its height.
    expect(photos.map((p) => [p.width, p.height])).toEqual([
      [1200, 900],
      [1067, 1600],
    ]);
  });

  it('ignores the file name: tricks in it cannot choose where a file goes', async () => {
    const car = await newCar();
    for (const filename of ['../../../../etc/passwd.jpg', '..\\..\\windows\\win.ini', '/etc/shadow', 'a/../../b.jpg']) {
      const res = await upload(car.id, await syntheticPhoto({ width: 800, height: 600 }), { filename });
      expect(res.status, filename).toBe(201);
    }
    const files = storedFiles();
    expect(files.every((f) => f.startsWith(join(storage.root, 'cars', String(car.id))) || !f.includes(`cars/${car.id}/`))).toBe(true);
    for (const url of (await carDetail(car.id)).images) expect(url).toMatch(new RegExp(`^/media/photos/cars/${car.id}/[A-Za-z0-9_-]+/gallery\\.webp$`));
  });

  it.each([
    ['a text file named .jpg', () => Buffer.from('this is not a picture, just text\n'.repeat(20)), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an HTML page posing as an image', () => Buffer.from('<html><script>alert(1)</script></html>'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a GIF', () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an empty file', () => Buffer.alloc(0), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a corrupt JPEG', () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5_000, 7)]), 400, 'INVALID_IMAGE'],
    ['an 11 MB file', () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(11 * 1024 * 1024, 1)]), 413, 'PAYLOAD_TOO_LARGE'],
    ['a PNG bomb of 20,000 × 20,000 pixels', () => pngBomb(20_000), 400, 'IMAGE_TOO_LARGE'],
  ])('refuses %s, stores nothing and keeps serving', async (_, make, status, code) => {
    const car = await newCar();
    const before = storedFiles();
    const res = await upload(car.id, make());
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(res.body.error).toEqual(code === 'PAYLOAD_TOO_LARGE' ? 'Photos can be at most 10 MB' : expect.any(String));
    expect(storedFiles()).toEqual(before);
    expect((await carDetail(car.id)).images).toEqual([]);
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it('allows 20 photos per car, and refuses the 21st', async () => {
    const car = await newCar();
    const small = await syntheticPhoto({ width: 400, height: 300 });
    for (let i = 0; i < 20; i++) expect((await upload(car.id, small)).status).toBe(201);
    const before = storedFiles();
    const res = await upload(car.id, small);
    expect([res.status, res.body.code]).toEqual([409, 'TOO_MANY_PHOTOS']);
    expect(storedFiles()).toEqual(before);
    expect((await carDetail(car.id)).images).toHaveLength(20);
  });

  it('leaves no file and no photo when storing fails half way', async () => {
    const car = await newCar();
    const before = storedFiles();
    storage.resetCount();
    storage.failOnPut = 3;
    const res = await upload(car.id, await syntheticPhoto({ width: 800, height: 600 }));
    storage.failOnPut = null;
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    expect(storedFiles()).toEqual(before);
    expect((await carDetail(car.id)).photos).toEqual([]);
  });

  it('lets only the seller add photos, as multipart in the field "file"', async () => {
    const car = await newCar();
    const small = await syntheticPhoto({ width: 400, height: 300 });
    expect((await upload(car.id, small, { user: null })).status).toBe(401);
    expect((await upload(car.id, small, { user: await createUser(t) })).status).toBe(404);
    expect((await upload(999_999, small)).status).toBe(404);
    expect((await upload(car.id, small, { field: 'photo' })).status).toBe(400);
    const json = await fetch(`${t.url}/api/cars/${car.id}/images`, { method: 'POST', headers: { ...seller.auth, 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    // Multipart is accepted on this route only.
    const form = new FormData();
    form.append('make', 'x');
    const elsewhere = await fetch(`${t.url}/api/cars`, { method: 'POST', headers: seller.auth, body: form });
    expect(elsewhere.status).toBe(415);
    expect((await carDetail(car.id)).images).toEqual([]);
  });
});

describe('managing photos', () => {
  it('removes a photo (and its files) and reorders the gallery', async () => {
    const car = await newCar();
    for (const color of ['1f6f3f', '1f3f6f', '6f1f1f']) expect((await upload(car.id, await syntheticPhoto({ width: 800, height: 600, color }))).status).toBe(201);
    const [a, b, c] = (await carDetail(car.id)).photos;
    const reordered = await t.app.inject({ method: 'PUT', url: `/api/cars/${car.id}/images/order`, headers: seller.auth, payload: { order: [2, 0, 1] } });
    expect(reordered.json().data.images).toEqual([c!.gallery.webp, a!.gallery.webp, b!.gallery.webp]);
    const listed = (await t.app.inject({ method: 'GET', url: `/api/cars?search=${encodeURIComponent(car.model)}` })).json().data.cars;
    expect(listed[0].primary_image).toBe(c!.card.webp);
    for (const order of [[0, 1], [0, 0, 1], [0, 1, 3], [-1, 0, 1]]) {
      expect((await t.app.inject({ method: 'PUT', url: `/api/cars/${car.id}/images/order`, headers: seller.auth, payload: { order } })).statusCode, JSON.stringify(order)).toBe(400);
    }

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/images/1`, headers: seller.auth });
    expect(removed.json().data.images).toEqual([c!.gallery.webp, b!.gallery.webp]);
    await waitUntil(async () => (await fetch(`${t.url}${a!.gallery.webp}`)).status === 404, 10_000, 'the removed photo files to go');
    expect((await fetch(`${t.url}${a!.card.jpeg}`)).status).toBe(404);
    expect((await fetch(`${t.url}${b!.card.jpeg}`)).status).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/images/5`, headers: seller.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/images/x`, headers: seller.auth })).statusCode).toBe(404);
    const stranger = await createUser(t);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/images/0`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await carDetail(car.id)).images).toHaveLength(2);
  });
});
