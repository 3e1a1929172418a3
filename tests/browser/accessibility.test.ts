/**
 * WCAG 2.2 AA on every screen (issue 34): axe-core's WCAG 2.0/2.1/2.2 A and AA rules, every
 * impact, on each screen and state a person reaches: signed out and in, the car page as an
 * auction and as a buy-now listing (and as the server draws it, without JavaScript), sign-in with
 * and without its second step, registration with its errors, two-factor setup, the selling form
 * with its errors, every dashboard section, an order in each escrow step, the offer thread, the
 * dialogs open, and every section of the operator console. Each screen is also checked at 320 px
 * wide (WCAG 1.4.10 reflow: no sideways scrolling for text). What fails is written to
 * test-results/accessibility.json, screen by screen.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_SECTIONS, adminPath } from '@common/paths.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { TestApp } from '../helpers/app.ts';
import { request } from '../helpers/api.ts';
import { Tabs, closeBrowserApp, screenshotFromTop, startBrowserApp, wcagProblems } from '../helpers/browser.ts';
import { listCar } from '../helpers/cars.ts';
import { orderIn, type ReachableStatus } from '../helpers/escrow.ts';
import { createStaff, enrolTotp, totpCode } from '../helpers/staff.ts';
import { TEST_PASSWORD, createUser, type SignedInUser } from '../helpers/users.ts';

const SETTLE = { timeout: 15_000 };
const NARROW = { width: 320, height: 800 };
/** Refusals the browser logs on purpose here (a wrong password, the console's gates). */
const REPORT = new URL('../../test-results/accessibility.json', import.meta.url);

const w = {} as { browser: Browser; t: TestApp; base: string; buyer: SignedInUser; seller: SignedInUser };
const tabs = new Tabs(() => w.browser, { timeout: 15_000 });
/** Screen → the failing `rule (impact): target` lines; written out at the end. */
const found: Record<string, string[]> = {};

