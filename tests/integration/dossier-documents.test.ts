import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carDocuments } from '../../db/schema/index.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { DossierDocument } from '@common/schemas/dossier.ts';
import { DOSSIER_LIMITS } from '@common/dossier.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { dossierApi, uploadDocument } from '../helpers/dossier.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { exifHasGps, syntheticPhoto } from '../helpers/photos.ts';
import {
  brokenPdf,
  encryptedPdf,
  executable,
  htmlPage,
  invoicePdf,
  pdfWithEmbeddedFile,
  pdfWithJavaScript,
  pdfWithLaunchAction,
  pdfWithOpenAction,
  truncatedPdf,
} from '../helpers/pdfs.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let api: ReturnType<typeof dossierApi>;

beforeAll(async () => {
  t = await startTestApp();
  await t.listen();
  api = dossierApi(t);
});
afterAll(async () => {
  await t?.close();
});

async function sellerWithCar() {
  const seller = await createUser(t);
  const car = await createListing(t, seller);
  return { seller, car };
}

async function upload(user: SignedInUser | undefined, carId: number, body: Buffer, options: Parameters<typeof uploadDocument>[4] = {}) {
  const res = await uploadDocument(t, user, carId, body, options);
  return { status: res.status, body: (await res.json()) as { data?: DossierDocument; code?: string; details?: { field: string }[] } };
}

const documentsOf = async (carId: number) => t.database.db.select().from(carDocuments).where(eq(carDocuments.carId, carId));

