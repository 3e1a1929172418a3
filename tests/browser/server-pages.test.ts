/**
 * The pages drawn on the server in a real browser: the app takes over the markup it finds
 * without a hydration error, without a CSP violation and without moving anything on screen
 * (cumulative layout shift), for a visitor and for a signed-in user, and a car page reads the
 * same with JavaScript switched off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CarDetail, CarListItem } from '@common/schemas/cars.ts';
import { formatUsd } from '@common/pricing.ts';
import { dataOf } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import type { TestApp } from '../helpers/app.ts';
import { Tabs, closeBrowserApp, startBrowserApp, type Tab } from '../helpers/browser.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';
import { quietFor } from '../helpers/wait.ts';

/** Chromium's own target for a good page is 0.1; the issue asks for 0.02. */
const MAX_LAYOUT_SHIFT = 0.02;
/** React's production hydration errors (418: text or markup differs, 419/423: client render fallback, 425: text content), or any message about hydrating. */
const HYDRATION_ERROR = /Minified React error #(?:418|419|423|425)\b|hydrat/i;
const CSP_MESSAGE = /Content[- ]Security[- ]Policy|Refused to (?:execute|load|apply)/i;

let browser: Browser;
let t: TestApp;
let base: string;
let tabs: Tabs;
let buyer: SignedInUser;
let fixedCar: CarDetail;
let auctionCar: CarDetail;

const api = <T>(method: 'GET' | 'POST', url: string, user?: SignedInUser, payload?: object): Promise<T> => dataOf<T>(t, method, url, user, payload);

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  tabs = new Tabs(() => browser, { timeout: 10_000 });
  buyer = await createUser(t, { name: 'Hydra Buyer' });
  const seller = await createUser(t, { name: 'Hydra Seller' });
  const first = (await api<{ cars: CarListItem[] }>('GET', '/api/cars')).cars[0]!;
  fixedCar = await api<CarDetail>('GET', `/api/cars/${first.id}`);
  auctionCar = await listCar(t, seller, {
    model: 'Carrera GT',
    year: 2005,
    price: 900_000,
    mileage: 9_800,
    location: 'Scottsdale, AZ',
    description: 'Guards Red, six-speed manual, full service records.',
    bodyStyle: 'sports',
    auctionInSeconds: 2 * 86_400,
  });
  const bidder = await createUser(t, { name: 'Early Bidder' });
  await api('POST', '/api/bids', bidder, { carId: auctionCar.id, amount: 900_000 });
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ── What the page reports ──────────────────────────────────────────────────────────────────

interface Shift {
  value: number;
  startTime: number;
  hadRecentInput: boolean;
  sources: string[];
}

declare global {
  interface Window {
    __shifts?: Shift[];
    __cspViolations?: string[];
    __serverHeading?: Element;
  }
}

/**
 * Before any of the page's own code: record layout shifts and CSP violations, and mark every
 * the heading the HTML parser creates, so that after hydration we can tell whether React kept
 * the server's markup or threw it away and drew its own.
 */
