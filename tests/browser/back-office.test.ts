/**
 * The operator back office (contract §Operator back office, issue 19) in a real browser against
 * the real server: an operator enrols two-factor sign-in by reading the QR code off the screen as
 * a phone would, signs in again with a fresh code, resolves a dispute from the console with a
 * reason and finds it in the audit log; a regular user is refused the console, and an operator
 * without a second factor is sent to set it up. Codes come from the QR's otpauth:// URL (otpauth),
 * never from the client's code.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { users } from '../../db/schema/index.ts';
import type { UserRole } from '@common/back-office.ts';
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
  type Tab,
} from '../helpers/browser.ts';
import { orderApi, orderIn, waitForOrder } from '../helpers/escrow.ts';
import { TEST_PASSWORD, createUser, type SignedInUser } from '../helpers/users.ts';

/** A loaded 2-core machine needs more than `expect.poll`'s 1 s. */
const SETTLE = { timeout: 15_000 };
const TOTP_PERIOD_MS = 30_000;
/** Refusals the browser logs as console errors: a wrong code (401), the console's 403s. */
const EXPECTED_401 = /Failed to load resource: the server responded with a status of 401/;
const EXPECTED_403 = /Failed to load resource: the server responded with a status of 403/;
const EXPECTED_404 = /Failed to load resource: the server responded with a status of 404/;

let browser: Browser;
let t: TestApp;
let base: string;
let buyer: SignedInUser;
let seller: SignedInUser;

const tabs = new Tabs(() => browser, { timeout: 15_000 });
const openTab = (user: SignedInUser | null, viewport = DESKTOP) => tabs.open(user, { viewport });

/** What an earlier `npm run operator -- grant` would have done: the role, straight in the database. */
async function setRole(userId: number, role: UserRole): Promise<void> {
  await t.database.db.update(users).set({ role }).where(eq(users.id, userId));
}

/** The otpauth:// URL in the QR code on the page, decoded from the image's pixels as a phone's camera would. */
async function readQrCode(page: Page): Promise<string> {
  const img = page.getByTestId('totp-qr');
  await img.waitFor();
  const src = (await img.getAttribute('src')) ?? '';
  const match = /^data:image\/png;base64,(.+)$/.exec(src);
  expect(match, 'the QR code is a PNG data URL').not.toBeNull();
  const png = PNG.sync.read(Buffer.from(match![1]!, 'base64'));
  const decoded = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  expect(decoded, 'the QR code can be read').not.toBeNull();
  return decoded!.data;
}

const stepOf = (ms: number) => Math.floor(ms / TOTP_PERIOD_MS);

/**
 * A code the authenticator shows at a 30-second step after `step` (so not the code used then):
 * the current one once the step has turned, else the next one, which the server accepts too (it
 * takes one step either side of now, for clocks that drift), so nobody waits up to 30 s for the turn.
 */
function codeAfter(totp: OTPAuth.TOTP, step: number): string {
  return totp.generate({ timestamp: Math.max(stepOf(Date.now()), step + 1) * TOTP_PERIOD_MS });
}

