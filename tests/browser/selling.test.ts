/**
 * Selling (contract §Selling v2, issue 11) in real browsers against the real server: a seller
 * lists a car from /sell with photos generated on disk (live validation, reordering, preview,
 * per-photo progress), lands on its car page with the photos in the chosen order and a market
 * value from comparable cars, finds it in the listing; answers a buyer's question with a Seller
 * badge and accepts the buyer's bid from My Listings, which becomes an escrow order in the
 * buyer's bell. A photo the server refuses shows its sentence with Retry and Remove; a draft left
 * half-way is finished from its edit page. Expected texts come from the contract's limits and
 * the server's answers, not from the client's formatting code.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { users } from '../../db/schema/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, expectNoHorizontalScroll, expectNoUnexpectedErrors, startBrowserApp, screenshotFromTop as shot, screenshotPath, wcagProblems, usd, type Viewport } from '../helpers/browser.ts';
import { createListing } from '../helpers/escrow.ts';
import { listCar } from '../helpers/cars.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Uploads go through sharp and live updates through sockets on a loaded 2-core machine. */
const SETTLE = { timeout: 20_000 };
/** The refused photo is a 415 on purpose; browsers log it as a console error. */
const EXPECTED_REFUSAL = /Failed to load resource: the server responded with a status of 415/;

const NEXT_YEAR = new Date().getUTCFullYear() + 1;

const CAR = {
  make: 'Porsche',
  model: '911 Carrera S',
  year: 2021,
  price: 129_500,
  mileage: 8_200,
  location: 'Austin, TX',
  description: 'One owner, full Porsche service history, paint protection film since new.',
  features: ['Sport Chrono package', 'Carbon ceramic brakes'],
};
const TITLE = `${CAR.year} ${CAR.make} ${CAR.model}`;

let browser: Browser;
let t: TestApp;
let base: string;
let seller: SignedInUser;
let photoDir: string;
const photo = { red: '', blue: '', green: '', text: '' };

const tabs = new Tabs(() => browser, { timeout: 20_000 });
/** A tab signed in as `user` (session put in localStorage before the app starts), or a visitor's. */
const openTab = (user: SignedInUser | null, viewport: Viewport = DESKTOP, options: { verified?: boolean } = {}) => tabs.open(user, { viewport, ...options });

// ── The /sell form ──────────────────────────────────────────────────────────────────────────

const field = (p: Page, label: string) => p.getByLabel(label, { exact: true });
const errorOf = (p: Page, name: string) => p.getByTestId(`error-${name}`);

/** The message tied to an input through aria-describedby, or null. */
async function describedError(p: Page, label: string): Promise<string | null> {
  return field(p, label).evaluate((input) => {
    const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    const error = ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field__hint--error'));
    return error?.textContent ?? null;
  });
}

async function fillListing(p: Page, car: typeof CAR = CAR): Promise<void> {
  await field(p, 'Make').fill(car.make);
  await field(p, 'Model').fill(car.model);
  await field(p, 'Model year').fill(String(car.year));
  await field(p, 'Body style').selectOption({ label: 'Coupe' });
  await p.getByRole('radio', { name: 'Excellent' }).check();
  await field(p, 'Asking price').fill(String(car.price));
  await field(p, 'Mileage').fill(car.mileage.toLocaleString('en-US'));
  await field(p, 'Location').fill(car.location);
  await field(p, 'Description').fill(car.description);
  for (const feature of car.features) {
    await p.getByRole('textbox', { name: /^Features/ }).fill(feature);
    await p.getByRole('textbox', { name: /^Features/ }).press('Enter');
  }
}

const fileInput = (p: Page) => p.getByLabel('Choose Photos');
const tileNames = (p: Page) => p.getByTestId('photo-tile').locator('.photo-tile__name').allInnerTexts();