async function observePage(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__shifts = [];
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
    const describe = (node: Node | null | undefined) => {
      if (!(node instanceof Element)) return String(node?.nodeName ?? 'gone');
      return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` : ''}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] })[]) {
        window.__shifts!.push({
          value: entry.value,
          startTime: entry.startTime,
          hadRecentInput: entry.hadRecentInput,
          sources: (entry.sources ?? []).map((s) => describe(s.node)),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // The first <h1> in the main area is the HTML parser's: the app's script runs only once the
    // document is parsed. Kept to tell, after hydration, whether React kept it or drew its own.
    new MutationObserver((_records, observer) => {
      const h1 = document.querySelector('main h1');
      if (!h1) return;
      window.__serverHeading = h1;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Cumulative layout shift as Chromium reports it: the worst session window (shifts < 1 s apart, ≤ 5 s long). */
function cumulativeLayoutShift(shifts: Shift[]): number {
  let worst = 0;
  let current = 0;
  let windowStart = 0;
  let last = -Infinity;
  for (const shift of shifts.filter((s) => !s.hadRecentInput)) {
    if (shift.startTime - last > 1_000 || shift.startTime - windowStart > 5_000) {
      current = 0;
      windowStart = shift.startTime;
    }
    current += shift.value;
    last = shift.startTime;
    worst = Math.max(worst, current);
  }
  return worst;
}

/** Every console message and page error of the tab, whatever its level. */
function recordMessages(tab: Tab): string[] {
  const messages: string[] = [];
  tab.page.on('console', (message) => messages.push(`console.${message.type()}: ${message.text()}`));
  tab.page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return messages;
}

interface Visit {
  tab: Tab;
  messages: string[];
}

async function openVisit(user: SignedInUser | null): Promise<Visit> {
  const tab = await tabs.open(user);
  const messages = recordMessages(tab);
  await observePage(tab.page);
  return { tab, messages };
}

/** Loads `path`, lets the page settle, and checks what the visitor would notice. */
async function loadAndSettle(visit: Visit, path: string): Promise<{ cls: number }> {
  const { page } = visit.tab;
  const res = await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  expect(res?.status(), path).toBe(200);
  await quietFor(500, 'the layout must NOT shift after the load: measured over a moment');
  const { shifts, violations, keptMarkup, hasPageData, firstPaintAt, firstCodeAt } = await page.evaluate(() => {
    const h1 = document.querySelector('main h1');
    const code = performance.getEntriesByType('resource').filter((r) => /^\/assets\/.+\.js$/.test(new URL(r.name).pathname));
    return {
      firstPaintAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      firstCodeAt: code.length === 0 ? null : Math.min(...code.map((r) => r.startTime)),
      shifts: window.__shifts ?? [],
      violations: window.__cspViolations ?? [],
      keptMarkup: h1 !== null && h1 === window.__serverHeading,
      hasPageData: document.getElementById('page-data') !== null,
    };
  });
  expect(hasPageData, `${path} was drawn on the server`).toBe(true);
  // The page is readable without the app: its code is asked for once the first paint is on screen.
  expect(firstPaintAt, `${path}: first contentful paint`).not.toBeNull();
  expect(firstCodeAt, `${path}: the app's code was loaded`).not.toBeNull();
  expect(firstCodeAt!, `${path}: the app's code was asked for after the first paint`).toBeGreaterThanOrEqual(firstPaintAt!);
  expect(visit.messages.filter((m) => HYDRATION_ERROR.test(m)), `${path}: hydration errors`).toEqual([]);
  expect(visit.messages.filter((m) => CSP_MESSAGE.test(m)), `${path}: CSP messages`).toEqual([]);
  expect(violations, `${path}: CSP violations`).toEqual([]);
  expect(keptMarkup, `${path}: the server's <h1> is still the one on screen after hydration`).toBe(true);
  const cls = cumulativeLayoutShift(shifts);
  const moved = shifts.filter((s) => s.value > 0.001).map((s) => `${s.value.toFixed(4)} at ${Math.round(s.startTime)} ms: ${s.sources.join(', ')}`);
  expect(cls, `${path}: layout shifts\n${moved.join('\n')}`).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
  expect(visit.tab.errors, `${path}: console errors`).toEqual([]);
  return { cls };
}

/** The app is running: a click changes what the page shows. */
async function expectInteractive(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Open Menu' });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    return;
  }
  // At desktop width the menu is open already; the notifications bell still answers a click.
  const bell = page.getByRole('button', { name: 'Notifications' });
  await bell.click();
  await expect.poll(() => bell.getAttribute('aria-expanded')).toBe('true');
}

const name = (car: { year: number; make: string; model: string }) => `${car.year} ${car.make} ${car.model}`;

// ── The pages ──────────────────────────────────────────────────────────────────────────────

