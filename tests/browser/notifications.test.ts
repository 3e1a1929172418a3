/**
 * Notifications beyond the open tab, in a real Chromium (contract "Notifications beyond the open
 * tab (v4)"): the app is installable (its manifest, icons and no installability errors), the
 * service worker shows a push delivered through the DevTools protocol and its click brings a tab
 * to the notification's page, and the dashboard's Settings → Notifications page: the event ×
 * channel matrix with its locked cells, quiet hours with errors at their field, turning this
 * device on (permission asked only then), its listing and removal, and a test notification that
 * travels server → push service → service worker.
 *
 * Headless Chromium has no push service of its own (it would need Google's, on the internet):
 * `pushManager.subscribe` is replaced in the page by one that hands out a subscription to a
 * local receiver, whose keys the test holds, so it can decrypt what the server sends (RFC 8291)
 * and deliver it to the worker as the push service would.
 */
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM_PATH, DESKTOP, PHONE, Tabs, closeBrowserApp, expectNoHorizontalScroll, expectNoUnexpectedErrors, screenshotFromTop, startBrowserApp, wcagProblems } from '../helpers/browser.ts';
import { createListing } from '../helpers/cars.ts';
import { freePort } from '../helpers/app.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';
import { waitFor } from '../helpers/wait.ts';

let browser: Browser;
let t: TestApp;
let base: string;
let receiver: PushReceiver;

const tabs = new Tabs(() => browser, { timeout: 15_000, viewport: DESKTOP });

beforeAll(async () => {
  const port = await freePort();
  receiver = await PushReceiver.start(port);
  ({ browser, t, base } = await startBrowserApp({ PUSH_ENDPOINT_HOSTS_ALLOWED: `127.0.0.1:${port}` }));
  serverRoutes = (await t.app.inject({ method: 'GET', url: '/api/push/public-key' })).statusCode !== 404;
});

/** Whether this build has the preferences and push routes (the server's side of the feature). */
let serverRoutes = false;

/** Skips, saying why, a test of the Settings page on a build without the server's routes. */
function needsServerRoutes(ctx: TestContext): void {
  if (serverRoutes) return;
  console.warn(`skipped "${ctx.task.name}": this build has no /api/users/notification-preferences or /api/push routes`);
  ctx.skip();
}

afterAll(async () => {
  await closeBrowserApp({ tabs, browser, t });
  await receiver?.stop();
});

// ── A push service on this machine ───────────────────────────────────────────────────────

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** A subscription's keys as a browser makes them: a P-256 key pair and a 16-byte auth secret. */
interface DeviceKeys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  p256dh: string;
}

function deviceKeys(): DeviceKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16), p256dh: b64url(ecdh.getPublicKey()) };
}

/** An `aes128gcm` message body (RFC 8188) encrypted for `keys` (RFC 8291), as plain text. */
function decryptPush(body: Buffer, keys: DeviceKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and then any padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not the last record of an aes128gcm message');
  return padded.subarray(0, end).toString('utf8');
}

interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Answers 201 to every push, as a push service that took it, and keeps what came. */
class PushReceiver {
  readonly received: ReceivedPush[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(port: number): Promise<PushReceiver> {
    const server = createServer();
    const receiver = new PushReceiver(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ── The browser's side ───────────────────────────────────────────────────────────────────

/**
 * Counts `Notification.requestPermission` calls (`window.__permissionAsks`), and stands in for
 * the browser's push service: `subscribe` gives a subscription at `endpoint` with `keys`.
 */
async function fakePushService(context: BrowserContext, endpoint: string, keys: DeviceKeys): Promise<void> {
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      const w = window as unknown as { __permissionAsks: number };
      w.__permissionAsks = 0;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = ((...args: Parameters<typeof Notification.requestPermission>) => {
        w.__permissionAsks += 1;
        return ask(...args);
      }) as typeof Notification.requestPermission;
      if (typeof PushManager === 'undefined') return;
      let current: PushSubscription | null = null;
      PushManager.prototype.getSubscription = async function () {
        return current;
      };
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey;
        const json = { endpoint, expirationTime: null, keys: { p256dh, auth } };
        current = {
          endpoint,
          expirationTime: null,
          options: { userVisibleOnly: true, applicationServerKey: key instanceof Uint8Array ? new Uint8Array(key).buffer : null },
          toJSON: () => json,
          getKey: () => null,
          unsubscribe: async () => {
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        return current;
      };
    },
    { endpoint, p256dh: keys.p256dh, auth: b64url(keys.auth) },
  );
}

const permissionAsks = (page: Page) => page.evaluate(() => (window as unknown as { __permissionAsks: number }).__permissionAsks);

interface WorkerHandle {
  cdp: CDPSession;
  registrationId: string;
}

/**
 * Registers /sw.js in `page` (as the Settings button does) and finds its registration through
 * the DevTools protocol, once its version is activated and the page is under it.
 */
async function registerWorker(page: Page): Promise<WorkerHandle> {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Map<string, string>();
  const activated = new Set<string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list) if (!r.isDeleted) registrations.set(r.registrationId, r.scopeURL);
  });
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions) if (v.status === 'activated') activated.add(v.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  const registrationId = await waitFor(() => [...registrations].find(([id, scope]) => scope === `${base}/` && activated.has(id))?.[0], {
    message: 'the service worker registration at / to be activated',
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return { cdp, registrationId };
}

function deliverPush(worker: WorkerHandle, data: string): Promise<unknown> {
  return worker.cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId: worker.registrationId, data });
}

interface Shown {
  title: string;
  body: string;
  icon: string;
  tag: string;
  data: { url: string; event: string | null; carId: number | null };
}

/** The notifications the service worker shows now, read in the page through its registration. */
function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, icon: n.icon, tag: n.tag, data: n.data as Shown['data'] }));
  });
}

/** The app's service worker as Playwright sees it. */
async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers().find((w) => w.url() === `${base}/sw.js`) ?? (await context.waitForEvent('serviceworker', (w) => w.url() === `${base}/sw.js`));
}

/**
 * Clicks the first notification shown. A headless browser draws no notification to click, so the
 * worker gets the `notificationclick` event its real click would give, for the same notification.
 */
async function clickNotification(context: BrowserContext): Promise<void> {
  const worker = await serviceWorker(context);
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent: (e: Event) => boolean };
    const [notification] = await scope.registration.getNotifications();
    if (!notification) throw new Error('no notification to click');
    const NotificationEventClass = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
    scope.dispatchEvent(new NotificationEventClass('notificationclick', { notification }));
  });
}

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

// ── Installable ──────────────────────────────────────────────────────────────────────────

