/**
 * Accounts in a real browser against the real server, a real database and a real SMTP server
 * (spec §2 Login, Register, Dashboard, Verify email, Forgot/Reset password, navigation bar;
 * §4 session; §8 errors): register → emailed link → verified → sign in → dashboard → edit
 * profile → logout; the redirect back after /login; the "Email not verified" path; password
 * reset; and two tabs refreshing one rotated session without spending a token twice.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, closeBrowserApp, collectConsoleErrors, newAppContext, screenshot, startBrowserApp } from '../helpers/browser.ts';
import { TestMailbox, type ReceivedMail } from '../helpers/smtp.ts';
import { createUser, TEST_PASSWORD } from '../helpers/users.ts';
import { quietFor } from '../helpers/wait.ts';

const NEW_PASSWORD = 'N3w&Better-Pass';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleErrors: string[];
/** Failed requests (401/403) log console errors in Chromium; tests that provoke them say so. */
let allowedConsoleErrors: RegExp | null = null;

let t: TestApp;
let base: string;
let mailbox: TestMailbox;
let counter = 0;

const uniqueEmail = (label: string) => `${label}-${process.pid}-${Date.now()}-${++counter}@example.com`;

/** The path and query of the emailed link to `path`, opened on the test server. */
function linkOn(mail: ReceivedMail, path: string): string {
  const link = mail.links.map((l) => new URL(l)).find((u) => u.pathname === path);
  if (!link) throw new Error(`no ${path} link in "${mail.subject}"`);
  return `${base}${link.pathname}${link.search}`;
}

const nav = (p: Page = page) => p.getByRole('navigation', { name: 'Main' });
const pathOf = (p: Page = page) => new URL(p.url()).pathname;
const stored = (p: Page, key: string) => p.evaluate((k) => window.localStorage.getItem(k), key);

async function openPage(viewport = DESKTOP): Promise<void> {
  context = await newAppContext(browser, { viewport, timeout: 10_000 });
  page = await context.newPage();
  consoleErrors = collectConsoleErrors(page);
}

