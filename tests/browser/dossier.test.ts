/**
 * The listing as a dossier (contract §The listing as a dossier, checked in escrow v4; issue 32)
 * in real browsers against the real server: a seller fills every part of the dossier on /sell
 * (VIN with its live check, known flaws reordered, modifications, included items, a service
 * record with its PDF invoice uploaded with progress) and the car page shows it in sections, the
 * invoice opening from it; a buyer in inspection marks a flaw not as described and disputes,
 * citing it; the operator weighs the checklist beside the frozen dossier and refunds. Each test
 * sets up what it needs. Expected texts come from the contract, the shared rules' sentences and
 * the server's answers, not from the client's formatting code.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { VIN_MESSAGES } from '@common/vin.ts';
import { dossierEntries } from '../../db/schema/index.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  DESKTOP,
  PHONE,
  Tabs,
  closeBrowserApp,
  expectNoHorizontalScroll,
  expectNoUnexpectedErrors,
  screenshotFromTop as shot,
  wcagProblems,
  startBrowserApp,
  type Viewport,
} from '../helpers/browser.ts';
import { createListing, orderApi, PATH_TO, waitForOrder } from '../helpers/escrow.ts';
import { createStaff } from '../helpers/staff.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Uploads, PDF checks and live updates on a loaded 2-core machine need more than `expect.poll`'s 1 s. */
const SETTLE = { timeout: 20_000 };
/** The console's address answers 404 to every browser (the app opens it for staff), which the browser logs. */
const CONSOLE_ADDRESS = /Failed to load resource: the server responded with a status of 404/;

/**
 * A 2023 Chevrolet Corvette's VIN: maker code 1G1 (Chevrolet), model-year character P (2023) and,
 * in position 9, the check digit 4 worked out by hand with the weights and values of 49 CFR 565.15.
 */
const CORVETTE_VIN = '1G1YC2D44P5500123';
/** The same VIN with a check digit one off. */
const CORVETTE_VIN_WRONG = '1G1YC2D45P5500123';
/** A Porsche's VIN (maker code WP0): outside North America, so no check digit applies. */
const PORSCHE_VIN = 'WP0AC2A94NS270123';

const CAR = {
  make: 'Chevrolet',
  model: 'Corvette Z06',
  year: 2023,
  price: 138_000,
  mileage: 4_150,
  location: 'Scottsdale, AZ',
  description: 'Carbon aero package, front lift, one owner, garaged.',
};
const TITLE = `${CAR.year} ${CAR.make} ${CAR.model}`;
const FLAWS = ['Stone chips on the front splitter', 'Light curb rash on the left rear wheel'];
const MODIFICATION = 'Ceramic coating and full-front paint protection film';
const INCLUDED = ['Both keys and the car cover', 'Original window sticker'];
const SERVICE = { date: '2024-05-10', mileage: 3_120, shop: 'Earnhardt Chevrolet', work: 'First oil change and fluid check', cost: 389 };
const INVOICE_TITLE = 'First service invoice';

let browser: Browser;
let t: TestApp;
let base: string;
let seller: SignedInUser;
let buyer: SignedInUser;
let pdfPath: string;
let pdfBytes: Buffer;

const tabs = new Tabs(() => browser, { timeout: 20_000 });
const openTab = (user: SignedInUser | null, viewport: Viewport = DESKTOP) => tabs.open(user, { viewport });

/**
 * A small, well-formed one-page PDF invoice: objects, a cross-reference table with each
 * object's byte offset, and a trailer, as the PDF 1.7 specification lays them out. No scripts,
 * actions or attachments, so the server's checks accept it.
 */