describe('installable app', () => {
  it('serves a manifest with 192 and 512 px icons (one maskable) that every page links, and Chromium finds nothing that stops installing it', async () => {
    const { page, errors } = await tabs.open(null);
    const answer = await page.request.get(`${base}/manifest.webmanifest`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as { name: string; short_name: string; display: string; start_url: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose?: string }[] };
    expect(manifest).toMatchObject({ name: 'LuxeMotors', short_name: 'LuxeMotors', display: 'standalone', start_url: '/', theme_color: '#0b0d12' });
    for (const icon of manifest.icons) {
      const png = await page.request.get(`${base}${icon.src}`);
      expect(png.headers()['content-type'], icon.src).toBe('image/png');
      const [width] = icon.sizes.split('x').map(Number);
      expect(pngSize(await png.body()), icon.src).toEqual({ width, height: width });
    }
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose?.split(' ').includes('maskable'))).toBe(true);

    // A page drawn on the server (the listing), one drawn in the browser (sign-in) and the
    // answer for an unknown address each link it once.
    for (const path of ['/', '/login', '/no-such-page']) {
      const html = await (await page.request.get(`${base}${path}`)).text();
      expect(html.match(/<link rel="manifest" href="\/manifest\.webmanifest"/g), path).toHaveLength(1);
    }

    expectNoUnexpectedErrors({ errors });

    // Chromium installs nothing from an incognito window, which every test context is: the
    // check runs in a browser profile of its own.
    const profile = mkdtempSync(join(tmpdir(), 'lm-install-'));
    const installing = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const home = installing.pages()[0] ?? (await installing.newPage());
      await home.goto(`${base}/`);
      const cdp = await installing.newCDPSession(home);
      const manifestSeen = await cdp.send('Page.getAppManifest');
      expect(manifestSeen.errors).toEqual([]);
      expect(manifestSeen.url).toBe(`${base}/manifest.webmanifest`);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await installing.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('serves the service worker for the whole site, revalidated on every visit, under a policy that allows it', async () => {
    const { page } = await tabs.open(null);
    const answer = await page.request.get(`${base}/sw.js`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/javascript/);
    expect(answer.headers()['cache-control']).toBe('no-cache');
    expect(answer.headers()['service-worker-allowed']).toBe('/');
    const csp = (await page.request.get(`${base}/login`)).headers()['content-security-policy'] ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

// ── The service worker ───────────────────────────────────────────────────────────────────

describe('service worker', () => {
  it('shows a pushed notification with its title, body and icon, and its click brings the open tab to its page', async () => {
    const seller = await createUser(t, { name: 'Sam Seller' });
    const car = await createListing(t, seller, { make: 'Ferrari', model: 'SF90 Stradale' });
    const { context, page, errors } = await tabs.open(null);
    await context.grantPermissions(['notifications'], { origin: base });
    await page.goto(`${base}/escrow`);
    const worker = await registerWorker(page);

    const payload = { title: 'New bid on your 2021 Ferrari SF90 Stradale', body: 'Bidder bid $310,000', url: `/car/${car.id}`, event: 'bid_received', carId: car.id };
    await deliverPush(worker, JSON.stringify(payload));
    const [shown] = await waitFor(async () => {
      const list = await shownNotifications(page);
      return list.length > 0 && list;
    }, { message: 'the pushed notification to be shown' });
    expect(shown).toMatchObject({ title: payload.title, body: payload.body, icon: `${base}/icons/icon-192.png`, tag: `bid_received:${car.id}` });
    expect(shown!.data).toEqual({ url: `${base}/car/${car.id}`, event: 'bid_received', carId: car.id });

    // A second bid's notice on the same car replaces the first on the device.
    await deliverPush(worker, JSON.stringify({ ...payload, body: 'Bidder bid $320,000' }));
    await expect.poll(async () => (await shownNotifications(page)).map((n) => n.body)).toEqual(['Bidder bid $320,000']);

    await clickNotification(context);
    await page.waitForURL(`${base}/car/${car.id}`);
    await page.getByRole('heading', { level: 1, name: /Ferrari SF90 Stradale/ }).waitFor();
    expect(context.pages()).toHaveLength(1);
    await expect.poll(() => shownNotifications(page)).toEqual([]);
    expectNoUnexpectedErrors({ errors });
  });

  it('never opens another site: a payload naming one opens the home page', async () => {
    const { context, page } = await tabs.open(null);
    await context.grantPermissions(['notifications'], { origin: base });
    await page.goto(`${base}/escrow`);
    const worker = await registerWorker(page);
    await deliverPush(worker, JSON.stringify({ title: 'Hello', body: 'there', url: 'https://elsewhere.example/phish', event: 'moderation', carId: null }));
    const [shown] = await waitFor(async () => {
      const list = await shownNotifications(page);
      return list.length > 0 && list;
    });
    expect(shown!.data.url).toBe(`${base}/`);
    await clickNotification(context);
    await page.waitForURL(`${base}/`);
  });
});

// ── Settings → Notifications ─────────────────────────────────────────────────────────────

const cell = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });

async function openSettings(user: SignedInUser, options: { viewport?: typeof DESKTOP } = {}) {
  const tab = await tabs.open(user, options);
  const keys = deviceKeys();
  const endpoint = `${receiver.origin}/push/${user.id}-${Date.now()}`;
  await fakePushService(tab.context, endpoint, keys);
  await tab.page.goto(`${base}/dashboard?tab=settings`);
  await tab.page.getByRole('link', { name: 'Notification Settings' }).click();
  await tab.page.waitForURL(`${base}/dashboard/notifications`);
  await tab.page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await cell(tab.page, 'Bids on your cars by email').waitFor();
  return { ...tab, keys, endpoint };
}

describe('Settings → Notifications', () => {
  it('never asks for notification permission when a page loads, the Notifications page included', async () => {
    const user = await createUser(t, { name: 'Noah Noprompt' });
    const { context, page } = await tabs.open(user);
    await fakePushService(context, `${receiver.origin}/push/unused`, deviceKeys());
    for (const path of ['/', '/dashboard?tab=settings', '/dashboard/notifications']) {
      await page.goto(`${base}${path}`);
      expect(await permissionAsks(page), path).toBe(0);
    }
    // The device part is drawn from what the browser says, and still nothing was asked.
    await page.getByRole('button', { name: 'Turn on notifications on this device' }).waitFor();
    expect(await permissionAsks(page)).toBe(0);
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
  });

  it('saves a changed cell, keeps a locked one on, and never asks for permission on load', async (ctx) => {
    needsServerRoutes(ctx);
    const user = await createUser(t, { name: 'Pat Prefs' });
    const { page, errors } = await openSettings(user);
    expect(await permissionAsks(page)).toBe(0);
    expect(await page.title()).toBe('Notification settings — LuxeMotors');

    // The defaults: price drops in-app only; order updates always in-app and by email.
    const priceDropEmail = cell(page, 'Price drops by email');
    expect(await priceDropEmail.isChecked()).toBe(false);
    const locked = cell(page, 'Order updates by email');
    expect(await locked.isChecked()).toBe(true);
    expect(await locked.isDisabled()).toBe(true);
    // Said in words beside it and in its description, not by colour alone.
    expect(await page.locator('tr[data-event="order_update"] td[data-channel="email"]').innerText()).toContain('Always on');
    const lockNote = await locked.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${lockNote}"]`).innerText()).toContain('cannot be turned off');
    await locked.click({ force: true });
    expect(await locked.isChecked()).toBe(true);

    // Keyboard: Space toggles a focused cell.
    await priceDropEmail.focus();
    await page.keyboard.press('Space');
    expect(await priceDropEmail.isChecked()).toBe(true);
    await cell(page, 'Bids on your cars by push notification').uncheck();
    await screenshotFromTop(page, 'notification-settings-desktop');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect.poll(() => page.getByTestId('preferences-status').innerText()).toBe('Preferences saved');

    await page.reload();
    await cell(page, 'Price drops by email').waitFor();
    expect(await cell(page, 'Price drops by email').isChecked()).toBe(true);
    expect(await cell(page, 'Bids on your cars by push notification').isChecked()).toBe(false);
    expect(await cell(page, 'Order updates by email').isChecked()).toBe(true);
    expect(await permissionAsks(page)).toBe(0);

    const stored = (await t.app.inject({ method: 'GET', url: '/api/users/notification-preferences', headers: user.auth })).json().data;
    expect(stored.events.price_drop.email).toBe(true);
    expect(stored.events.order_update).toMatchObject({ inApp: true, email: true });

    expect(await wcagProblems(page)).toEqual([]);
    // Every WCAG 2.0-2.2 A/AA rule at every impact, as the other screens are held to.
    expect(await wcagProblems(page)).toEqual([]);
    expectNoUnexpectedErrors({ errors });
  });

  it('shows a quiet-hours problem at its field and focuses it: a missing time here, an unknown zone from the server', async (ctx) => {
    needsServerRoutes(ctx);
    const user = await createUser(t, { name: 'Quinn Quiet' });
    const { page, errors } = await openSettings(user);
    await page.getByRole('checkbox', { name: 'Hold email and push notifications during quiet hours' }).check();
    // The zone starts as the browser's own.
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await zone.inputValue()).toBe(browserZone);

    const from = page.getByLabel('From', { exact: true });
    await from.fill('');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect.poll(() => from.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    const fromError = await from.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${fromError}"]`).innerText()).toMatch(/start/);

    await from.fill('23:30');
    await page.getByLabel('Until', { exact: true }).fill('06:45');
    await zone.fill('Mars/Base');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect.poll(() => zone.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    const zoneError = (await zone.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'));
    expect(await page.locator(`[id="${zoneError}"]`).innerText()).not.toBe('');
    await screenshotFromTop(page, 'notification-settings-quiet-error');
    // Nothing was stored.
    const before = (await t.app.inject({ method: 'GET', url: '/api/users/notification-preferences', headers: user.auth })).json().data;
    expect(before.quietHours).toBeNull();

    await zone.fill('Europe/Paris');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect.poll(() => page.getByTestId('preferences-status').innerText()).toBe('Preferences saved');
    await page.reload();
    await page.getByRole('combobox', { name: 'Time zone' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Europe/Paris');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('23:30');
    expectNoUnexpectedErrors({ errors, }, /status of 400/);
  });

  it('turns this device on when pressed, lists it, sends it a test notification that the worker shows, and removes it', async (ctx) => {
    needsServerRoutes(ctx);
    const user = await createUser(t, { name: 'Dev Ice' });
    const { context, page, errors, keys, endpoint } = await openSettings(user);
    await context.grantPermissions(['notifications'], { origin: base });
    expect(await permissionAsks(page)).toBe(0);
    const devices = page.getByTestId('push-device');
    await page.getByText('No device receives push notifications yet.').waitFor();

    await page.getByRole('button', { name: 'Turn on notifications on this device' }).click();
    await page.getByText('Notifications are on for this device.').waitFor();
    expect(await permissionAsks(page)).toBe(1);
    await expect.poll(() => devices.count()).toBe(1);
    expect(await devices.first().innerText()).toContain('This device');
    expect(await devices.first().innerText()).toContain('127.0.0.1');
    await screenshotFromTop(page, 'notification-settings-device-on');

    // The test notification goes server → push service, encrypted for this device's keys.
    const already = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await page.getByText('A test notification is on its way').waitFor();
    const push = await waitFor(() => receiver.received.slice(already).find((p) => endpoint.endsWith(p.path)), { message: 'the test push at the receiver' });
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(decryptPush(push.body, keys)) as { title: string; body: string; url: string };

    // ... which the push service hands to the worker, and the worker shows.
    const worker = await registerWorker(page);
    await deliverPush(worker, JSON.stringify(payload));
    const [shown] = await waitFor(async () => {
      const list = await shownNotifications(page);
      return list.length > 0 && list;
    }, { message: 'the test notification to be shown' });
    expect(shown).toMatchObject({ title: payload.title, body: payload.body });

    await page.getByRole('button', { name: 'Remove this device' }).click();
    await page.getByText('This device no longer receives notifications.').waitFor();
    await page.getByText('No device receives push notifications yet.').waitFor();
    const list = (await t.app.inject({ method: 'GET', url: '/api/push/subscriptions', headers: user.auth })).json().data;
    expect(list.subscriptions).toEqual([]);
    await page.getByRole('button', { name: 'Turn on notifications on this device' }).waitFor();
    expectNoUnexpectedErrors({ errors });
  });

  it('fits a phone', async (ctx) => {
    needsServerRoutes(ctx);
    const user = await createUser(t, { name: 'Phoebe Phone' });
    const { page, errors } = await openSettings(user, { viewport: PHONE });
    await page.getByRole('checkbox', { name: 'Hold email and push notifications during quiet hours' }).check();
    await expectNoHorizontalScroll(page);
    await screenshotFromTop(page, 'notification-settings-phone');
    expectNoUnexpectedErrors({ errors });
  });
});