describe('a page drawn on the server, taken over by the app', () => {
  it.each([
    ['the listing', () => '/', () => 'Exceptional cars, bought with confidence'],
    ['a car', () => `/car/${fixedCar.id}`, () => name(fixedCar)],
    ['testimonials', () => '/testimonials', () => 'Testimonials'],
    ['escrow', () => '/escrow', () => 'Buy with complete protection'],
    ['sold results', () => '/results', () => 'Sold results'],
    ['a car with an auction running', () => `/car/${auctionCar.id}`, () => name(auctionCar)],
  ])('%s: no hydration error, no CSP violation, no layout shift', async (_label, path, heading) => {
    const visit = await openVisit(null);
    try {
      const { cls } = await loadAndSettle(visit, path());
      expect(await visit.tab.page.locator('main h1').first().innerText()).toBe(heading());
      await expectInteractive(visit.tab.page);
      console.log(`${path()}: CLS ${cls.toFixed(4)}`);
    } finally {
      await visit.tab.close();
    }
  });

  it('shows a running auction with its bid and time left once the app runs', async () => {
    const visit = await openVisit(null);
    try {
      await loadAndSettle(visit, `/car/${auctionCar.id}`);
      const { page } = visit.tab;
      await expect.poll(() => page.getByTestId('highest-bid').innerText()).toContain(formatUsd(900_000));
    } finally {
      await visit.tab.close();
    }
  });

  it.each([
    ['a car', () => `/car/${fixedCar.id}`],
    ['the listing', () => '/'],
  ])('for a signed-in user, %s shows them in the navigation bar, without a hydration error or a shift', async (_label, path) => {
    const visit = await openVisit(buyer);
    try {
      await loadAndSettle(visit, path());
      const auth = visit.tab.page.locator('.navbar__auth');
      await expect.poll(() => auth.innerText()).toContain(buyer.name);
      expect(await auth.innerText()).not.toContain('Sign In');
      await expectInteractive(visit.tab.page);
    } finally {
      await visit.tab.close();
    }
  });

  it('keeps the escrow plan chosen earlier in the tab, without a hydration error or a shift', async () => {
    const visit = await openVisit(null);
    const { page } = visit.tab;
    const toggle = (plan: string) => page.getByRole('button', { name: `Select Plan: ${plan}` });
    try {
      await loadAndSettle(visit, '/escrow');
      await toggle('Platinum Elite').click();
      await expect.poll(() => toggle('Platinum Elite').getAttribute('aria-pressed')).toBe('true');
      visit.messages.length = 0;
      // The same tab comes back to the page: the server draws the default plan, the app the chosen one.
      await loadAndSettle(visit, '/escrow');
      await expect.poll(() => toggle('Platinum Elite').getAttribute('aria-pressed')).toBe('true');
      expect(await toggle('Premium Shield').getAttribute('aria-pressed')).toBe('false');
    } finally {
      await visit.tab.close();
    }
  });

  it('keeps the escrow plan chosen in the tab selected after a reload, without a hydration error', async () => {
    const visit = await openVisit(null);
    const { page } = visit.tab;
    const toggle = (plan: string) => page.getByRole('button', { name: `Select Plan: ${plan}` });
    try {
      await loadAndSettle(visit, '/escrow');
      expect(await toggle('Premium Shield').getAttribute('aria-pressed'), 'the default plan').toBe('true');
      await toggle('Basic Protection').click();
      await expect.poll(() => toggle('Basic Protection').getAttribute('aria-pressed')).toBe('true');
      visit.messages.length = 0;
      const res = await page.reload({ waitUntil: 'networkidle' });
      expect(res?.status()).toBe(200);
      // The server drew the default plan; once the app runs, the stored choice is the one selected.
      await expectInteractive(page);
      await expect.poll(() => toggle('Basic Protection').getAttribute('aria-pressed')).toBe('true');
      expect(await toggle('Premium Shield').getAttribute('aria-pressed')).toBe('false');
      expect(await page.getByTestId('plan-choice').innerText()).toMatch(/^Basic Protection selected\./);
      expect(visit.messages.filter((m) => HYDRATION_ERROR.test(m)), 'hydration errors').toEqual([]);
      expect(visit.tab.errors, 'console errors').toEqual([]);
    } finally {
      await visit.tab.close();
    }
  });
});