async function serverCar(id: number) {
  const res = await t.app.inject({ method: 'GET', url: `/api/cars/${id}`, headers: seller.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** Mean colour of a served image, to tell which of the generated photos it is. */
async function dominantChannel(url: string): Promise<'red' | 'green' | 'blue'> {
  const res = await fetch(`${base}${url}`);
  expect(res.status, url).toBe(200);
  const stats = await sharp(Buffer.from(await res.arrayBuffer())).stats();
  const [r, g, b] = stats.channels.map((c) => c.mean);
  return r! > g! && r! > b! ? 'red' : g! > b! ? 'green' : 'blue';
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  seller = await createUser(t, { name: 'Sofia Seller' });
  // Three comparable cars (same make and model, model year within two): the new listing gets an estimate.
  const dealer = await createUser(t, { name: 'Dana Dealer' });
  for (const price of [124_000, 131_000, 127_500]) await createListing(t, dealer, { make: CAR.make, model: CAR.model, price });

  // Photos as a seller has them on disk: large JPEG and PNG, and a text file named .jpg.
  photoDir = mkdtempSync(join(tmpdir(), 'lm-photos-'));
  const solid = (rgb: { r: number; g: number; b: number }) => sharp({ create: { width: 2000, height: 1500, channels: 3, background: rgb } });
  photo.red = join(photoDir, 'red-front.jpg');
  photo.blue = join(photoDir, 'blue-side.png');
  photo.green = join(photoDir, 'green-rear.jpg');
  photo.text = join(photoDir, 'notes.jpg');
  await solid({ r: 200, g: 30, b: 30 }).jpeg({ quality: 90 }).toFile(photo.red);
  await solid({ r: 30, g: 40, b: 210 }).png().toFile(photo.blue);
  await solid({ r: 30, g: 190, b: 40 }).jpeg({ quality: 90 }).toFile(photo.green);
  writeFileSync(photo.text, 'Service history: see the folder in the glovebox.\n');
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('selling', () => {
  it('a seller lists a car with photos from disk: live checks, reorder, preview, progress, then its page and the listing', async () => {
    const s = await openTab(seller);
    const { page } = s;
    const created: unknown[] = [];
    const uploads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname === '/api/cars') created.push(request.postDataJSON());
      if (request.method() === 'POST' && /^\/api\/cars\/\d+\/images$/.test(url.pathname)) uploads.push(request.postDataBuffer()?.toString('latin1') ?? '');
    });

    // "Sell your car" in the navigation leads to /sell; the bar still fits a tablet.
    await page.goto(`${base}/`);
    await page.setViewportSize({ width: 800, height: 900 });
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell your car' }).isVisible()).toBe(true);
    await expectNoHorizontalScroll(page);
    const logout = await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).boundingBox();
    expect(logout!.x + logout!.width, 'the whole bar is on screen').toBeLessThanOrEqual(800);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell your car' }).click();
    await page.getByRole('heading', { level: 1, name: 'List your car with LuxeMotors' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sell');
    expect(await page.title()).toContain('Sell Your Car');

    // Live validation: a message appears once a field is left wrong, is tied to it, and goes as it is fixed.
    await field(page, 'Make').fill(CAR.make);
    await field(page, 'Model').fill(CAR.model);
    await field(page, 'Model year').fill('1899');
    await field(page, 'Model year').press('Tab');
    expect(await errorOf(page, 'year').innerText()).toBe(`Enter a model year from 1900 to ${NEXT_YEAR}`);
    expect(await describedError(page, 'Model year')).toBe(`Enter a model year from 1900 to ${NEXT_YEAR}`);
    expect(await field(page, 'Model year').getAttribute('aria-invalid')).toBe('true');
    await field(page, 'Model year').fill(String(CAR.year));
    await expect.poll(() => errorOf(page, 'year').count(), SETTLE).toBe(0);
    expect(await field(page, 'Model year').getAttribute('aria-invalid')).toBeNull();

    await field(page, 'Asking price').fill('0');
    await field(page, 'Asking price').press('Tab');
    expect(await errorOf(page, 'price').innerText()).toBe('The price must be at least $1');
    await field(page, 'Asking price').fill('1000001');
    expect(await errorOf(page, 'price').innerText()).toBe('The price must be at most $1,000,000');
    await field(page, 'Asking price').fill(String(CAR.price));
    await expect.poll(() => errorOf(page, 'price').count(), SETTLE).toBe(0);

    // Whitespace only counts as empty.
    await field(page, 'Location').fill('    ');
    await field(page, 'Location').press('Tab');
    expect(await errorOf(page, 'location').innerText()).toBe('Enter where the car is, for example Austin, TX');

    // Previewing with fields missing names each and focuses the first.
    await page.getByRole('button', { name: 'Preview Listing' }).click();
    expect(await errorOf(page, 'bodyStyle').innerText()).toBe('Choose a body style');
    expect(await errorOf(page, 'condition').innerText()).toBe('Choose the condition');
    expect(await errorOf(page, 'description').innerText()).toBe('Describe the car');
    expect(await field(page, 'Body style').evaluate((el) => el === document.activeElement)).toBe(true);

    await fillListing(page);
    await expect.poll(() => page.locator('.field__hint--error').count(), SETTLE).toBe(0);
    expect(await page.getByRole('list', { name: 'Features added' }).innerText()).toContain(CAR.features[1]);

    // Two photos through the file input; previews are local, the first is the cover.
    await fileInput(page).setInputFiles([photo.red, photo.blue]);
    await expect.poll(() => tileNames(page), SETTLE).toEqual(['1. red-front.jpg', '2. blue-side.png']);
    expect(await page.getByTestId('photo-tile').first().getByText('Cover photo').count()).toBe(1);
    expect(await page.getByTestId('photo-tile').first().locator('img').getAttribute('src')).toMatch(/^blob:/);
    expect(uploads, 'nothing is sent before publishing').toEqual([]);

    // Reorder with the keyboard-usable buttons: the blue photo becomes the cover, focus follows it.
    await page.getByRole('button', { name: 'Move photo 2 earlier' }).click();
    await expect.poll(() => tileNames(page), SETTLE).toEqual(['1. blue-side.png', '2. red-front.jpg']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move photo 1 later');
    expect(await page.getByRole('status').filter({ hasText: 'blue-side.png is now photo 1 of 2' }).count()).toBe(1);
    // Dragging a photo onto another's place moves it there too; Enter on a move button moves it back.
    await page.getByTestId('photo-tile').nth(1).dragTo(page.getByTestId('photo-tile').nth(0));
    await expect.poll(() => tileNames(page), SETTLE).toEqual(['1. red-front.jpg', '2. blue-side.png']);
    await page.getByRole('button', { name: 'Move photo 1 later' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tileNames(page), SETTLE).toEqual(['1. blue-side.png', '2. red-front.jpg']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move photo 2 earlier');
    await shot(page, 'sell-form-desktop');
    expect(await wcagProblems(page), 'the form').toEqual([]);

    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page);
    await shot(page, 'sell-form-phone');
    await page.setViewportSize(DESKTOP);

    // The preview: the card and the car page with the chosen cover and the entered data.
    await page.getByRole('button', { name: 'Preview Listing' }).click();
    await page.getByRole('heading', { name: 'Preview listing' }).waitFor();
    const card = page.getByTestId('preview-card');
    const cardText = await card.innerText();
    for (const expected of [TITLE, usd(CAR.price), CAR.location, `${CAR.mileage.toLocaleString('en-US')} mi`, 'Excellent', seller.name]) {
      expect(cardText, expected).toContain(expected);
    }
    expect(await page.getByTestId('photo-tile').count(), 'the editing grid is gone on this step').toBe(0);
    const previewPage = page.getByTestId('preview-page');
    expect(await previewPage.innerText()).toContain(CAR.description);
    expect(await previewPage.getByRole('button', { name: 'Show photo 1 of 2' }).getAttribute('aria-current')).toBe('true');
    const coverSrc = await card.locator('img').getAttribute('src');
    expect(await previewPage.locator('.page-preview__stage img').getAttribute('src')).toBe(coverSrc);
    await shot(page, 'sell-preview');
    expect(await wcagProblems(page), 'the preview').toEqual([]);

    // Publish: draft first, the photos one by one with progress, then on the market. The last
    // step is held back a moment so the finished progress can be seen.
    let releasePublish: () => void = () => undefined;
    const publishHeld = new Promise<void>((resolve) => (releasePublish = resolve));
    await page.route(/\/api\/cars\/\d+\/publish$/, async (route) => {
      await publishHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Publish Listing' }).click();
    await page.getByRole('heading', { name: 'Publishing your listing' }).waitFor();
    const rows = page.getByTestId('upload-row');
    await expect.poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-status'))), SETTLE).toEqual(['done', 'done']);
    expect(await rows.getByRole('progressbar').evaluateAll((bars) => bars.map((b) => b.getAttribute('aria-valuenow')))).toEqual(['100', '100']);
    expect(await rows.getByTestId('upload-status').allInnerTexts()).toEqual(['Uploaded', 'Uploaded']);
    expect(await page.getByText('Uploading photos (2 of 2)').count()).toBe(1);
    await shot(page, 'sell-publishing');
    expect(await wcagProblems(page), 'the publishing step').toEqual([]);
    releasePublish();

    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toMatch(/^\/car\/\d+$/);
    const listedCarId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(created).toEqual([
      {
        make: CAR.make,
        model: CAR.model,
        year: CAR.year,
        price: CAR.price,
        mileage: CAR.mileage,
        condition: 'Excellent',
        location: CAR.location,
        description: CAR.description,
        features: CAR.features,
        bodyStyle: 'coupe',
        draft: true,
      },
    ]);
    expect(uploads).toHaveLength(2);
    expect(uploads[0]).toContain('filename="blue-side.png"');
    expect(uploads[1]).toContain('filename="red-front.jpg"');

    // The car page: its photos in the chosen order, WebP with a JPEG fallback and their sizes.
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const stored = await serverCar(listedCarId);
    expect(stored.status).toBe('active');
    expect(stored.photos).toHaveLength(2);
    expect(await dominantChannel(stored.photos[0].gallery.jpeg)).toBe('blue');
    expect(await dominantChannel(stored.photos[1].gallery.jpeg)).toBe('red');
    const main = page.getByTestId('gallery-photo');
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), SETTLE).toBe(true);
    expect(await main.getAttribute('src')).toBe(stored.photos[0].gallery.jpeg);
    expect(await main.evaluate((img: HTMLImageElement) => img.currentSrc)).toBe(`${base}${stored.photos[0].gallery.webp}`);
    expect(await main.getAttribute('width')).toBe(String(stored.photos[0].width));
    expect(await main.getAttribute('height')).toBe(String(stored.photos[0].height));
    expect(await page.getByRole('button', { name: 'Show photo 2 of 2' }).count()).toBe(1);

    // The market value comes from the three comparable cars.
    expect(stored.marketValueBasis).toBe('comparables');
    expect(await page.getByTestId('market-value').innerText()).toBe(`Market value: ${usd(stored.marketValue)}`);
    await expect.poll(() => page.getByTestId('market-basis').innerText(), SETTLE).toMatch(/^Based on 3 comparable cars/);

    // It is the seller's own car: no bidding or buying, a way to edit instead.
    expect(await page.getByTestId('own-listing').innerText()).toContain('This is your listing');
    expect(await page.getByRole('link', { name: 'Edit Listing' }).getAttribute('href')).toBe(`/sell/${listedCarId}/edit`);
    expect(await page.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Buy with Escrow' }).count()).toBe(0);
    await shot(page, 'car-page-photos');
    expect(await wcagProblems(page), 'the car page').toEqual([]);

    // In the listing, found by make and model, with its cover photo in the card size.
    const visitor = await openTab(null);
    await visitor.page.goto(`${base}/`);
    const search = visitor.page.getByRole('searchbox', { name: 'Search vehicles' });
    await search.fill(`${CAR.make} ${CAR.model}`);
    await search.press('Enter');
    const listed = visitor.page.getByTestId('car-card').filter({ has: visitor.page.getByRole('heading', { name: TITLE, exact: true }) });
    await listed.waitFor();
    expect(await listed.locator('img').getAttribute('src')).toBe(stored.photos[0].card.webp);
    expect(await listed.innerText()).toContain(`Market value: ${usd(stored.marketValue)}`);
    expect(await listed.getByRole('link', { name: 'View Details & Chat' }).getAttribute('href')).toBe(`/car/${listedCarId}`);

    expectNoUnexpectedErrors(s);
    expectNoUnexpectedErrors(visitor);
  }, 120_000);

  it('the seller answers with a Seller badge, the buyer bids, the seller accepts it from My Listings and the buyer is told', async () => {
    // A seller and a buyer of this test's own, and the car listed as the form lists it.
    const [seller, buyer] = [await createUser(t, { name: 'Sasha Seller' }), await createUser(t, { name: 'Bo Buyer' })];
    const listedCarId = (await listCar(t, seller, CAR)).id;
    const s = await openTab(seller);
    const b = await openTab(buyer);
    await s.page.goto(`${base}/car/${listedCarId}`);
    await b.page.goto(`${base}/car/${listedCarId}`);
    await s.page.getByTestId('own-listing').waitFor();
    await b.page.getByRole('button', { name: 'Place Bid' }).waitFor();

    // The buyer asks; the seller answers; the buyer sees the answer marked as the seller's.
    const question = 'Is the service history complete?';
    const answer = 'Yes: every service at Porsche Austin, records in the glovebox.';
    await b.page.getByRole('button', { name: 'Question', exact: true }).click();
    await b.page.getByLabel('Your message').fill(question);
    await b.page.getByLabel('Your message').press('Enter');
    const sellerSees = s.page.getByTestId('chat-message').filter({ hasText: question });
    await sellerSees.waitFor();
    expect(await sellerSees.getByTestId('seller-badge').count()).toBe(0);
    await s.page.getByLabel('Your message').fill(answer);
    await s.page.getByLabel('Your message').press('Enter');
    const buyerSees = b.page.getByTestId('chat-message').filter({ hasText: answer });
    await buyerSees.waitFor();
    expect(await buyerSees.getByTestId('seller-badge').innerText()).toBe('Seller');
    expect(await buyerSees.locator('.chat-msg__author').innerText()).toBe(seller.name);
    expect(await b.page.getByTestId('chat-message').filter({ hasText: question }).getByTestId('seller-badge').count()).toBe(0);
    await buyerSees.screenshot({ path: screenshotPath('chat-seller-badge') });

    // The buyer bids the minimum the form offers.
    await b.page.getByRole('button', { name: 'Place Bid' }).click();
    await expect.poll(() => b.page.getByTestId('bid-feedback').innerText(), SETTLE).toMatch(/^Your bid of \$[\d,]+ was placed\.$/);
    const bid = (await serverCar(listedCarId)).highestBid as number;
    expect(bid).toBeGreaterThan(0);
    await expect.poll(() => b.page.getByTestId('unread-badge').count(), SETTLE).toBe(1); // the seller's answer notified the asker
    const unreadBefore = Number(await b.page.getByTestId('unread-badge').innerText());

    // My Listings: the numbers, then Accept Highest Bid with a confirmation naming the amount.
    await s.page.goto(`${base}/dashboard`);
    await s.page.getByRole('tab', { name: 'My Listings' }).click();
    expect(new URL(s.page.url()).searchParams.get('tab')).toBe('listings');
    const row = s.page.getByTestId('listing-row').filter({ hasText: TITLE });
    await row.waitFor();
    const rowText = await row.innerText();
    const stored = await serverCar(listedCarId);
    for (const expected of ['On the market', usd(CAR.price), `Market value ${usd(stored.marketValue)}`, `1 bid, highest ${usd(bid)}`, 'viewing now', '0 watching']) {
      expect(rowText, expected).toContain(expected);
    }
    expect(await row.getByRole('link', { name: `Edit ${TITLE}` }).getAttribute('href')).toBe(`/sell/${listedCarId}/edit`);
    await shot(s.page, 'my-listings');
    expect(await wcagProblems(s.page), 'My Listings').toEqual([]);
    await s.page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(s.page);
    await shot(s.page, 'my-listings-phone');
    await s.page.setViewportSize(DESKTOP);

    await row.getByRole('button', { name: `Accept highest bid for ${TITLE}` }).click();
    const dialog = s.page.getByTestId('accept-bid-dialog');
    await dialog.getByTestId('accept-bid-amount').waitFor();
    expect(await dialog.getByTestId('accept-bid-amount').innerText()).toBe(usd(bid));
    const dialogText = await dialog.innerText();
    expect(dialogText).toContain(buyer.name);
    expect(dialogText).toContain(`An escrow order is created for ${buyer.name} at ${usd(bid)}`);
    await shot(s.page, 'accept-bid-dialog');
    expect(await wcagProblems(s.page), 'the accept dialog').toEqual([]);
    await dialog.getByRole('button', { name: `Accept ${usd(bid)}` }).click();
    await dialog.getByTestId('accept-bid-done').waitFor();
    const [order] = (await t.app.inject({ method: 'GET', url: '/api/orders', headers: seller.auth })).json().data.orders;
    expect(order).toMatchObject({ carId: listedCarId, buyerId: buyer.id, amount: bid, status: 'awaiting_payment' });
    const goTo = dialog.getByRole('link', { name: `Go to Order #${order.id}` });
    expect(await goTo.getAttribute('href')).toBe(`/orders/${order.id}`);
    await goTo.click();
    await s.page.getByRole('heading', { level: 1, name: `Order #${order.id}` }).waitFor();

    // The buyer's bell counts the new order and leads to it.
    await expect.poll(async () => Number(await b.page.getByTestId('unread-badge').innerText()), SETTLE).toBeGreaterThan(unreadBefore);
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ }).click();
    const item = b.page.getByRole('dialog', { name: 'Notifications' }).getByTestId('notification-item').filter({ hasText: `Order #${order.id}` }).first();
    await item.waitFor();
    expect(await item.getByRole('link', { name: 'View order' }).getAttribute('href')).toBe(`/orders/${order.id}`);

    // Back in My Listings the row links the order. Once the buyer pays, the listing is locked and the edit page says why.
    await s.page.goto(`${base}/dashboard?tab=listings`);
    expect(await s.page.getByTestId('listing-row').filter({ hasText: TITLE }).getByTestId('listing-order-link').getAttribute('href')).toBe(`/orders/${order.id}`);
    const paid = await t.app.inject({ method: 'POST', url: `/api/orders/${order.id}/pay`, headers: buyer.auth, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    await s.page.goto(`${base}/sell/${listedCarId}/edit`);
    await s.page.getByTestId('listing-locked').waitFor();
    expect(await s.page.getByTestId('listing-locked').innerText()).toContain('An escrow order holds the payment for this car');
    expect(await s.page.getByTestId('listing-status').innerText()).toBe('Sale pending');
    expect(await s.page.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);
    expect(await s.page.getByLabel('Asking price').isDisabled()).toBe(true);

    expectNoUnexpectedErrors(s);
    expectNoUnexpectedErrors(b);
  }, 120_000);

  it("a photo the server refuses shows its sentence with Retry and Remove; removing it lets publishing finish", async () => {
    const s = await openTab(seller);
    const { page } = s;
    await page.goto(`${base}/sell`);
    await fillListing(page, { ...CAR, model: 'Cayman GT4', price: 98_000 });
    // The picker takes the text file named .jpg: the server judges the content.
    await fileInput(page).setInputFiles([photo.red, photo.text]);
    await expect.poll(() => tileNames(page), SETTLE).toEqual(['1. red-front.jpg', '2. notes.jpg']);
    await page.getByRole('button', { name: 'Preview Listing' }).click();
    await page.getByRole('button', { name: 'Publish Listing' }).click();

    const rows = page.getByTestId('upload-row');
    const failed = rows.filter({ hasText: 'notes.jpg' });
    await expect.poll(() => failed.getAttribute('data-status'), SETTLE).toBe('failed');
    expect(await rows.first().getAttribute('data-status')).toBe('done');
    expect(await failed.getByTestId('upload-error').innerText()).toBe('Photos must be JPEG, PNG or WebP images');
    expect(await page.getByText('Retry the photos that failed, or remove them to publish without them.').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'My Listings' }).getAttribute('href')).toBe('/dashboard?tab=listings');
    await shot(page, 'sell-upload-failed');
    expect(await wcagProblems(page), 'a failed upload').toEqual([]);

    // Retry sends it again (and the server refuses it again); Remove lets the rest go on the market.
    await failed.getByRole('button', { name: /^Retry/ }).click();
    await expect.poll(() => failed.getAttribute('data-status'), SETTLE).toBe('failed');
    await failed.getByRole('button', { name: /^Remove/ }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toMatch(/^\/car\/\d+$/);
    const carId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: `${CAR.year} ${CAR.make} Cayman GT4` }).waitFor();
    const stored = await serverCar(carId);
    expect(stored.status).toBe('active');
    expect(stored.photos).toHaveLength(1);
    // Too few comparable cars: no price label, and it says so.
    expect(stored.marketValue).toBeNull();
    expect(await page.getByTestId('market-value').innerText()).toBe('Not enough comparable cars to estimate a market value');
    expect(await page.getByTestId('price-vs-market').getAttribute('class')).not.toContain('market-label');

    expectNoUnexpectedErrors(s, EXPECTED_REFUSAL);
  }, 120_000);

  it('a draft left half-way waits in My Listings; its edit page adds a photo with progress, saves a change and publishes it', async () => {
    const draft = await t.app.inject({
      method: 'POST',
      url: '/api/cars',
      headers: seller.auth,
      payload: { ...CAR, model: 'Taycan Turbo', condition: 'Like New', bodyStyle: 'sedan', draft: true },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const draftId: number = draft.json().data.id;
    const s = await openTab(seller);
    const { page } = s;
    await page.goto(`${base}/dashboard?tab=listings`);
    const row = page.getByTestId('listing-row').filter({ hasText: 'Taycan Turbo' });
    await row.waitFor();
    expect(await row.getByTestId('listing-status').innerText()).toBe('Draft');
    expect(await row.getByText('Not enough data').count()).toBe(1);
    await row.getByRole('link', { name: /^Continue/ }).click();
    await page.getByRole('heading', { level: 1, name: `${CAR.year} ${CAR.make} Taycan Turbo` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sell/${draftId}/edit`);
    expect(await page.title()).toContain(`Edit ${CAR.year} ${CAR.make} Taycan Turbo`);
    expect(await page.getByTestId('listing-status').innerText()).toBe('Draft');

    // A change is checked live and saved.
    await page.getByLabel('Asking price').fill('0');
    await page.getByLabel('Asking price').press('Tab');
    expect(await errorOf(page, 'price').innerText()).toBe('The price must be at least $1');
    await page.getByLabel('Asking price').fill('119000');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByTestId('save-status').innerText(), SETTLE).toBe('Changes saved.');
    expect((await serverCar(draftId)).price).toBe(119_000);

    // Photos go up as soon as they are picked, each with its progress, and join the grid.
    await fileInput(page).setInputFiles([photo.green, photo.red]);
    await expect.poll(() => page.getByTestId('photo-tile').count(), SETTLE).toBe(2);
    await expect.poll(() => page.getByTestId('upload-row').count(), SETTLE).toBe(0);
    expect(await dominantChannel((await serverCar(draftId)).photos[0].gallery.jpeg)).toBe('green');
    // Reordered on the server with the order endpoint.
    await page.getByRole('button', { name: 'Move photo 2 earlier' }).click();
    await expect.poll(async () => dominantChannel((await serverCar(draftId)).photos[0].gallery.jpeg), SETTLE).toBe('red');
    await expect.poll(() => page.getByRole('button', { name: 'Move photo 1 later' }).isDisabled(), SETTLE).toBe(false);
    await shot(page, 'edit-listing');
    expect(await wcagProblems(page), 'the edit page').toEqual([]);

    await page.getByRole('button', { name: 'Publish Listing' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe(`/car/${draftId}`);
    await page.getByRole('heading', { level: 1, name: `${CAR.year} ${CAR.make} Taycan Turbo` }).waitFor();
    expect((await serverCar(draftId)).status).toBe('active');

    // Withdraw from My Listings, after a confirmation.
    await page.goto(`${base}/dashboard?tab=listings`);
    const published = page.getByTestId('listing-row').filter({ hasText: 'Taycan Turbo' });
    await published.getByRole('button', { name: /^Withdraw/ }).click();
    const dialog = page.getByTestId('withdraw-dialog');
    await dialog.getByRole('heading', { name: 'Withdraw this listing?' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep Listing');
    await dialog.getByRole('button', { name: 'Withdraw Listing' }).click();
    await expect.poll(() => published.getByTestId('listing-status').innerText(), SETTLE).toBe('Withdrawn');
    expect((await serverCar(draftId)).status).toBe('withdrawn');
    expect(await published.getByRole('button', { name: /^Withdraw/ }).count()).toBe(0);

    expectNoUnexpectedErrors(s);
  }, 120_000);

  it('on a phone the menu offers "Sell your car"; an unverified account is told why it cannot publish yet', async () => {
    const pending = await createUser(t, { name: 'Uma Unverified' });
    await t.database.db.update(users).set({ emailVerified: false }).where(eq(users.id, pending.id));
    const u = await openTab(pending, PHONE, { verified: false });
    const { page } = u;
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Open Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell your car' }).waitFor();
    await page.screenshot({ path: screenshotPath('nav-menu-phone'), clip: { x: 0, y: 0, width: PHONE.width, height: 520 } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell your car' }).click();
    await page.getByRole('heading', { level: 1, name: 'List your car with LuxeMotors' }).waitFor();
    await page.getByTestId('sell-verify-notice').waitFor();
    expect(await page.getByTestId('sell-verify-notice').innerText()).toContain('Verify your email to list a car');
    await fillListing(page, { ...CAR, model: 'Macan GTS' });
    await page.getByRole('button', { name: 'Preview Listing' }).click();
    await page.getByRole('heading', { name: 'Preview listing' }).waitFor();
    expect(await page.getByRole('button', { name: 'Publish Listing' }).isDisabled()).toBe(true);
    await expectNoHorizontalScroll(page);
    await shot(page, 'sell-preview-phone');

    // Signed out, /sell asks to sign in first.
    const visitor = await openTab(null);
    await visitor.page.goto(`${base}/sell`);
    await expect.poll(() => new URL(visitor.page.url()).pathname, SETTLE).toBe('/login');

    expectNoUnexpectedErrors(u);
    expectNoUnexpectedErrors(visitor);
  }, 90_000);
});