async function signIn(email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

beforeAll(async () => {
  mailbox = new TestMailbox();
  const smtpUrl = await mailbox.start();
  ({ browser, t, base } = await startBrowserApp({ SMTP_URL: smtpUrl }));
});

afterAll(async () => {
  await closeBrowserApp({ browser, t });
  await mailbox?.stop();
});

beforeEach(async () => {
  allowedConsoleErrors = null;
  await openPage();
});

afterEach(async () => {
  await context?.close();
  const unexpected = consoleErrors.filter((e) => !(allowedConsoleErrors && allowedConsoleErrors.test(e)));
  expect(unexpected, 'console or page errors').toEqual([]);
});

describe('Accounts', () => {
  it('registers, verifies by the emailed link, signs in, edits the profile and logs out', async () => {
    const email = uniqueEmail('ann');
    await page.goto(`${base}/register`);
    await expect.poll(() => page.title()).toBe('Sign Up — LuxeMotors');

    await page.getByLabel('Full name').fill('Ann Driver');
    await page.getByLabel('Email').fill(email);
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password', { exact: true });

    // The live checklist follows the shared policy as the user types.
    await password.fill('Abcdefg');
    const rules = page.getByTestId('password-checklist').getByRole('listitem');
    await expect.poll(() => rules.evaluateAll((items) => items.map((i) => i.getAttribute('data-met')))).toEqual([
      'false', // at least 8 characters
      'true', // uppercase
      'true', // lowercase
      'false', // number
      'false', // special
    ]);
    expect(await page.getByTestId('password-checklist').getAttribute('aria-live')).toBe('polite');
    await screenshot(page, 'register-checklist-desktop');

    // Submitting with unmet rules is refused in the spec's words, beside the password field,
    // which is marked invalid, described by the message and given focus.
    await confirm.fill('Abcdefg');
    await page.getByRole('button', { name: 'Create Account' }).click();
    const description = () => password.evaluate((input) => (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim());
    await expect.poll(description).toContain('Please meet all password requirements');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => password.evaluate((input) => document.activeElement === input)).toBe(true);

    // Show/hide on the confirm field, and the live mismatch hint.
    await password.fill(TEST_PASSWORD);
    await confirm.fill(`${TEST_PASSWORD}x`);
    await page.getByText('Passwords do not match').waitFor();
    expect(await confirm.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show confirm password' }).click();
    expect(await confirm.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide confirm password' }).waitFor();
    await confirm.fill(TEST_PASSWORD);
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBe(0);
    expect(await rules.evaluateAll((items) => items.every((i) => i.getAttribute('data-met') === 'true'))).toBe(true);

    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByRole('button', { name: 'Resend Verification Email' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');

    // Follow the emailed link.
    const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.links.some((l) => l.includes('/verify-email')));
    await page.goto(linkOn(mail, '/verify-email'));
    await page.getByRole('heading', { name: 'Email Verified!' }).waitFor();
    expect(await page.getByText(/live chat, bidding and escrow/).count()).toBe(1);
    await expect.poll(() => page.title()).toBe('Verify Email — LuxeMotors');
    // ...and after 3 seconds the sign-in screen.
    await page.waitForURL(`${base}/login`, { timeout: 6_000 });
    await expect.poll(() => page.title()).toBe('Sign In — LuxeMotors');

    await signIn(email, TEST_PASSWORD);
    await page.waitForURL(`${base}/`);
    await nav().getByRole('link', { name: 'Ann Driver' }).waitFor();
    expect(await nav().getByRole('link', { name: 'Sign In' }).count()).toBe(0);
    expect(await stored(page, 'luxemotors.refreshToken')).toBeTruthy();

    // Dashboard, from the navigation bar.
    await nav().getByRole('link', { name: 'Ann Driver' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Ann' }).waitFor();
    await expect.poll(() => page.title()).toBe('Dashboard — LuxeMotors');
    const card = page.getByTestId('profile-card');
    await card.getByRole('heading', { name: 'Ann Driver' }).waitFor();
    expect(await card.getByTestId('verified-badge').innerText()).toBe('Verified');
    expect(await card.getByText(email).count()).toBe(1);
    expect(await card.getByTestId('avatar-initials').innerText()).toBe('AD');
    expect(await card.getByText(/^Member since [A-Z][a-z]+ \d{4}$/).count()).toBe(1);
    // No verification alert for a verified account.
    expect(await page.getByText('Please verify your email address').count()).toBe(0);

    // Stat tiles: the server's figures (GET /api/users/dashboard), all zero for a new account.
    const tiles = page.getByTestId('stat-tile');
    expect(await tiles.count()).toBe(4);
    const tileText = await tiles.allInnerTexts();
    for (const [i, label] of ['Active Bids', 'Watchlist', 'Messages', 'Activity'].entries()) {
      expect(tileText[i]?.toLowerCase()).toContain(label.toLowerCase());
    }
    await expect.poll(() => tiles.getByTestId('stat-value').allTextContents()).toEqual(['0', '0', '0', '0']);

    // Tabs follow the ARIA tabs pattern.
    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Recent Activity', 'My Bids', 'Watchlist', 'Messages', 'Orders', 'Offers', 'My Listings', 'Saved searches', 'Settings']);
    expect(await page.getByRole('tab', { name: 'Recent Activity' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel').getByText('No recent activity yet').waitFor();
    await page.getByRole('tab', { name: 'Recent Activity' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'My Bids' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('My Bids');
    await page.getByRole('tabpanel', { name: 'My Bids' }).getByText('No bids yet').waitFor();
    await page.keyboard.press('End');
    const settings = page.getByRole('tabpanel', { name: 'Settings' });
    for (const tile of ['Profile Information', 'Security', 'Notifications', 'Payment Methods']) {
      await settings.getByRole('heading', { name: tile }).waitFor();
    }
    await page.keyboard.press('Home');
    await page.getByRole('tabpanel', { name: 'Recent Activity' }).waitFor();

    await screenshot(page, 'dashboard-desktop');
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'no sideways scrolling on a phone' }).toBe(PHONE.width);
    await screenshot(page, 'dashboard-phone');
    await page.setViewportSize(DESKTOP);

    // Edit Profile: a client-side check, then a saved change that the navigation bar shows.
    await card.getByRole('button', { name: 'Edit Profile' }).click();
    const form = page.getByRole('form', { name: 'Edit profile' });
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('name');
    await form.getByLabel('Phone').fill('call me');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await form.getByText('Phone may contain only digits, spaces and + ( ) - .').waitFor();
    expect(await form.getByLabel('Phone').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Full name').fill('Ann Racer');
    await form.getByLabel('Phone').fill('+1 (555) 010-0199');
    await form.getByLabel('Location').fill('Monaco');
    await form.getByLabel('Bio').fill('Collector of air-cooled classics.');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await card.getByText('Profile updated').waitFor();
    await nav().getByRole('link', { name: 'Ann Racer' }).waitFor();
    await card.getByRole('heading', { name: 'Ann Racer' }).waitFor();
    expect(await card.getByText('Monaco').count()).toBe(1);
    expect(JSON.parse((await stored(page, 'luxemotors.user')) ?? '{}')).toMatchObject({
      name: 'Ann Racer',
      phone: '+1 (555) 010-0199',
      location: 'Monaco',
    });

    // The change is on the server: a reload reads it back from GET /api/users/profile.
    await page.evaluate(() => {
      const user = JSON.parse(window.localStorage.getItem('luxemotors.user') ?? '{}') as Record<string, unknown>;
      window.localStorage.setItem('luxemotors.user', JSON.stringify({ ...user, name: 'Stale Copy' }));
    });
    await page.reload();
    await card.getByRole('heading', { name: 'Ann Racer' }).waitFor();
    await nav().getByRole('link', { name: 'Ann Racer' }).waitFor();

    // Logout from the navigation bar: the server session ends, the client forgets it, back to /.
    const refreshToken = await stored(page, 'luxemotors.refreshToken');
    const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/logout');
    await nav().getByRole('button', { name: 'Logout' }).click();
    expect((await loggedOut).status(), 'the server ended the session').toBe(200);
    await page.waitForURL(`${base}/`);
    await nav().getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await nav().getByRole('link', { name: 'Ann Racer' }).count()).toBe(0);
    expect(await stored(page, 'luxemotors.refreshToken')).toBeNull();
    expect(await stored(page, 'luxemotors.user')).toBeNull();
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
    expect(reuse.statusCode, 'the logged-out refresh token no longer works').toBe(401);
  });

  it('sends a signed-out visitor from /dashboard to /login, and back to /dashboard after signing in', async () => {
    const user = await createUser(t, { name: 'Bea Back' });
    // The server announces an ended session on the socket; the frames are watched from the start.
    const sockets: WebSocket[] = [];
    let announced!: () => void;
    const revocationAnnounced = new Promise<void>((resolve) => (announced = resolve));
    page.on('websocket', (socket) => {
      sockets.push(socket);
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('session:revoked')) announced();
      });
    });
    await page.goto(`${base}/dashboard`);
    await page.waitForURL(`${base}/login`);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();

    await signIn(user.email, TEST_PASSWORD);
    await page.waitForURL(`${base}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Bea' }).waitFor();

    // The dashboard's own Logout goes to / (not back to /login through the guard), even when the
    // server's announcement of the ended session, which it sends while handling the logout,
    // reaches the tab before the logout's answer does: the answer is held until the announcement
    // has arrived, or until it no longer can (the signed-in tab's sockets have all closed).
    await expect.poll(() => sockets.some((socket) => !socket.isClosed()), { timeout: 10_000, message: 'the live connection is open' }).toBe(true);
    const signedInSockets = sockets.filter((socket) => !socket.isClosed());
    const cannotArrive = Promise.all(signedInSockets.map((socket) => new Promise<void>((resolve) => (socket.isClosed() ? resolve() : socket.once('close', () => resolve())))));
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.route('**/api/auth/logout', async (route) => {
      const response = await route.fetch();
      await Promise.race([revocationAnnounced, cannotArrive]);
      await route.fulfill({ response });
    });
    const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/logout');
    await page.getByTestId('dashboard').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${base}/`);
    await nav().getByRole('link', { name: 'Sign In' }).waitFor();
    await loggedOut;
    await nav().getByRole('link', { name: 'Sign In' }).waitFor();
    expect(pathOf()).toBe('/');
    expect(visited, 'never through /login').toEqual(['/']);
  });

  it('shows "Email not verified" as information with a working resend, and other errors as errors', async () => {
    allowedConsoleErrors = /status of 40[13]/;
    const email = uniqueEmail('unverified');
    await createUser(t, { email, name: 'Una Verified', verified: false });
    await page.goto(`${base}/login`);

    // Show/hide on the password field.
    const password = page.getByLabel('Password', { exact: true });
    await password.fill(TEST_PASSWORD);
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(await page.getByRole('link', { name: 'Create one' }).getAttribute('href')).toBe('/register');
    await screenshot(page, 'login-desktop');

    // A wrong password is an error.
    await page.getByLabel('Email').fill(email);
    await password.fill('Wrong-passw0rd!');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid email or password');

    // The right password on an unverified account: an info alert (a status, not an error).
    await password.fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const info = page.getByTestId('email-not-verified');
    await info.waitFor();
    expect(await info.getAttribute('role')).toBe('status');
    expect(await info.getByText('Email not verified', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    const [r, g, b] = ((await info.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g) ?? []).map(Number) as [number, number, number];
    expect(r, 'the info alert is not in an error colour').toBeLessThanOrEqual(Math.max(g, b));
    expect(pathOf()).toBe('/login');
    await screenshot(page, 'login-not-verified-desktop');

    // Resend needs the email field.
    await page.getByLabel('Email').fill('');
    await info.getByRole('button', { name: 'Resend Verification Email' }).click();
    await info.getByText('Please enter your email address first').waitFor();

    const before = mailbox.to(email).length;
    await page.getByLabel('Email').fill(email);
    await info.getByRole('button', { name: 'Resend Verification Email' }).click();
    await info.getByText('Verification email sent! Check your inbox.').waitFor();
    await expect.poll(() => mailbox.to(email).length).toBe(before + 1);

    await page.setViewportSize(PHONE);
    await screenshot(page, 'login-not-verified-phone');
  });

  it('resets a forgotten password by the emailed link; the old password stops working', async () => {
    allowedConsoleErrors = /status of 40[01]/;
    const user = await createUser(t, { name: 'Rosa Reset' });
    await page.goto(`${base}/forgot-password`);
    const send = page.getByRole('button', { name: 'Send Reset Link' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill(user.email);
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByRole('button', { name: 'Send Another Email' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login');

    const mail = await mailbox.waitFor((m) => m.to.includes(user.email) && m.links.some((l) => l.includes('/reset-password')));
    const resetUrl = linkOn(mail, '/reset-password');

    await page.goto(`${base}/reset-password`);
    await page.getByText('Invalid or missing reset token').waitFor();

    await page.goto(resetUrl);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill('different');
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password Reset!' }).waitFor();
    expect(await page.getByText(/all devices/).count()).toBe(1);
    await page.waitForURL(`${base}/login`, { timeout: 6_000 });

    // The session created before the reset is gone; the old password no longer signs in.
    const stale = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: user.refreshToken } });
    expect(stale.statusCode).toBe(401);
    await signIn(user.email, TEST_PASSWORD);
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid email or password');
    await signIn(user.email, NEW_PASSWORD);
    await page.waitForURL(`${base}/`);
    await nav().getByRole('link', { name: 'Rosa Reset' }).waitFor();

    // The link is single-use.
    await page.goto(resetUrl);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Invalid reset token');
  });

  it('verify-email without a token, and with a spent token, explains the failure', async () => {
    allowedConsoleErrors = /status of 400/;
    await page.goto(`${base}/verify-email`);
    await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
    await page.getByText('No verification token provided').waitFor();
    expect(await page.getByRole('link', { name: 'Register Again' }).getAttribute('href')).toBe('/register');
    expect(await page.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');

    await page.goto(`${base}/verify-email?token=${'a'.repeat(43)}`);
    await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
    await page.getByText('Invalid or expired verification token').waitFor();
  });

  it('two tabs with an expired access token refresh the rotated session once and both stay signed in', async () => {
    allowedConsoleErrors = /status of 401/;
    const user = await createUser(t, { name: 'Tess Tabs' });
    const profile = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
    const session = {
      'luxemotors.accessToken': 'expired.access.token',
      'luxemotors.refreshToken': user.refreshToken,
      'luxemotors.user': JSON.stringify(profile.json().data),
    };
    await page.goto(`${base}/`);
    await page.evaluate((entries) => {
      for (const [k, v] of Object.entries(entries)) window.localStorage.setItem(k, v);
    }, session);

    // Hold every refresh for a moment so both tabs' 401s overlap the first refresh (a slow
    // network made on purpose, not a wait for anything).
    const refreshes: string[] = [];
    await context.route('**/api/auth/refresh-token', async (route) => {
      refreshes.push(route.request().postData() ?? '');
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });

    const second = await context.newPage();
    const secondErrors = collectConsoleErrors(second);
    await Promise.all([page.goto(`${base}/dashboard`), second.goto(`${base}/dashboard`)]);
    for (const p of [page, second]) {
      await p.getByRole('heading', { name: 'Welcome back, Tess' }).waitFor();
    }
    await expect.poll(() => stored(page, 'luxemotors.accessToken')).not.toBe('expired.access.token');
    await quietFor(800, 'a second refresh must NOT follow: a moment in which a straggling one would be sent');

    expect(refreshes, 'exactly one refresh with the original token').toHaveLength(1);
    expect(JSON.parse(refreshes[0] ?? '{}')).toEqual({ refreshToken: user.refreshToken });
    for (const p of [page, second]) {
      expect(pathOf(p)).toBe('/dashboard');
      await nav(p).getByRole('link', { name: 'Tess Tabs' }).waitFor();
    }
    // The rotated pair both tabs now hold is alive on the server (no reuse revoked it).
    const latest = await stored(second, 'luxemotors.refreshToken');
    expect(latest).not.toBe(user.refreshToken);
    const check = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken: latest } });
    expect(check.statusCode).toBe(200);
    expect(secondErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