/** A six-digit code that the authenticator shows at none of the steps around now. */
function wrongCode(totp: OTPAuth.TOTP): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => totp.generate({ timestamp: Date.now() + steps * TOTP_PERIOD_MS })));
  for (let n = 0; ; n++) {
    const code = String((314_159 + n * 7_919) % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const consoleMenu = (page: Page) => page.getByRole('navigation', { name: 'Console sections' });

/**
 * WCAG 2.x A/AA problems once the page is still: a state change (the section menu's highlight
 * moving) runs as a transition even with reduced motion (0.01 ms, from global.css), and axe must
 * not read a colour halfway through it (`wcagViolations` waits for every transition to finish).
 */
const violations = (page: Page) => wcagProblems(page);

/** Opens a console section from its menu and waits for its heading. */
async function openSection(page: Page, name: string): Promise<void> {
  await consoleMenu(page).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

/** Screenshots a page on a desktop and on a phone (no sideways scrolling there), and back. */
async function shootBoth(tab: Tab, name: string): Promise<void> {
  await shot(tab.page, `${name}-desktop`);
  await tab.page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(tab.page, `${name}: no horizontal scroll on a phone`);
  await shot(tab.page, `${name}-phone`);
  await tab.page.setViewportSize(DESKTOP);
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  buyer = await createUser(t, { name: 'Bea Buyer' });
  seller = await createUser(t, { name: 'Sam Seller' });
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('operator back office', () => {
  it('an operator enrols two-factor from the QR, signs in with a code, refunds a dispute with a reason and finds it in the audit log', async () => {
    const operator = await createUser(t, { name: 'Olivia Operator' });
    await setRole(operator.id, 'operator');
    const order = await orderIn(t, 'disputed', buyer, seller);

    const tab = await openTab(null);
    const { page } = tab;

    // Password only: the operator is in, sees the Console link, and the settings say the console needs two-factor.
    await signIn(page, operator.email);
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/');
    await mainNav(page).getByRole('link', { name: 'Console' }).waitFor();
    await page.goto(`${base}/dashboard?tab=settings`);
    const twoFactor = page.getByTestId('two-factor');
    await twoFactor.waitFor();
    expect(await page.getByTestId('two-factor-status').innerText()).toBe('Off');
    expect(await page.getByTestId('console-needs-totp').innerText()).toContain('The operator console needs two-factor sign-in');

    // Set up: the QR code on screen carries the otpauth:// URL; the key for typing is the same secret.
    await twoFactor.getByRole('button', { name: 'Set Up' }).click();
    const otpauthUrl = await readQrCode(page);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(await page.getByRole('img', { name: 'QR code for your authenticator app' }).count()).toBe(1);
    const totp = OTPAuth.URI.parse(otpauthUrl);
    expect(totp).toBeInstanceOf(OTPAuth.TOTP);
    const shownKey = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(shownKey).toBe((totp as OTPAuth.TOTP).secret.base32);
    await shot(page, 'back-office-totp-setup-desktop');
    expect(await violations(page), 'two-factor set-up').toEqual([]);

    // Confirm with the app's code: ten recovery codes, shown once.
    const enrolledAt = Date.now();
    await twoFactor.getByLabel('Authentication code').fill(totp.generate({ timestamp: enrolledAt }));
    await twoFactor.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    expect(await page.getByTestId('two-factor-status').innerText()).toBe('On');
    expect(await page.getByTestId('console-needs-totp').count()).toBe(0);
    await shootBoth(tab, 'back-office-recovery-codes');
    await twoFactor.getByRole('button', { name: 'I have saved these codes' }).click();
    await expect.poll(() => codes.count(), SETTLE).toBe(0);

    // Sign out, and in again: the password alone asks for the code. The sign-out is over once the
    // server has answered and the tab is on / (never on /login, which would bring it back here).
    const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/logout');
    await mainNav(page).getByRole('button', { name: 'Logout' }).click();
    await loggedOut;
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('luxemotors.accessToken')), SETTLE).toBeNull();
    await signIn(page, operator.email);
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete')), SETTLE).toBe('one-time-code');
    expect(await page.getByTestId('login-screen').innerText()).toMatch(/recovery code/i);
    await shot(page, 'back-office-login-code-desktop');

    // A wrong code is refused like a wrong password; a fresh one gets in.
    await codeField.fill(wrongCode(totp as OTPAuth.TOTP));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await codeField.fill(codeAfter(totp as OTPAuth.TOTP, stepOf(enrolledAt)));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/');

    // The console: its overview counts the open dispute.
    await mainNav(page).getByRole('link', { name: 'Console' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/admin');
    await page.getByRole('heading', { level: 2, name: 'Overview' }).waitFor();
    const disputesTile = page.locator('[data-testid="overview-tile"][data-stat="disputesOpen"]');
    await disputesTile.waitFor();
    expect(Number((await disputesTile.locator('.stat-value').innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
    expect(await violations(page), 'console overview').toEqual([]);
    await shootBoth(tab, 'back-office-overview');

    // Disputes: the order with its timeline and the buyer's reason; refund it with a reason.
    await openSection(page, 'Disputes');
    expect(new URL(page.url()).pathname).toBe('/admin/disputes');
    const card = page.locator(`[data-testid="dispute"][data-order-id="${order.id}"]`);
    await card.waitFor();
    expect(await card.innerText()).toContain('The paint does not match the listing.');
    expect(await card.getByTestId('dispute-timeline').getByRole('listitem').count()).toBe(order.events.length);
    expect(await violations(page), 'console disputes').toEqual([]);
    await shootBoth(tab, 'back-office-disputes');

    await card.getByRole('button', { name: 'Refund Buyer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund the buyer?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Refund Buyer' }).click();
    expect(await dialog.getByText('Give a reason').isVisible(), 'a reason is required').toBe(true);
    const reason = 'Inspector confirmed the paint damage; refunding the buyer in full.';
    await dialog.getByLabel('Reason').fill(reason);
    await shot(page, 'back-office-resolve-dialog-desktop');
    await dialog.getByRole('button', { name: 'Refund Buyer' }).click();
    await expect.poll(() => dialog.count(), SETTLE).toBe(0);
    await expect.poll(() => card.count(), { ...SETTLE, message: 'the order leaves the list' }).toBe(0);
    expect(await page.getByTestId('dispute-resolved').innerText()).toContain(`Order #${order.id}`);
    const refunded = await waitForOrder(t, buyer, order.id, (o) => o.status === 'refunded');
    expect(refunded.events.at(-1)).toMatchObject({ to: 'refunded', actor: 'operator', note: reason });

    // Audit log: the resolution, newest first, with the operator's email, the reason and a hash.
    await openSection(page, 'Audit Log');
    const entry = page.getByTestId('audit-entry').first();
    await entry.waitFor();
    expect(await entry.getAttribute('data-action')).toBe('dispute.resolve');
    expect(await entry.getByTestId('audit-reason').innerText()).toBe(reason);
    expect(await entry.getByTestId('audit-actor').innerText()).toBe(operator.email);
    const text = await entry.innerText();
    expect(text).toContain(`Order #${order.id}`);
    expect(text).toMatch(/refunded/);
    expect(text).toMatch(/\b[0-9a-f]{12}\b/);
    // Filtered by action and target, it is still there; by another action, it is not.
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('Action').selectOption('dispute.resolve');
    await filters.getByLabel('Target id').fill(String(order.id));
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('audit-entry').count(), SETTLE).toBe(1);
    await filters.getByLabel('Action').selectOption('car.hide');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Nothing matches these filters.').waitFor();
    await filters.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.getByTestId('audit-entry').count(), SETTLE).toBeGreaterThanOrEqual(1);
    expect(await violations(page), 'console audit log').toEqual([]);
    await shootBoth(tab, 'back-office-audit');

    // The ledger: the refund balances the charge, and its CSV downloads with the session's token.
    await openSection(page, 'Ledger');
    const totals = page.getByTestId('ledger-totals');
    await totals.waitFor();
    expect(await totals.innerText()).toContain('Balanced');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split(/\r?\n/)[0]).toBe('id,orderId,kind,amount,reference,status,at');
    expect(csv).toMatch(new RegExp(`^\\d+,${order.id},refund,`, 'm'));

    // The other sections open without errors, and fit a phone.
    for (const name of ['Ledger', 'Users', 'Listings', 'Tickets', 'Flagged Bids']) {
      await openSection(page, name);
      await page.waitForLoadState('networkidle');
      expect(await violations(page), `console ${name}`).toEqual([]);
      await shootBoth(tab, `back-office-${name.toLowerCase().replace(/\s+/g, '-')}`);
    }
    // Users: an operator may suspend and verify, but only an admin changes roles.
    await openSection(page, 'Users');
    await page.getByTestId('user-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Suspend' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Change Role' }).count()).toBe(0);
    expectNoUnexpectedErrors(tab, EXPECTED_401);
  }, 240_000);

  it('a regular user opening the console finds the not-found page, answered like any unknown address, and sees no link to it', async () => {
    const tab = await openTab(buyer, PHONE);
    const unknown = await tab.page.goto(`${base}/no/such/page`);
    expect(unknown?.status(), 'an unknown address').toBe(404);
    for (const path of ['/admin', '/admin/audit']) {
      const res = await tab.page.goto(`${base}${path}`);
      expect(res?.status(), path).toBe(unknown?.status());
      const notFound = tab.page.locator('main section.not-found');
      await notFound.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await notFound.getByRole('button').allInnerTexts(), path).toEqual(['Return Home', 'Go Back']);
      expect(await tab.page.title(), path).toBe('Page Not Found — LuxeMotors');
      expect(await tab.page.getByTestId('console').count(), path).toBe(0);
      expect(await tab.page.getByText('console', { exact: false }).count(), `${path}: nothing names the console`).toBe(0);
    }
    await tab.page.getByRole('button', { name: 'Open Menu' }).click();
    await mainNav(tab.page).getByRole('link', { name: 'Sell your car' }).waitFor();
    expect(await mainNav(tab.page).getByRole('link', { name: 'Console' }).count()).toBe(0);
    await tab.page.keyboard.press('Escape');
    await shot(tab.page, 'back-office-no-access-phone');
    expect(await violations(tab.page), 'no access').toEqual([]);
    // The API says the same.
    const res = await orderApi(t).call('GET', '/api/admin/overview', buyer);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_ALLOWED');
    // The browser reports each page that answers 404 as a failed load; those are expected.
    expectNoUnexpectedErrors(tab, EXPECTED_404);
  }, 60_000);

  it('an operator signed in with the password alone is sent to set up two-factor sign-in', async () => {
    const created = await createUser(t, { name: 'Nina Newhire' });
    await setRole(created.id, 'operator');
    // Signed in after the role was granted, without a second factor (none is set up yet).
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: created.email, password: TEST_PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const operator: SignedInUser = { ...created, accessToken: login.json().data.accessToken, refreshToken: login.json().data.refreshToken };
    const tab = await openTab(operator);
    await tab.page.goto(`${base}/admin/audit`);
    await tab.page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in to open the console' }).waitFor();
    const setUp = tab.page.getByRole('link', { name: 'Set Up Two-Factor Sign-In' });
    expect(await setUp.getAttribute('href')).toBe('/dashboard?tab=settings');
    await shot(tab.page, 'back-office-totp-required-desktop');
    await setUp.click();
    await tab.page.getByTestId('console-needs-totp').waitFor();
    // The console's address answers 404 to every browser (the app opens it for staff), which the browser reports.
    expectNoUnexpectedErrors(tab, new RegExp(`${EXPECTED_403.source}|${EXPECTED_404.source}`));
  }, 60_000);
});