function invoicePdf(lines: string[]): Buffer {
  const text = lines.map((line, i) => `BT /F1 12 Tf 72 ${740 - i * 18} Td (${line.replace(/[()\\]/g, '')}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const field = (p: Page, label: string) => p.getByLabel(label, { exact: true });

async function fillListing(p: Page): Promise<void> {
  await field(p, 'Make').fill(CAR.make);
  await field(p, 'Model').fill(CAR.model);
  await field(p, 'Model year').fill(String(CAR.year));
  await field(p, 'Body style').selectOption({ label: 'Coupe' });
  await p.getByRole('radio', { name: 'Excellent' }).check();
  await field(p, 'Asking price').fill(String(CAR.price));
  await field(p, 'Mileage').fill(String(CAR.mileage));
  await field(p, 'Location').fill(CAR.location);
  await field(p, 'Description').fill(CAR.description);
}

/** Adds an entry to one of the dossier's plain lists (`knownFlaws`, ...) and types it. */
async function addEntry(p: Page, list: string, button: string, label: string, text: string): Promise<void> {
  await p.getByTestId(`dossier-${list}`).getByRole('button', { name: button }).click();
  const input = p.getByLabel(label, { exact: true });
  await expect.poll(() => input.evaluate((el) => el === document.activeElement), { ...SETTLE, message: 'the new entry has the cursor' }).toBe(true);
  await input.fill(text);
}

const entries = (p: Page, list: string) =>
  p
    .getByTestId(`dossier-${list}`)
    .getByTestId('dossier-item')
    .locator('textarea')
    .evaluateAll((areas) => areas.map((a) => (a as HTMLTextAreaElement).value));

/** A listing of `seller` with a dossier set through the API, as the seller's form would send it. */
async function listingWithDossier(owner: SignedInUser, make: string, model: string) {
  const car = await createListing(t, owner, { make, model });
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/cars/${car.id}/dossier`,
    headers: owner.auth,
    payload: {
      vin: PORSCHE_VIN,
      knownFlaws: [{ text: 'Stone chips on the front bumper' }, { text: 'Small scuff on the driver seat bolster' }],
      modifications: [{ text: 'Akrapovic titanium exhaust' }],
      itemsIncluded: [{ text: 'Both keys and the car cover' }],
      serviceRecords: [{ date: '2024-05-10', mileage: 8_120, shop: 'Porsche Austin', work: 'Annual service, brake fluid', cost: 1_450 }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return car;
}

/** An order for `car`, driven through the API to `inspection`. */
async function orderInInspection(car: { id: number; price: number }, owner: SignedInUser) {
  const api = orderApi(t);
  const placed = await api.place(buyer, car);
  expect(placed.statusCode, placed.body).toBe(201);
  let orderId: number = placed.json().data.id;
  for (const step of PATH_TO.inspection!) {
    const res = await api.act(step.by === 'buyer' ? buyer : owner, orderId, step.action, step.body ?? {});
    expect(res.statusCode, `${step.action}: ${res.body}`).toBe(200);
    orderId = res.json().data.id;
  }
  return orderId;
}

async function inspectionOf(orderId: number, user: SignedInUser) {
  const res = await t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/inspection`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    snapshotHash: string;
    items: { itemId: number; section: string; text: string; result: string | null; note: string | null }[];
    disputedItems: number[];
  };
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  seller = await createUser(t, { name: 'Dana Dossier' });
  buyer = await createUser(t, { name: 'Bo Buyer' });
  const dir = mkdtempSync(join(tmpdir(), 'lm-dossier-'));
  pdfPath = join(dir, 'corvette-first-service.pdf');
  pdfBytes = invoicePdf(['Earnhardt Chevrolet', 'Invoice 55120', '2024-05-10  3,120 mi', 'First oil change and fluid check', 'Total USD 389.00']);
  writeFileSync(pdfPath, pdfBytes);
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('the listing as a dossier', () => {
  it('a seller fills every section of the dossier and uploads a PDF invoice that opens from the car page', async () => {
    const s = await openTab(seller);
    const { page } = s;
    const dossierBodies: unknown[] = [];
    const documentUploads: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'PUT' && /^\/api\/cars\/\d+\/dossier$/.test(path)) dossierBodies.push(request.postDataJSON());
      if (request.method() === 'POST' && /^\/api\/cars\/\d+\/documents$/.test(path)) documentUploads.push(path);
    });

    await page.goto(`${base}/sell`);
    await page.getByRole('heading', { level: 1, name: 'List your car with LuxeMotors' }).waitFor();
    await fillListing(page);

    // The VIN: a wrong check digit gets the shared rule's sentence as soon as it is complete; the right one is verified.
    const vin = field(page, 'VIN (optional)');
    await vin.fill(CORVETTE_VIN_WRONG.toLowerCase());
    expect(await vin.inputValue(), 'typed in capitals').toBe(CORVETTE_VIN_WRONG);
    await page.getByTestId('error-vin').waitFor();
    expect(await page.getByTestId('error-vin').innerText()).toBe(VIN_MESSAGES.checkDigit);
    expect(await vin.getAttribute('aria-invalid')).toBe('true');
    await vin.fill(CORVETTE_VIN);
    await page.getByTestId('vin-check').waitFor();
    expect(await page.getByTestId('vin-check').innerText()).toBe('Check digit verified');
    expect(await page.getByTestId('error-vin').count()).toBe(0);

    // Known flaws: two entries, the second moved up; an empty one removed again.
    await addEntry(page, 'knownFlaws', 'Add known flaw', 'Known flaw 1', FLAWS[1]!);
    await addEntry(page, 'knownFlaws', 'Add known flaw', 'Known flaw 2', FLAWS[0]!);
    await page.getByRole('button', { name: 'Move known flaw 2 up' }).click();
    await expect.poll(() => entries(page, 'knownFlaws'), SETTLE).toEqual(FLAWS);
    await page.getByTestId('dossier-knownFlaws').getByRole('button', { name: 'Add known flaw' }).click();
    await page.getByRole('button', { name: 'Remove known flaw 3' }).click();
    await expect.poll(() => entries(page, 'knownFlaws'), SETTLE).toEqual(FLAWS);

    await addEntry(page, 'modifications', 'Add modification', 'Modification 1', MODIFICATION);
    await addEntry(page, 'itemsIncluded', 'Add included item', 'Included item 1', INCLUDED[0]!);
    await addEntry(page, 'itemsIncluded', 'Add included item', 'Included item 2', INCLUDED[1]!);

    // The invoice: picked from disk with a kind and a title; it goes up when the listing is published.
    await page.getByLabel('Choose Documents').setInputFiles(pdfPath);
    const pending = page.getByTestId('pending-document');
    await pending.waitFor();
    expect(await pending.getByLabel('Kind').inputValue(), 'guessed from the file name').toBe('service');
    await pending.getByLabel('Title').fill(INVOICE_TITLE);
    expect(await pending.getByTestId('document-status').innerText()).toBe('Uploaded when you publish');
    expect(documentUploads, 'nothing is sent before publishing').toEqual([]);

    // A service record, its invoice chosen among the documents; a wrong mileage is refused with the schema's sentence.
    await page.getByTestId('dossier-serviceRecords').getByRole('button', { name: 'Add service record' }).click();
    const record = page.getByTestId('service-record-form');
    await record.getByLabel('Date').fill(SERVICE.date);
    await record.getByLabel('Mileage').fill('about 3000');
    await record.getByLabel('Mileage').press('Tab');
    expect(await record.locator('.field__hint--error').innerText()).toBe('Enter the mileage in whole miles, for example 12400');
    await record.getByLabel('Mileage').fill(SERVICE.mileage.toLocaleString('en-US'));
    await record.getByLabel('Shop').fill(SERVICE.shop);
    await record.getByLabel('Cost').fill(String(SERVICE.cost));
    await record.getByLabel('Work done').fill(SERVICE.work);
    await record.getByLabel('Invoice').selectOption({ label: INVOICE_TITLE });
    await expect.poll(() => page.locator('.field__hint--error').count(), SETTLE).toBe(0);
    await shot(page, 'dossier-sell-form-desktop');
    expect(await wcagProblems(page), 'the form with its dossier').toEqual([]);
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page, 'the dossier form fits a phone');
    await shot(page, 'dossier-sell-form-phone');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Preview Listing' }).click();
    await page.getByRole('heading', { name: 'Preview listing' }).waitFor();
    await page.getByRole('button', { name: 'Publish Listing' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toMatch(/^\/car\/\d+$/);
    const carId = Number(new URL(page.url()).pathname.split('/').pop());

    // What went to the server: the invoice with its kind and title, then the dossier pointing at it.
    expect(documentUploads, 'one upload, once').toHaveLength(1);
    const stored = (await t.app.inject({ method: 'GET', url: `/api/cars/${carId}`, headers: seller.auth })).json().data;
    const invoice = stored.dossier.documents[0];
    expect(invoice).toMatchObject({ kind: 'service', title: INVOICE_TITLE, bytes: pdfBytes.length, contentType: 'application/pdf' });
    expect(dossierBodies).toEqual([
      {
        vin: CORVETTE_VIN,
        chassisNumber: null,
        knownFlaws: FLAWS.map((text) => ({ text })),
        modifications: [{ text: MODIFICATION }],
        itemsIncluded: INCLUDED.map((text) => ({ text })),
        serviceRecords: [{ ...SERVICE, documentId: invoice.id }],
      },
    ]);
    expect(stored.dossier).toMatchObject({ vin: CORVETTE_VIN, vinCheck: 'valid', chassisNumber: null });

    // The car page: the dossier in its sections, the VIN with its check.
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const dossier = page.getByTestId('car-dossier');
    await dossier.waitFor();
    expect(await dossier.getByTestId('dossier-vin').innerText()).toContain(CORVETTE_VIN);
    expect(await dossier.getByTestId('dossier-vin-check').innerText()).toBe('Check digit verified');
    expect(await dossier.getByTestId('dossier-known-flaws').getByRole('listitem').allInnerTexts()).toEqual(FLAWS);
    expect(await dossier.getByTestId('dossier-modifications').getByRole('listitem').allInnerTexts()).toEqual([MODIFICATION]);
    expect(await dossier.getByTestId('dossier-included').getByRole('listitem').allInnerTexts()).toEqual(INCLUDED);
    const history = await dossier.getByTestId('service-record').innerText();
    for (const expected of [SERVICE.shop, SERVICE.work, '3,120 mi', '$389', 'May 10, 2024']) expect(history, expected).toContain(expected);
    const documentRow = dossier.getByTestId('dossier-document');
    const documentText = await documentRow.innerText();
    expect(documentText).toContain(INVOICE_TITLE);
    expect(documentText).toContain('Service invoice');
    expect(documentText).toContain('PDF');
    expect(documentText).toMatch(/\d+ KB/);
    await shot(page, 'dossier-car-page-desktop');
    expect(await wcagProblems(page), 'the car page with its dossier').toEqual([]);
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page, 'the car page with a dossier fits a phone');
    await shot(page, 'dossier-car-page-phone');
    await page.setViewportSize(DESKTOP);

    // The server-drawn page holds the dossier too (for people and crawlers before any script runs).
    const html = await (await fetch(`${base}/car/${carId}`)).text();
    for (const expected of [CORVETTE_VIN, FLAWS[0]!, SERVICE.shop, INVOICE_TITLE]) expect(html, expected).toContain(expected);

    // The invoice opens from the car page in a tab of its own: the same bytes, as a PDF that cannot run in the app's origin.
    const link = documentRow.getByRole('link', { name: INVOICE_TITLE });
    expect(await link.getAttribute('target')).toBe('_blank');
    const href = (await link.getAttribute('href'))!;
    const opened = s.context.waitForEvent('response', (response) => new URL(response.url()).pathname === new URL(href, base).pathname);
    const [popup] = await Promise.all([s.context.waitForEvent('page'), link.click()]);
    const answer = await opened;
    expect(answer.status()).toBe(200);
    const headers = await answer.allHeaders();
    expect(headers['content-type']).toMatch(/^application\/pdf/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toMatch(/sandbox/);
    await popup.close();
    const served = await fetch(new URL(href, base));
    expect(Buffer.from(await served.arrayBuffer()).equals(readFileSync(pdfPath)), 'the very file uploaded').toBe(true);
    // The service record's own invoice link leads to the same document.
    expect(await dossier.getByTestId('service-record').getByRole('link', { name: /^Invoice/ }).getAttribute('href')).toBe(href);

    // The edit screen holds the same dossier: a flaw reworded and a second invoice uploaded there at once, with progress.
    await page.goto(`${base}/sell/${carId}/edit`);
    const edit = page.getByTestId('edit-dossier');
    await edit.waitFor();
    expect(await entries(page, 'knownFlaws')).toEqual(FLAWS);
    expect(await field(page, 'VIN (optional)').inputValue()).toBe(CORVETTE_VIN);
    expect(await page.getByTestId('edit-documents').getByTestId('server-document').innerText()).toContain(INVOICE_TITLE);
    await page.getByTestId('edit-documents').getByLabel('Choose Documents').setInputFiles({ name: 'window-sticker.pdf', mimeType: 'application/pdf', buffer: invoicePdf(['Monroney label']) });
    const second = page.getByTestId('edit-documents').getByTestId('pending-document');
    await second.getByLabel('Kind').selectOption({ label: 'Other' });
    await second.getByRole('button', { name: /^Upload/ }).click();
    await expect.poll(() => page.getByTestId('edit-documents').getByTestId('server-document').count(), SETTLE).toBe(2);
    const reworded = 'Stone chips on the front splitter, touched up';
    await field(page, 'Known flaw 1').fill(reworded);
    await edit.getByRole('button', { name: 'Save Dossier' }).click();
    await expect.poll(() => page.getByTestId('dossier-save-status').innerText(), SETTLE).toBe('Dossier saved.');
    const edited = (await t.app.inject({ method: 'GET', url: `/api/cars/${carId}`, headers: seller.auth })).json().data.dossier;
    expect(edited.knownFlaws.map((f: { text: string }) => f.text)).toEqual([reworded, FLAWS[1]]);
    expect(edited.knownFlaws[0].id, 'an edited entry keeps its id').toBe(stored.dossier.knownFlaws[0].id);
    expect(edited.documents.map((d: { kind: string }) => d.kind)).toEqual(['service', 'other']);
    await shot(page, 'dossier-edit-listing-desktop');
    expect(await wcagProblems(page), 'the edit screen with its dossier').toEqual([]);

    expectNoUnexpectedErrors(s);
  }, 180_000);

  it('a buyer in inspection marks one flaw not as described and disputes, citing it', async () => {
    const owner = await createUser(t, { name: 'Pia Porsche' });
    const car = await listingWithDossier(owner, 'Porsche', '911 GT3 Touring');
    const orderId = await orderInInspection(car, owner);
    const frozen = await inspectionOf(orderId, buyer);
    const chips = frozen.items.find((item) => item.text === 'Stone chips on the front bumper')!;
    expect(chips.section).toBe('knownFlaws');

    const b = await openTab(buyer);
    const { page } = b;
    await page.goto(`${base}/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order #${orderId}` }).waitFor();
    const checklist = page.getByTestId('inspection-checklist');
    await checklist.waitFor();
    const items = checklist.getByTestId('inspection-item');
    await expect.poll(() => items.count(), SETTLE).toBe(frozen.items.length);
    expect(await checklist.getByTestId('inspection-count').innerText()).toBe(`0 of ${frozen.items.length} checked`);
    for (const section of ['Known flaws', 'Modifications', 'Included', 'Service history']) {
      expect(await checklist.getByRole('region', { name: section }).count(), section).toBe(1);
    }
    expect(await checklist.getByRole('region', { name: 'Service history' }).innerText()).toContain('Porsche Austin');

    // The chips are a cracked bumper: not as described, with a note; everything else as described.
    const chipsItem = items.filter({ hasText: chips.text });
    await chipsItem.getByRole('radio', { name: 'Not as described' }).check();
    const note = 'The bumper is cracked behind the chips, not only chipped.';
    await chipsItem.getByLabel(/^Note/).fill(note);
    for (const item of frozen.items) {
      if (item.itemId === chips.itemId) continue;
      await items.filter({ hasText: item.text }).getByRole('radio', { name: 'As described', exact: true }).check();
    }
    expect(await checklist.getByTestId('inspection-count').innerText()).toBe(`${frozen.items.length} of ${frozen.items.length} checked`);
    await checklist.getByRole('button', { name: 'Save Checklist' }).click();
    await expect.poll(() => checklist.getByTestId('inspection-status').innerText(), SETTLE).toBe('Checklist saved.');
    const saved = await inspectionOf(orderId, buyer);
    expect(saved.items.find((i) => i.itemId === chips.itemId)).toMatchObject({ result: 'not_as_described', note });
    expect(saved.items.filter((i) => i.result === 'as_described')).toHaveLength(frozen.items.length - 1);
    expect(saved.snapshotHash, 'marking never changes the frozen dossier').toBe(frozen.snapshotHash);
    await shot(page, 'dossier-inspection-checklist-desktop');
    expect(await wcagProblems(page), 'the checklist').toEqual([]);

    // The dispute cites the item found not as described.
    const disputes: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/orders/${orderId}/dispute`)) disputes.push(request.postDataJSON());
    });
    await page.getByRole('button', { name: 'Open a Dispute' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a Dispute' });
    await dialog.waitFor();
    const cited = dialog.getByTestId('dispute-cited');
    expect(await cited.innerText()).toContain(chips.text);
    expect(await cited.innerText()).toContain(note);
    const reason = 'The front bumper is cracked, which the listing did not say.';
    await dialog.getByLabel('What is wrong with the car?').fill(reason);
    await page.setViewportSize(PHONE);
    await shot(page, 'dossier-dispute-dialog-phone');
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Open Dispute' }).click();
    await expect.poll(() => page.getByTestId('order-status').innerText(), SETTLE).toBe('Disputed');
    expect(disputes).toEqual([{ reason, items: [chips.itemId] }]);
    const after = await inspectionOf(orderId, buyer);
    expect(after.disputedItems).toEqual([chips.itemId]);

    // The checklist now reads as it stands, the cited item marked so; no more marking.
    await expect.poll(() => chipsItem.innerText(), SETTLE).toContain('Cited in the dispute');
    expect(await chipsItem.getByTestId('inspection-result').innerText()).toContain('Not as described');
    expect(await checklist.getByRole('radio').count()).toBe(0);
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page, 'the disputed order fits a phone');
    await shot(page, 'dossier-order-disputed-phone');

    expectNoUnexpectedErrors(b);
  }, 120_000);

  it('the operator sees the checklist beside the frozen dossier and refunds the buyer', async () => {
    const owner = await createUser(t, { name: 'Otto Owner' });
    const car = await listingWithDossier(owner, 'Porsche', '911 Turbo S');
    const orderId = await orderInInspection(car, owner);
    const frozen = await inspectionOf(orderId, buyer);
    const scuff = frozen.items.find((item) => item.text === 'Small scuff on the driver seat bolster')!;
    const note = 'The bolster is torn through, not scuffed.';
    const marked = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/inspection`,
      headers: buyer.auth,
      payload: { items: frozen.items.map((item) => (item.itemId === scuff.itemId ? { itemId: item.itemId, result: 'not_as_described', note } : { itemId: item.itemId, result: 'as_described' })) },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    const disputed = await orderApi(t).act(buyer, orderId, 'dispute', { reason: 'The seat is torn.' });
    expect(disputed.statusCode, disputed.body).toBe(200);

    // Behind the application's back the seller's entry is reworded: the frozen dossier stays, and the view says what changed.
    const reworded = 'Driver seat bolster refinished';
    await t.database.db.update(dossierEntries).set({ text: reworded }).where(eq(dossierEntries.id, scuff.itemId));

    const operator = await createStaff(t, 'operator', { name: 'Opal Operator' });
    const tab = await openTab(operator);
    const { page } = tab;
    await page.goto(`${base}/admin/disputes`);
    const card = page.locator(`[data-testid="dispute"][data-order-id="${orderId}"]`);
    await card.waitFor();

    // The checklist: every frozen item with the buyer's finding, the cited one marked; the frozen dossier beside it.
    const rows = card.getByTestId('dispute-checklist-item');
    await expect.poll(() => rows.count(), SETTLE).toBe(frozen.items.length);
    const scuffRow = rows.filter({ hasText: scuff.text });
    expect(await scuffRow.getAttribute('data-result')).toBe('not_as_described');
    expect(await scuffRow.innerText()).toContain(note);
    expect(await scuffRow.innerText()).toContain('cited in the dispute');
    expect(await rows.filter({ hasText: 'Porsche Austin' }).getAttribute('data-result')).toBe('as_described');
    const frozenPanel = card.getByTestId('dispute-frozen');
    expect(await frozenPanel.innerText()).toContain(PORSCHE_VIN);
    expect(await frozenPanel.innerText()).toContain(frozen.snapshotHash.slice(0, 16));
    expect(await card.getByTestId('dispute-hash').innerText()).toBe('matches the frozen copy');
    const changes = await card.getByTestId('dispute-changes').innerText();
    expect(changes).toContain('Changed · Known flaws');
    expect(changes).toContain(`Was: ${scuff.text}`);
    expect(changes).toContain(`Now: ${reworded}`);
    await shot(page, 'dossier-console-dispute-desktop');
    expect(await wcagProblems(page), 'the dispute view').toEqual([]);
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page, 'the dispute view fits a phone');
    await shot(page, 'dossier-console-dispute-phone');
    await page.setViewportSize(DESKTOP);

    // Refund, with a reason: the order leaves the list and the buyer is refunded.
    await card.getByRole('button', { name: 'Refund Buyer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund the buyer?' });
    await dialog.waitFor();
    const reason = 'The checklist shows the seat torn, not scuffed as declared.';
    await dialog.getByLabel('Reason').fill(reason);
    await dialog.getByRole('button', { name: 'Refund Buyer' }).click();
    await expect.poll(() => card.count(), { ...SETTLE, message: 'the order leaves the list' }).toBe(0);
    const refunded = await waitForOrder(t, buyer, orderId, (o) => o.status === 'refunded');
    expect(refunded.events.at(-1)).toMatchObject({ to: 'refunded', actor: 'operator', note: reason });

    expectNoUnexpectedErrors(tab, CONSOLE_ADDRESS);
  }, 120_000);
});