/** Records the WCAG problems of the page as it is now under `screen`, and whether text reflows at 320 px. */
async function check(page: Page, screen: string, options: { reflow?: boolean } = {}): Promise<void> {
  const problems = await wcagProblems(page);
  if (options.reflow !== false) {
    const size = page.viewportSize()!;
    await page.setViewportSize(NARROW);
    const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    if (overflow > 0) {
      const wide = await page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
          .slice(0, 4)
          .map((el) => `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} (right ${Math.round(el.getBoundingClientRect().right)})`),
      );
      problems.push(`reflow: the page scrolls sideways by ${overflow}px at 320px wide: ${wide.join(', ')}`);
    }
    await page.setViewportSize(size);
  }
  if (process.env.SCREENSHOTS !== '0') await screenshotFromTop(page, `a11y-${screen.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
  found[screen] = problems;
}

/** Asserts that none of `screens` had a problem (all of them are reported first). */
function expectClean(screens: string[]): void {
  const failing = Object.fromEntries(screens.filter((s) => (found[s] ?? ['not visited']).length > 0).map((s) => [s, found[s] ?? ['not visited']]));
  expect(failing).toEqual({});
}

async function visit(page: Page, path: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  await page.goto(`${w.base}${path}`);
  await ready(page);
}
const heading = (name: string | RegExp, level?: number) => (p: Page) => p.getByRole('heading', { name, ...(level ? { level } : {}) }).first().waitFor();

let auction: CarDetail;
let buyNow: CarDetail;

beforeAll(async () => {
  Object.assign(w, await startBrowserApp());
  w.buyer = await createUser(w.t, { name: 'Ada Access' });
  w.seller = await createUser(w.t, { name: 'Sol Seller' });
  auction = await listCar(w.t, w.seller, { model: 'Carrera GT', price: 500_000, auctionInSeconds: 2 * 86_400, reservePrice: 600_000 });
  buyNow = await listCar(w.t, w.seller, { model: 'Cayman GT4', price: 100_000 });
  const bidder = await createUser(w.t, { name: 'Early Bidder' });
  expect((await request(w.t, 'POST', '/api/bids', bidder, { carId: auction.id, amount: 500_000 })).statusCode).toBe(201);
  const asked = await request(w.t, 'POST', '/api/chat', bidder, { carId: buyNow.id, message: 'Is the service history complete?', type: 'question' });
  expect(asked.statusCode, asked.body).toBeLessThan(300);
});

afterAll(async () => {
  mkdirSync(new URL('.', REPORT), { recursive: true });
  writeFileSync(REPORT, `${JSON.stringify(found, null, 2)}\n`);
  await closeBrowserApp({ tabs, browser: w.browser, t: w.t });
});

describe('WCAG 2.2 AA, screen by screen', () => {
  it('the check itself finds what it looks for', async () => {
    const { page } = await tabs.open(null);
    await page.setContent('<html lang="en"><head><title>t</title></head><body><main><h1>Check</h1><img src="x.png"><button></button></main></body></html>');
    const problems = await wcagProblems(page);
    expect(problems.some((p) => p.startsWith('image-alt')), problems.join('\n')).toBe(true);
    expect(problems.some((p) => p.startsWith('button-name')), problems.join('\n')).toBe(true);
  });

  it('signed out: listings, both car pages, sign-in, registration, the public pages, the 404', async () => {
    const { page } = await tabs.open(null);
    const screens: string[] = [];
    const at = async (screen: string, path: string, ready: (p: Page) => Promise<unknown>) => {
      await visit(page, path, ready);
      await check(page, screen);
      screens.push(screen);
    };
    await at('listings (visitor)', '/', (p) => p.getByTestId('car-card').first().waitFor());
    await at('car page: auction (visitor)', `/car/${auction.id}`, (p) => p.getByTestId('auction-price').waitFor());
    await at('car page: buy-now (visitor)', `/car/${buyNow.id}`, (p) => p.getByTestId('asking-price').waitFor());
    await at('sign in', '/login', heading(/sign in|welcome/i));
    await page.getByLabel('Email').fill(w.buyer.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').first().waitFor();
    await check(page, 'sign in: wrong password');
    screens.push('sign in: wrong password');
    await at('register', '/register', heading(/create|sign up|register/i));
    // Sent empty: each field says what it needs, tied to it, and focus goes to the first.
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByTestId('error-name').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus on the first error').toBe('name');
    expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Full name').getAttribute('aria-describedby')).toContain(await page.getByTestId('error-name').getAttribute('id'));
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await check(page, 'register: errors shown');
    screens.push('register: errors shown');
    await at('forgot password', '/forgot-password', heading(/password/i));
    await at('testimonials', '/testimonials', (p) => p.getByRole('heading', { level: 1 }).waitFor());
    await at('escrow service', '/escrow', (p) => p.getByRole('heading', { level: 1 }).waitFor());
    await at('support', '/support', (p) => p.getByRole('heading', { level: 1 }).waitFor());
    await at('404', '/no-such-page', (p) => p.getByRole('button', { name: 'Return Home' }).waitFor());

    // The pages as the server draws them, before any script runs: the app's scripts are not
    // loaded at all (with JavaScript switched off, axe could not run in the page either).
    const drawn = await w.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
    drawn.setDefaultTimeout(15_000);
    try {
      await drawn.route(/\.m?js(\?|$)/, (route) => route.abort());
      const raw = await drawn.newPage();
      await raw.goto(`${w.base}/car/${auction.id}`);
      expect(await raw.evaluate(() => document.documentElement.hasAttribute('data-app-ready')), 'no script ran').toBe(false);
      await check(raw, 'car page drawn on the server (no JavaScript)');
      await raw.goto(`${w.base}/`);
      await check(raw, 'listings drawn on the server (no JavaScript)');
      screens.push('car page drawn on the server (no JavaScript)', 'listings drawn on the server (no JavaScript)');
    } finally {
      await drawn.close();
    }
    expectClean(screens);
  }, 150_000);

  it('signed in: two-factor sign-in and setup, the car room with its dialogs, selling, the dashboard, escrow steps, the offer thread', async () => {
    const { t } = w;
    const screens: string[] = [];
    const record = async (page: Page, screen: string) => {
      await check(page, screen);
      screens.push(screen);
    };

    // Sign-in's second step, for an account with an authenticator.
    const guarded = await createUser(t, { name: 'Tess Totp' });
    const { secret } = await enrolTotp(t, guarded);
    const signIn = await tabs.open(null);
    await visit(signIn.page, '/login', heading(/sign in|welcome/i));
    await signIn.page.getByLabel('Email').fill(guarded.email);
    await signIn.page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await signIn.page.getByRole('button', { name: 'Sign In' }).click();
    await signIn.page.getByLabel('Authentication code').waitFor();
    await record(signIn.page, 'sign in: authentication code asked');
    await signIn.page.getByLabel('Authentication code').fill(totpCode(secret));
    await signIn.page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => new URL(signIn.page.url()).pathname, SETTLE).toBe('/');

    const { page } = await tabs.open(w.buyer);
    await visit(page, '/', (p) => p.getByTestId('car-card').first().waitFor());
    await record(page, 'listings (signed in)');
    await visit(page, `/car/${auction.id}`, (p) => p.getByLabel('Your bid').waitFor());
    await record(page, 'car page: auction (signed in)');
    await visit(page, `/car/${buyNow.id}`, (p) => p.getByTestId('make-offer').waitFor());
    await record(page, 'car page: buy-now (signed in)');
    await page.getByTestId('make-offer').click();
    await page.getByRole('dialog').waitFor();
    await record(page, 'dialog: make an offer');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Report' }).first().click();
    await page.getByRole('dialog', { name: 'Report this message' }).waitFor();
    await record(page, 'dialog: report a message');
    await page.keyboard.press('Escape');

    // Two-factor setup from the dashboard's settings.
    await visit(page, '/dashboard?tab=settings', (p) => p.getByTestId('two-factor').waitFor());
    await record(page, 'dashboard: settings');
    await page.getByTestId('two-factor').getByRole('button', { name: 'Set Up' }).click();
    await page.getByTestId('totp-qr').waitFor();
    await record(page, 'two-factor setup: QR code');

    for (const tab of ['activity', 'bids', 'watchlist', 'messages', 'orders', 'offers', 'listings', 'searches']) {
      await visit(page, `/dashboard${tab === 'activity' ? '' : `?tab=${tab}`}`, (p) => p.getByRole('tabpanel').waitFor());
      await page.waitForLoadState('networkidle');
      await record(page, `dashboard: ${tab}`);
    }

    // The selling form, then with every error shown.
    await visit(page, '/sell', heading('List your car with LuxeMotors', 1));
    await record(page, 'sell: form');
    await page.getByRole('button', { name: /Preview|Continue|Review/ }).first().click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await record(page, 'sell: errors shown');

    // An order in each escrow step, as the buyer.
    const steps: ReachableStatus[] = ['awaiting_payment', 'funded', 'in_transit', 'inspection', 'disputed', 'released'];
    for (const status of steps) {
      const order = await orderIn(t, status, w.buyer, w.seller);
      await visit(page, `/orders/${order.id}`, (p) => p.getByRole('heading', { level: 1 }).waitFor());
      await page.waitForLoadState('networkidle');
      await record(page, `order: ${status}`);
    }

    // The offer thread.
    const offered = await request(t, 'POST', `/api/cars/${buyNow.id}/offers`, w.buyer, { amount: 90_000, message: 'Would you take 90k?' });
    expect(offered.statusCode, offered.body).toBe(201);
    const offerId = offered.json().data.id as number;
    await visit(page, `/offers/${offerId}`, (p) => p.getByTestId('offer-amount').waitFor());
    await record(page, 'offer thread (buyer)');
    const s = await tabs.open(w.seller);
    await visit(s.page, `/offers/${offerId}`, (p) => p.getByTestId('offer-counter').waitFor());
    await record(s.page, 'offer thread (seller)');
    await s.page.getByTestId('offer-counter').click();
    await s.page.getByTestId('offer-move-dialog').waitFor();
    await record(s.page, 'dialog: counter-offer');
    expectClean(screens);
  }, 150_000);

  it('the operator console: every section, and a resolution dialog', async () => {
    const { t } = w;
    const operator = await createStaff(t, 'operator', { name: 'Olga Operator' });
    await orderIn(t, 'disputed', w.buyer, w.seller);
    const { page } = await tabs.open(operator);
    const screens: string[] = [];
    for (const section of ADMIN_SECTIONS) {
      await visit(page, adminPath(section), (p) => p.getByRole('heading', { level: 2 }).first().waitFor());
      await page.waitForLoadState('networkidle');
      await check(page, `console: ${section}`);
      screens.push(`console: ${section}`);
    }
    await visit(page, adminPath('disputes'), (p) => p.getByTestId('dispute').first().waitFor());
    await page.getByTestId('dispute').first().getByRole('button', { name: 'Refund Buyer' }).click();
    await page.getByRole('dialog', { name: 'Refund the buyer?' }).waitFor();
    await check(page, 'dialog: refund reason');
    screens.push('dialog: refund reason');
    expectClean(screens);
  }, 150_000);
});