describe('uploading a document', () => {
  it('stores a PDF invoice, lists it in the dossier, and links it from a service record', async () => {
    const { seller, car } = await sellerWithCar();
    const pdf = await invoicePdf();
    const res = await upload(seller, car.id, pdf, { title: 'Annual service 2024' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const document = res.body.data!;
    expect(document).toMatchObject({ kind: 'service', title: 'Annual service 2024', contentType: 'application/pdf', bytes: pdf.length, url: `/api/cars/${car.id}/documents/${document.id}` });

    const linked = await api.put(seller, car.id, { serviceRecords: [{ date: '2024-05-10', mileage: 6_120, shop: 'Porsche Austin', work: 'Annual service', documentId: document.id }] });
    expect(linked.statusCode, linked.body).toBe(200);
    const dossier = (linked.json().data as CarDetail).dossier;
    expect(dossier.documents).toEqual([document]);
    expect(dossier.serviceRecords[0]!.documentId).toBe(document.id);

    const served = await fetch(`${t.url}${document.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('serves a document with its own type, nosniff, a safe file name and a sandbox policy', async () => {
    const { seller, car } = await sellerWithCar();
    const res = await upload(seller, car.id, await invoicePdf(), { filename: '../../x.pdf' });
    expect(res.status).toBe(201);
    const [row] = await documentsOf(car.id);
    expect(row!.fileName).toBe('x.pdf');
    expect(row!.storageKey).not.toContain('..');

    const served = await fetch(`${t.url}${res.body.data!.url}`);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toBe('inline; filename="x.pdf"');
    expect(served.headers.get('content-security-policy')).toBe('sandbox');

    const odd = await upload(seller, car.id, await invoicePdf(), { filename: 'inv"oice; name=evil\r\n.pdf' });
    expect(odd.status).toBe(201);
    const oddServed = await fetch(`${t.url}${odd.body.data!.url}`);
    expect(oddServed.headers.get('content-disposition')).toMatch(/^inline; filename="[A-Za-z0-9._-]+\.pdf"$/);
  });

  it('re-encodes images without their metadata, in their own type whatever they are called', async () => {
    const { seller, car } = await sellerWithCar();
    const photo = await syntheticPhoto({ width: 800, height: 600, gps: true });
    expect(exifHasGps((await sharp(photo).metadata()).exif)).toBe(true);
    const res = await upload(seller, car.id, photo, { filename: 'title-scan.pdf', type: 'application/pdf', kind: 'title', title: 'Title' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data!.contentType).toBe('image/jpeg');
    const served = await fetch(`${t.url}${res.body.data!.url}`);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('content-disposition')).toBe('inline; filename="title-scan.jpg"');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(800);

    const png = await upload(seller, car.id, await syntheticPhoto({ width: 300, height: 200, format: 'png' }), { filename: 'report.png', kind: 'inspection', title: 'Report' });
    expect(png.body.data!.contentType).toBe('image/png');
  });
});

describe('refusing documents', () => {
  it('answers 415 for an executable renamed .pdf and for an HTML page', async () => {
    const { seller, car } = await sellerWithCar();
    for (const [name, body] of [['setup.pdf', executable()], ['page.pdf', htmlPage()], ['empty.pdf', Buffer.alloc(0)]] as const) {
      const res = await upload(seller, car.id, body, { filename: name });
      expect(res.status, name).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await documentsOf(car.id)).toEqual([]);
  });

  it('answers 400 for a PDF with JavaScript, an OpenAction, a launch action or an embedded file, an encrypted, truncated or broken one', async () => {
    const { seller, car } = await sellerWithCar();
    const cases: [string, Buffer][] = [
      ['JavaScript', await pdfWithJavaScript()],
      ['OpenAction', await pdfWithOpenAction()],
      ['launch action', await pdfWithLaunchAction()],
      ['embedded file', await pdfWithEmbeddedFile()],
      ['encrypted', await encryptedPdf()],
      ['truncated', await truncatedPdf()],
      ['broken', brokenPdf()],
    ];
    for (const [why, body] of cases) {
      const res = await upload(seller, car.id, body);
      expect(res.status, why).toBe(400);
      expect(res.body.code, why).toBe('INVALID_DOCUMENT');
      expect(res.body.details?.[0]?.field).toBe('file');
    }
    expect(await documentsOf(car.id)).toEqual([]);
  });

  it('answers 413 for 21 MB', async () => {
    const { seller, car } = await sellerWithCar();
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(21 * 1024 * 1024, 0x20)]);
    const res = await upload(seller, car.id, big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 409 TOO_MANY_DOCUMENTS for a 31st document', async () => {
    const { seller, car } = await sellerWithCar();
    await t.database.db.insert(carDocuments).values(
      Array.from({ length: DOSSIER_LIMITS.maxDocuments }, (_, i) => ({ carId: car.id, kind: 'other' as const, title: `Doc ${i}`, fileName: `doc${i}.pdf`, contentType: 'application/pdf' as const, bytes: 10, storageKey: `test/${car.id}/${i}` })),
    );
    const res = await upload(seller, car.id, await invoicePdf());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('TOO_MANY_DOCUMENTS');
    expect(await documentsOf(car.id)).toHaveLength(DOSSIER_LIMITS.maxDocuments);
  });

  it('refuses a missing kind or title, and files in other fields', async () => {
    const { seller, car } = await sellerWithCar();
    expect((await upload(seller, car.id, await invoicePdf(), { kind: 'receipt' })).status).toBe(400);
    expect((await upload(seller, car.id, await invoicePdf(), { title: '' })).status).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: `/api/cars/${car.id}/documents`, headers: seller.auth, payload: { kind: 'service' } });
    expect(json.statusCode).toBe(415);
  });
});

describe('who may add, remove and read documents', () => {
  it('answers 404 to anyone but the seller, and 409 LISTING_LOCKED once an order is funded', async () => {
    const { car } = await sellerWithCar();
    const stranger = await createUser(t);
    expect((await upload(stranger, car.id, await invoicePdf())).status).toBe(404);
    expect((await upload(undefined, car.id, await invoicePdf())).status).toBe(401);

    const [buyer, seller] = [await createUser(t), await createUser(t)];
    const order = await orderIn(t, 'funded', buyer, seller);
    const locked = await upload(seller, order.carId, await invoicePdf());
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('LISTING_LOCKED');
  });

  it('removes a document for the seller only; it is then gone', async () => {
    const { seller, car } = await sellerWithCar();
    const document = (await upload(seller, car.id, await invoicePdf())).body.data!;
    const stranger = await createUser(t);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/documents/${document.id}`, headers: stranger.auth })).statusCode).toBe(404);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/documents/${document.id}`, headers: seller.auth });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await fetch(`${t.url}${document.url}`)).status).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}/documents/${document.id}`, headers: seller.auth })).statusCode).toBe(404);
  });

  it("keeps a draft's documents to its seller, and a document to its own car", async () => {
    const { seller, car } = await sellerWithCar();
    const document = (await upload(seller, car.id, await invoicePdf())).body.data!;
    const other = await sellerWithCar();
    expect((await fetch(`${t.url}/api/cars/${other.car.id}/documents/${document.id}`)).status).toBe(404);
    await t.database.db.execute(sql`update cars set status = 'withdrawn' where id = ${car.id}`);
    expect((await fetch(`${t.url}${document.url}`)).status).toBe(200);

    const draft = await sellerWithCar();
    const draftDocument = (await upload(draft.seller, draft.car.id, await invoicePdf())).body.data!;
    await t.database.db.execute(sql`alter table cars disable trigger user`);
    await t.database.db.execute(sql`update cars set status = 'draft' where id = ${draft.car.id}`);
    await t.database.db.execute(sql`alter table cars enable trigger user`);
    expect((await fetch(`${t.url}${draftDocument.url}`)).status).toBe(404);
    const own = await fetch(`${t.url}${draftDocument.url}`, { headers: draft.seller.auth });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
  });
});