describe("a page's title", () => {
  it.each([
    ['the listing', () => '/', 200],
    ['a later page of the listing', () => '/?page=2', 200],
    ['a car', () => `/car/${fixedCar.id}`, 200],
    ['a car with an auction running', () => `/car/${auctionCar.id}`, 200],
    ['testimonials', () => '/testimonials', 200],
    ['escrow', () => '/escrow', 200],
    ['sold results', () => '/results', 200],
    ['a car that is not there', () => '/car/999999', 404],
    ['a path no page takes', () => '/no/such/page', 404],
  ])('%s: the title the server wrote is the one the app keeps', async (_label, path, status) => {
    const visit = await openVisit(null);
    const { page } = visit.tab;
    try {
      // Every title the tab shows, from the HTML parser's on.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __titles: string[] }).__titles = seen;
        new MutationObserver(() => {
          if (document.title && document.title !== seen.at(-1)) seen.push(document.title);
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const res = await page.goto(`${base}${path()}`, { waitUntil: 'networkidle' });
      expect(res?.status(), path()).toBe(status);
      const drawn = await page.evaluate((html) => new DOMParser().parseFromString(html, 'text/html').title, await res!.text());
      expect(drawn, `${path()}: the server's <title>`).toMatch(/\S — LuxeMotors$/);
      // The app has taken over (a click is answered) and set the title from its own screen.
      await expectInteractive(page);
      expect(await page.title(), `${path()}: the title once the app runs`).toBe(drawn);
      expect(await page.evaluate(() => (window as unknown as { __titles: string[] }).__titles), `${path()}: every title the tab showed`).toEqual([drawn]);
      expect(visit.messages.filter((m) => HYDRATION_ERROR.test(m)), `${path()}: hydration errors`).toEqual([]);
    } finally {
      await visit.tab.close();
    }
  });
});

describe('the parts that wait for the session', () => {
  it('appear whole the moment the app takes over, for a visitor who asks for reduced motion', async () => {
    // The tabs ask for reduced motion. Whatever reduced motion does to transitions must not
    // reveal the bid form's sentence a piece at a time: read at the very commit that removes
    // [data-awaiting-session], the text on screen is already all there.
    const visit = await openVisit(null);
    try {
      const { page } = visit.tab;
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __revealed: string[] }).__revealed = seen;
        new MutationObserver((records) => {
          for (const record of records) {
            const form = record.target as HTMLElement;
            if (record.attributeName !== 'data-awaiting-session' || form.hasAttribute('data-awaiting-session')) continue;
            const reason = form.querySelector<HTMLElement>('[data-testid="bid-blocked-reason"]');
            if (reason) seen.push(reason.innerText);
          }
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-awaiting-session'] });
      });
      await loadAndSettle(visit, `/car/${fixedCar.id}`);
      expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
      const revealed = await page.evaluate(() => (window as unknown as { __revealed: string[] }).__revealed);
      expect(revealed).toEqual(['Sign in to place a bid.']);
    } finally {
      await visit.tab.close();
    }
  });
});

describe('a car page without JavaScript', () => {
  it('shows its name, price, first photo and description', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      const page = await context.newPage();
      const res = await page.goto(`${base}/car/${fixedCar.id}`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('h1').innerText()).toBe(name(fixedCar));
      expect(await page.getByTestId('asking-price').innerText()).toBe(formatUsd(fixedCar.price));
      expect(await page.getByText(fixedCar.description).first().isVisible()).toBe(true);
      const photo = page.locator('main img').first();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await page.title()).toContain(name(fixedCar));
      // And a car that is not there says so, with its real status.
      const missing = await page.goto(`${base}/car/999999`);
      expect(missing?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe('Car Not Found');
    } finally {
      await context.close();
    }
  });
});

describe('the checks above', () => {
  it('see a hydration error, a thrown-away heading and a refused inline script when the HTML is not what the app draws', async () => {
    const visit = await openVisit(null);
    const { page } = visit.tab;
    try {
      // The server's HTML altered on its way: the app draws another heading than the one it finds.
      await page.route(`${base}/escrow`, async (route) => {
        const response = await route.fetch();
        const html = (await response.text())
          .replace('Buy with complete protection</h1>', 'Buy with complete protection, altered</h1>')
          .replace('</body>', '<script>document.title = "inline script ran"</script></body>');
        await route.fulfill({ response, body: html });
      });
      await page.goto(`${base}/escrow`, { waitUntil: 'networkidle' });
      await expect.poll(() => visit.messages.some((m) => HYDRATION_ERROR.test(m)), { timeout: 5_000 }).toBe(true);
      expect(await page.evaluate(() => document.querySelector('main h1') === window.__serverHeading)).toBe(false);
      expect(await page.locator('main h1').innerText()).toBe('Buy with complete protection');
      expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([expect.stringMatching(/^script-src/)]);
      expect(visit.messages.some((m) => CSP_MESSAGE.test(m))).toBe(true);
      expect(await page.title()).not.toBe('inline script ran');
    } finally {
      await visit.tab.close();
    }
  });

  it('see a layout shift when content moves after the page has loaded', async () => {
    const visit = await openVisit(null);
    const { page } = visit.tab;
    try {
      await page.goto(`${base}/escrow`, { waitUntil: 'networkidle' });
      await page.evaluate(() => {
        const banner = document.createElement('div');
        banner.style.height = '200px';
        document.querySelector('main')!.prepend(banner);
      });
      // Layout shifts are reported a frame or two after they happen.
      await expect.poll(async () => cumulativeLayoutShift(await page.evaluate(() => window.__shifts ?? [])), { timeout: 5_000 }).toBeGreaterThan(MAX_LAYOUT_SHIFT);
    } finally {
      await visit.tab.close();
    }
  });
});
