/**
 * Every route of spec §2's route table in a real browser against the real server, at a desktop
 * (1280×900) and a phone (375×812) width: each screen's key texts, its page title, no console
 * errors, no serious or critical axe-core violations, and a screenshot under
 * test-results/screenshots/routes/. Then the behaviours of the screens built on this sweep:
 * testimonial filters and sharing, the escrow plan toggle carried into an order, the FAQ, a real
 * support ticket, system status (also degraded), the dashboard on real data, the watch button,
 * the 404 buttons, the mobile menu, a listing page past the end and scroll restoration.
 */
import { isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { minimumBid } from '@common/bid-rules.ts';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { cars } from '../../db/schema/index.ts';
import { SAMPLE_TESTIMONIALS } from '../../db/seed/sample-data.ts';
import { dataOf } from '../helpers/api.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, closeBrowserApp, collectConsoleErrors, expectNoHorizontalScroll, startBrowserApp, loadAllImages, newAppContext, screenshot, wcagViolations, usd, type Viewport } from '../helpers/browser.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';
import { quietFor } from '../helpers/wait.ts';

const SETTLE = { timeout: 10_000 };

// ---------------------------------------------------------------------------------------------
// Expectations from the sample data, computed here rather than by the app.

const RECENT_AFTER = Date.parse('2024-08-01T00:00:00.000Z');
const sampleStats = (() => {
  const ratings = SAMPLE_TESTIMONIALS.map((t) => t.rating);
  return {
    count: SAMPLE_TESTIMONIALS.length,
    average: (Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10).toFixed(1),
    verified: SAMPLE_TESTIMONIALS.filter((t) => t.verified).length,
    satisfaction: Math.round((ratings.filter((r) => r >= 4).length / ratings.length) * 100),
  };
})();

// ---------------------------------------------------------------------------------------------

let browser: Browser;
let t: TestApp;
let base: string;
/** A user with a bid, a watched car, a message and an order: the dashboard screenshots show data. */
let olivia: SignedInUser;
let catalogue: { id: number; year: number; make: string; model: string; price: number }[];
let fixedPrice: typeof catalogue;

const titleOf = (c: { year: number; make: string; model: string }) => `${c.year} ${c.make} ${c.model}`;

const api = <T>(method: 'GET' | 'POST' | 'DELETE', url: string, user?: SignedInUser, payload?: object): Promise<T> => dataOf<T>(t, method, url, user, payload);

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  catalogue = (
    await t.database.db.select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model, price: cars.price }).from(cars)
  ).sort((a, b) => a.price - b.price);
  // Fixed-price listings: the flows below buy at the asking price (auctions are sold by bidding).
  fixedPrice = (
    await t.database.db.select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model, price: cars.price }).from(cars).where(isNull(cars.auctionEndsAt))
  ).sort((a, b) => a.price - b.price);

  olivia = await createUser(t, { name: 'Olivia Sterling' });
  const [cheap, mid] = [fixedPrice[0]!, fixedPrice[3]!];
  await api('POST', '/api/bids', olivia, { carId: mid.id, amount: minimumBid(mid.price, null) });
  await api('POST', '/api/watchlist', olivia, { carId: cheap.id });
  await api('POST', '/api/chat', olivia, { carId: mid.id, message: 'Is the service history complete?' });
  await api('POST', '/api/orders', olivia, { carId: cheap.id, amount: cheap.price, plan: 'premium' });
});

afterAll(() => closeBrowserApp({ browser, t }));

/** A context signed in as `user` (from its first page load) or a visitor's. */
const newContext = (viewport: Viewport, user?: SignedInUser): Promise<BrowserContext> => newAppContext(browser, { viewport, timeout: 10_000, user });

async function expectAccessible(page: Page, label: string, known: string[] = []): Promise<void> {
  const violations = await wcagViolations(page);
  if (violations.length > 0) console.log(`axe violations on ${label}:\n${JSON.stringify(violations, null, 2)}`);
  expect(
    violations.filter((v) => !known.includes(v.id)),
    `WCAG 2.x A/AA axe violations on ${label}`,
  ).toEqual([]);
}

const text = (page: Page, value: string | RegExp) => page.getByText(value).first();
const pathOf = (page: Page) => new URL(page.url()).pathname;

// ---------------------------------------------------------------------------------------------
// The route sweep.

interface RouteCheck {
  name: string;
  path: () => string;
  title: string | RegExp;
  signedIn?: boolean;
  /** The page's HTTP status: 200 unless said (a path no page takes answers 404). */
  status?: number;
  /** Waits for the screen and asserts its key spec texts. */
  check: (page: Page) => Promise<void>;
  /**
   * axe rules known to fail on a screen another engineer is rebuilding right now, reported (printed)
   * but not failing this sweep; every other rule still does.
   */
  knownAxeIssues?: string[];
}

const ROUTES: RouteCheck[] = [
  {
    name: 'listings',
    path: () => '/',
    title: 'Cars — LuxeMotors',
    async check(page) {
      await page.getByTestId('car-card').first().waitFor();
      await page.getByRole('searchbox', { name: 'Search vehicles' }).waitFor();
      expect(await page.getByPlaceholder('Search by make, model, or year...').count()).toBe(1);
      await expect.poll(() => page.getByTestId('listing-count').innerText()).toBe(`Showing 12 of ${catalogue.length} vehicles`);
      // The heart on each card: a visitor is sent to sign in.
      const first = page.getByTestId('car-card').first();
      const title = await first.locator('h3').innerText();
      expect(await first.getByRole('link', { name: `Sign in to watch ${title}` }).getAttribute('href')).toBe('/login');
    },
  },
  {
    name: 'car-detail',
    path: () => `/car/${catalogue[0]!.id}`,
    title: /LuxeMotors$/,
    async check(page) {
      await page.getByRole('heading', { level: 1, name: titleOf(catalogue[0]!) }).waitFor();
      // The spec's contact button stays; escrow ordering sits beside it.
      await page.getByRole('link', { name: 'Place Order - Contact Sales' }).first().waitFor();
      await page.getByText('Sign in to Buy with Escrow').first().waitFor();
    },
  },
  {
    name: 'login',
    path: () => '/login',
    title: 'Sign In — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
      await page.getByRole('link', { name: 'Forgot password?' }).waitFor();
      await page.getByRole('link', { name: 'Create one' }).waitFor();
      await page.getByLabel('Email').waitFor();
    },
  },
  {
    name: 'register',
    path: () => '/register',
    title: 'Sign Up — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Create Your Account' }).waitFor();
      await page.getByLabel('Full name').waitFor();
      await page.getByRole('button', { name: 'Create Account' }).waitFor();
    },
  },
  {
    name: 'dashboard',
    path: () => '/dashboard',
    title: 'Dashboard — LuxeMotors',
    signedIn: true,
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Welcome back, Olivia' }).waitFor();
      const tiles = page.getByTestId('stat-tile');
      const readTiles = () =>
        tiles.evaluateAll((els) =>
          els.map((el) => `${el.querySelector('.stat-tile__label')?.textContent} ${el.querySelector('[data-testid="stat-value"]')?.textContent}`),
        );
      await expect.poll(readTiles, SETTLE).toEqual(['Active Bids 1', 'Watchlist 1', 'Messages 1', expect.stringMatching(/^Activity [1-9]\d*$/)]);
      const tabs = page.getByRole('tablist', { name: 'Dashboard sections' }).getByRole('tab');
      expect(await tabs.allInnerTexts()).toEqual(['Recent Activity', 'My Bids', 'Watchlist', 'Messages', 'Orders', 'Offers', 'My Listings', 'Saved searches', 'Settings']);
      await page.getByTestId('activity-item').first().waitFor();
    },
  },
  {
    name: 'verify-email',
    path: () => '/verify-email',
    title: 'Verify Email — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Verification Failed' }).waitFor();
      await text(page, 'No verification token provided').waitFor();
    },
  },
  {
    name: 'forgot-password',
    path: () => '/forgot-password',
    title: 'Forgot Password — LuxeMotors',
    async check(page) {
      const send = page.getByRole('button', { name: 'Send Reset Link' });
      await send.waitFor();
      expect(await send.isDisabled(), 'disabled while the email is empty').toBe(true);
      await page.getByLabel('Email').fill('ann@example.com');
      expect(await send.isEnabled()).toBe(true);
      await page.getByLabel('Email').fill('');
      expect(await send.isDisabled()).toBe(true);
    },
  },
  {
    name: 'reset-password',
    path: () => '/reset-password',
    title: 'Reset Password — LuxeMotors',
    async check(page) {
      await text(page, 'Invalid or missing reset token').waitFor();
    },
  },
  {
    name: 'testimonials',
    path: () => '/testimonials',
    title: 'Testimonials — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Testimonials' }).waitFor();
      await page.getByTestId('testimonial-card').first().waitFor();
      const readStats = () =>
        page
          .getByTestId('testimonial-stat')
          .evaluateAll((els) => els.map((el) => `${el.querySelector('.stat-strip__value')?.textContent} ${el.querySelector('.stat-strip__label')?.textContent}`));
      await expect.poll(readStats, SETTLE).toEqual([
        `${sampleStats.count} Reviews`,
        `${sampleStats.average} / 5 Average rating`,
        `${sampleStats.verified} Verified buyers`,
        `${sampleStats.satisfaction}% Satisfaction`,
      ]);
      const group = page.getByRole('group', { name: 'Filter testimonials' });
      expect(await group.getByRole('button').allInnerTexts()).toEqual(['All', 'Verified', 'Recent']);
      // A visitor is invited to sign in to share.
      await page.getByRole('link', { name: 'Sign in to share your experience' }).waitFor();
    },
  },
  {
    name: 'escrow',
    path: () => '/escrow',
    title: 'Escrow Service — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'Buy with complete protection' }).waitFor();
      const steps = page.locator('.escrow-step h3');
      expect(await steps.allInnerTexts()).toEqual(['Secure Payment', 'Vehicle Inspection', 'Approval Process', 'Payment Release']);
      const plans = page.getByTestId('plan-card');
      expect(await plans.locator('h3').allInnerTexts()).toEqual(['Basic Protection', 'Premium Shield', 'Platinum Elite']);
      const planText = await plans.allInnerTexts();
      expect(planText[0]).toContain('$199');
      expect(planText[0]).toContain('up to $100,000');
      expect(planText[0]).toContain('3-day money-back');
      expect(planText[1]).toContain('$399');
      expect(planText[1]).toContain('up to $500,000');
      expect(planText[1]).toContain('7-day guarantee');
      expect(planText[1]).toContain('Insurance up to $10K');
      expect(planText[1]).toMatch(/most popular/i);
      expect(planText[2]).toContain('$799');
      expect(planText[2]).toContain('up to $1,000,000');
      expect(planText[2]).toContain('14-day guarantee');
      expect(planText[2]).toContain('Insurance up to $25K');
      await page.getByRole('heading', { name: 'Beware of escrow scams' }).waitFor();
    },
  },
  {
    name: 'support',
    path: () => '/support',
    title: 'Support — LuxeMotors',
    async check(page) {
      await page.getByRole('heading', { level: 1, name: 'How can we help?' }).waitFor();
      await page.getByTestId('faq-item').first().waitFor();
      const options = await page.getByTestId('contact-option').allInnerTexts();
      expect(options).toHaveLength(3);
      expect(options[0]).toContain('Phone');
      expect(options[0]).toContain('Mon-Fri 8AM-8PM PST');
      expect(options[1]).toContain('Email');
      expect(options[1]).toContain('Response within 4 hours');
      expect(options[2]).toContain('Live Chat');
      expect(options[2]).toContain('24/7');
      const tabs = page.getByRole('tablist', { name: 'Help centre' }).getByRole('tab');
      expect(await tabs.allInnerTexts()).toEqual(['FAQ', 'Submit a Ticket', 'System Status']);
      expect(await page.getByTestId('faq-item').count()).toBeGreaterThanOrEqual(10);
    },
  },
  {
    name: 'not-found',
    path: () => '/no-such-page',
    status: 404,
    title: 'Page Not Found — LuxeMotors',
    async check(page) {
      await page.getByRole('button', { name: 'Return Home' }).waitFor();
      await page.getByRole('button', { name: 'Go Back' }).waitFor();
    },
  },
];

const VIEWPORTS = [
  { label: 'desktop', viewport: DESKTOP },
  { label: 'phone', viewport: PHONE },
] as const;

describe(`every route at ${DESKTOP.width}×${DESKTOP.height} and ${PHONE.width}×${PHONE.height}`, () => {
  /** Per viewport: a visitor's page and a signed-in one, each recording its console errors. */
  const tabs = new Map<string, { visitor: Page; member: Page; errors: Map<Page, string[]> }>();
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    for (const { label, viewport } of VIEWPORTS) {
      const visitorContext = await newContext(viewport);
      const memberContext = await newContext(viewport, olivia);
      contexts.push(visitorContext, memberContext);
      const visitor = await visitorContext.newPage();
      const member = await memberContext.newPage();
      tabs.set(label, { visitor, member, errors: new Map([[visitor, collectConsoleErrors(visitor)], [member, collectConsoleErrors(member)]]) });
    }
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  async function sweep(route: RouteCheck, label: string): Promise<void> {
    const tab = tabs.get(label)!;
    const page = route.signedIn ? tab.member : tab.visitor;
    const errors = tab.errors.get(page)!;
    errors.length = 0;
    const response = await page.goto(`${base}${route.path()}`);
    const status = route.status ?? 200;
    expect(response?.status(), `${route.name} (${label}) status`).toBe(status);
    await route.check(page);
    await expect.poll(() => page.title(), SETTLE).toMatch(route.title);
    // No horizontal scrolling at any width.
    await expectNoHorizontalScroll(page, `${route.name} (${label}) width`);
    await expectAccessible(page, `${route.name} (${label})`, route.knownAxeIssues);
    await loadAllImages(page, SETTLE);
    await screenshot(page, `routes/${route.name}-${label}`);
    // The browser reports a page that answers 404 as a failed load; that one is expected.
    const unexpected = status === 404 ? errors.filter((e) => !/Failed to load resource: .* 404 \(Not Found\)/.test(e)) : errors;
    expect(unexpected, `console or page errors on ${route.name} (${label})`).toEqual([]);
  }

  for (const route of ROUTES) {
    // Both widths at once: two renderer processes share the work.
    it(route.name, async () => {
      await Promise.all(VIEWPORTS.map(({ label }) => sweep(route, label)));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Behaviours.

describe('screens', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  /** Tests that provoke failing requests on purpose say which console errors they expect. */
  let allowedErrors: RegExp | null;

  async function open(viewport = DESKTOP, user?: SignedInUser): Promise<void> {
    context = await newContext(viewport, user);
    page = await context.newPage();
    errors = collectConsoleErrors(page);
  }

  beforeEach(() => {
    allowedErrors = null;
  });
  afterEach(async () => {
    await context?.close();
    expect(errors.filter((e) => !allowedErrors?.test(e)), 'console or page errors').toEqual([]);
  });

  it('filters testimonials: Verified shows only verified ones, Recent only those after 1 August 2024', async () => {
    await open();
    const all = (await api<{ testimonials: { verified: boolean; date: string }[] }>('GET', '/api/testimonials')).testimonials;
    await page.goto(`${base}/testimonials`);
    const cards = page.getByTestId('testimonial-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(all.length);
    const group = page.getByRole('group', { name: 'Filter testimonials' });
    const read = () => cards.evaluateAll((els) => els.map((el) => ({ verified: el.getAttribute('data-verified'), date: el.getAttribute('data-date')! })));

    await group.getByRole('button', { name: 'Verified' }).click();
    expect(await group.getByRole('button', { name: 'Verified' }).getAttribute('aria-pressed')).toBe('true');
    const verified = await read();
    expect(verified).toHaveLength(all.filter((x) => x.verified).length);
    expect(verified.every((c) => c.verified === 'true')).toBe(true);
    // Every verified card carries the badge.
    expect(await cards.getByTestId('verified-badge').count()).toBe(verified.length);

    await group.getByRole('button', { name: 'Recent' }).click();
    const recent = await read();
    expect(recent).toHaveLength(all.filter((x) => Date.parse(x.date) > RECENT_AFTER).length);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((c) => Date.parse(c.date) > RECENT_AFTER)).toBe(true);

    await group.getByRole('button', { name: 'All' }).click();
    expect(await cards.count()).toBe(all.length);

    // Cards: stars with a text alternative, the purchase formatted in USD, the date in words.
    const michael = SAMPLE_TESTIMONIALS.find((x) => x.customerName === 'Michael Thompson')!;
    const card = cards.filter({ hasText: michael.customerName });
    await card.getByRole('img', { name: `Rated ${michael.rating} out of 5 stars` }).waitFor();
    const cardText = await card.innerText();
    expect(cardText).toContain(usd(michael.purchaseAmount));
    expect(cardText).toContain(michael.carPurchased);
    expect(cardText).toContain('March 14, 2024');
    expect(cardText).toContain(michael.location);
    expect(cardText).toContain('MT'); // initials in place of a photo
  });

  it('shows the error state with Retry when testimonials fail to load', async () => {
    await open();
    allowedErrors = /503|Failed to load resource/;
    let fail = true;
    await page.route('**/api/testimonials', (route) =>
      fail ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service temporarily unavailable', code: 'UNAVAILABLE' }) }) : route.continue(),
    );
    // The page drawn on the server arrives with its testimonials; the screen reads them itself
    // when reached within the app, which is where the failure can show.
    await page.goto(`${base}/support`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Testimonials' }).click();
    await page.getByRole('alert').getByText('Service temporarily unavailable').waitFor();
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('testimonial-card').first().waitFor();
  });

  it('lets a signed-in, verified user share an experience with a keyboard-driven rating', async () => {
    const writer = await createUser(t, { name: 'Harriet Vance' });
    await open(DESKTOP, writer);
    await page.goto(`${base}/testimonials`);
    await page.getByTestId('testimonial-card').first().waitFor();
    const before = await page.getByTestId('testimonial-card').count();

    const submit = page.getByRole('button', { name: 'Submit Testimonial' });
    await submit.click();
    await text(page, 'Please choose a rating').waitFor();
    await text(page, 'Comment is required').waitFor();

    // Keyboard: the first star takes focus, arrows move the rating.
    await page.getByRole('radio', { name: '1 star' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);

    const comment = 'Flawless escrow experience, the inspection report was thorough.';
    await page.getByLabel('Your experience', { exact: true }).fill(comment);
    expect(await page.getByTestId('comment-counter').innerText()).toBe(`${comment.length}/2000`);
    await page.getByLabel('Car purchased').fill('2021 Porsche 911 Turbo S');
    await page.getByLabel('Location').fill('Austin, TX');
    await submit.click();

    await page.getByTestId('share-success').waitFor();
    const first = page.getByTestId('testimonial-card').first();
    await expect.poll(() => first.innerText()).toContain('Harriet Vance');
    const firstText = await first.innerText();
    expect(firstText).toContain(comment);
    expect(firstText).toContain('Austin, TX');
    await first.getByRole('img', { name: 'Rated 4 out of 5 stars' }).waitFor();
    expect(await first.getAttribute('data-verified')).toBe('false'); // no completed purchase yet
    expect(await page.getByTestId('testimonial-card').count()).toBe(before + 1);
    await expect.poll(() => page.getByTestId('testimonial-stat').first().locator('.stat-strip__value').textContent()).toBe(String(before + 1));
  });

  it('remembers the escrow plan and carries it into an order that the dashboard Orders tab shows', async () => {
    const buyer = await createUser(t, { name: 'Marcus Hale' });
    await open(DESKTOP, buyer);

    // A new user's dashboard: empty states in every list.
    await page.goto(`${base}/dashboard`);
    await text(page, 'No recent activity yet').waitFor();
    await page.getByRole('tab', { name: 'My Bids' }).click();
    await text(page, 'No bids yet').waitFor();
    await page.getByRole('tab', { name: 'Orders' }).click();
    await text(page, 'No orders yet').waitFor();

    // Escrow: Premium Shield by default; a click presses another; kept on reload (sessionStorage).
    await page.goto(`${base}/escrow`);
    const toggle = (name: string) => page.getByRole('button', { name: `Select Plan: ${name}` });
    await toggle('Premium Shield').waitFor();
    expect(await toggle('Premium Shield').getAttribute('aria-pressed')).toBe('true');
    expect(await toggle('Basic Protection').getAttribute('aria-pressed')).toBe('false');
    expect(await toggle('Platinum Elite').getAttribute('aria-pressed')).toBe('false');
    await toggle('Basic Protection').click();
    expect(await toggle('Basic Protection').getAttribute('aria-pressed')).toBe('true');
    expect(await toggle('Premium Shield').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('plan-choice').innerText()).toContain('Basic Protection selected');
    await page.reload();
    await toggle('Basic Protection').waitFor();
    expect(await toggle('Basic Protection').getAttribute('aria-pressed')).toBe('true');

    await toggle('Platinum Elite').click();
    const stored = await page.evaluate(() => window.sessionStorage.getItem('luxemotors.escrowPlan'));
    const plan = (JSON.parse(stored ?? '{}') as { state?: { plan?: string } }).state?.plan;
    expect(plan).toBe('platinum');

    // The car page (built in parallel) mounts <BuyWithEscrow>, which posts exactly this.
    const car = fixedPrice[5]!;
    const order = await api<{ id: number }>('POST', '/api/orders', buyer, { carId: car.id, amount: car.price, plan });

    await page.goto(`${base}/dashboard`);
    await page.getByRole('tab', { name: 'Orders' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('orders');
    const row = page.getByTestId('order-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const rowText = await row.innerText();
    expect(rowText).toContain(titleOf(car));
    expect(rowText).toContain(`Order #${order.id}`);
    expect(rowText).toContain('Platinum Elite');
    expect(rowText).toContain(usd(car.price + ESCROW_PLANS.platinum.price));
    expect(await row.getByTestId('order-status').innerText()).toBe('Awaiting payment');
    expect(await row.getByRole('link', { name: titleOf(car), exact: true }).getAttribute('href')).toBe(`/car/${car.id}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'routes/dashboard-orders-desktop');

    // The activity feed lists the order and links to its car.
    await page.getByRole('tab', { name: 'Recent Activity' }).click();
    const item = page.getByTestId('activity-item').first();
    await item.waitFor();
    expect(await item.getByRole('link').getAttribute('href')).toBe(`/car/${car.id}`);
  });

  it('shows bids, watchlist (with Remove) and messages on the dashboard', async () => {
    await open(DESKTOP, olivia);
    await page.goto(`${base}/dashboard`);
    const tab = (name: string) => page.getByRole('tab', { name });

    await tab('My Bids').click();
    const bid = page.getByTestId('bid-row').first();
    await bid.waitFor();
    expect(await bid.innerText()).toContain(titleOf(fixedPrice[3]!));
    expect(await bid.innerText()).toContain(usd(minimumBid(fixedPrice[3]!.price, null)));
    expect(await bid.innerText()).toContain('Leading');

    await tab('Messages').click();
    const discussion = page.getByTestId('discussion-row').first();
    await discussion.waitFor();
    // Her accepted bid is posted in the discussion too, so it counts as one of her messages there.
    const [thread] = await api<{ discussions: { messageCount: number }[] }>('GET', '/api/chat/user', olivia).then((d) => d.discussions);
    expect(thread!.messageCount).toBe(2);
    expect(await discussion.innerText()).toContain('2 messages');
    expect(await discussion.getByRole('link', { name: titleOf(fixedPrice[3]!), exact: true }).getAttribute('href')).toBe(`/car/${fixedPrice[3]!.id}`);

    await tab('Watchlist').click();
    const watched = page.getByTestId('watch-card');
    await watched.first().waitFor();
    expect(await watched.innerText()).toContain(titleOf(fixedPrice[0]!));
    await watched.getByRole('button', { name: `Remove ${titleOf(fixedPrice[0]!)} from watchlist` }).click();
    await text(page, 'Your watchlist is empty').waitFor();
    await expect.poll(() => page.locator('[data-stat="watchlist"] [data-testid="stat-value"]').innerText()).toBe('0');
    expect((await api<{ cars: unknown[] }>('GET', '/api/watchlist', olivia)).cars).toEqual([]);

    // Keyboard: arrows move between tabs.
    await tab('Watchlist').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab('Messages').getAttribute('aria-selected')).toBe('true');
    expect(await tab('Messages').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('End');
    await expect.poll(() => tab('Settings').getAttribute('aria-selected')).toBe('true');
    for (const name of ['Profile Information', 'Security', 'Notifications', 'Payment Methods']) {
      await page.getByRole('heading', { name }).waitFor();
    }

    // Put the car back for later screenshots of this user.
    await api('POST', '/api/watchlist', olivia, { carId: fixedPrice[0]!.id });
  });

  it('toggles a car on the watchlist from its listing card', async () => {
    const watcher = await createUser(t, { name: 'Theo Marsh' });
    await open(DESKTOP, watcher);
    await page.goto(`${base}/`);
    const card = page.getByTestId('car-card').first();
    await card.waitFor();
    const title = await card.locator('h3').innerText();
    const heart = card.getByRole('button', { name: `Watch ${title}` });
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await api<{ cars: { id: number }[] }>('GET', '/api/watchlist', watcher)).cars.length).toBe(1);
    // Known after a reload (read once per session from the server).
    await page.reload();
    await expect.poll(() => page.getByTestId('car-card').first().getByRole('button', { name: `Watch ${title}` }).getAttribute('aria-pressed'), SETTLE).toBe('true');
    await page.getByTestId('car-card').first().getByRole('button', { name: `Watch ${title}` }).click();
    await expect.poll(async () => (await api<{ cars: unknown[] }>('GET', '/api/watchlist', watcher)).cars.length).toBe(0);
  });

  it('searches the FAQ, expands an answer, and says so when nothing matches', async () => {
    await open();
    await page.goto(`${base}/support`);
    const items = page.getByTestId('faq-item');
    await items.first().waitFor();
    const total = await items.count();
    const search = page.getByRole('searchbox', { name: 'Search questions' });
    await search.fill('password');
    await expect.poll(() => items.count()).toBeLessThan(total);
    const question = page.getByRole('button', { name: /I forgot my password/ });
    expect(await question.getAttribute('aria-expanded')).toBe('false');
    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
    const answer = page.getByRole('region', { name: /I forgot my password/ });
    expect(await answer.innerText()).toContain('valid for 1 hour');

    await search.fill('escrow fee');
    const escrowFee = page.getByRole('button', { name: /How is the escrow fee charged/ });
    await escrowFee.click();
    const feeText = await page.getByRole('region', { name: /How is the escrow fee charged/ }).innerText();
    for (const plan of Object.values(ESCROW_PLANS)) expect(feeText).toContain(`${usd(plan.price)} for ${plan.name}`);

    await search.fill('xylophone');
    await text(page, 'No questions match “xylophone”').waitFor();
    expect(await items.count()).toBe(0);
  });

  it('submits a ticket to the server and shows its LM- number', async () => {
    await open();
    await page.goto(`${base}/support?tab=ticket`);
    const submit = page.getByRole('button', { name: 'Submit Ticket' });
    await submit.click();
    await text(page, 'Subject is required').waitFor();
    await text(page, 'Message is required').waitFor();
    await text(page, 'Email is required').waitFor();
    expect(await page.getByLabel('Email').evaluate((el) => el === document.activeElement)).toBe(true);

    await page.getByLabel('Email').fill('buyer@example.com');
    await page.getByLabel('Subject').fill('Inspection before purchase');
    await page.getByLabel('Category').selectOption('escrow');
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Message').fill('Can I choose the inspection shop myself?');
    await submit.click();
    const id = await page.getByTestId('ticket-id').innerText();
    expect(id).toMatch(/^LM-[A-Z0-9]{6}$/);
    expect(await page.getByTestId('ticket-success').innerText()).toContain('buyer@example.com');
  });

  it('files a signed-in user’s ticket without asking for an email', async () => {
    await open(DESKTOP, olivia);
    await page.goto(`${base}/support?tab=ticket`);
    await page.getByLabel('Subject').waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    await page.getByLabel('Subject').fill('Title transfer');
    await page.getByLabel('Message').fill('How long does the title transfer take?');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    expect(await page.getByTestId('ticket-id').innerText()).toMatch(/^LM-/);
    expect(await page.getByTestId('ticket-success').innerText()).toContain(olivia.email);
  });

  it('shows system status from /api/health, and a degraded database clearly', async () => {
    await open();
    allowedErrors = /503|Failed to load resource/;
    await page.goto(`${base}/support`);
    await page.getByRole('tab', { name: 'System Status' }).click();
    const status = page.getByTestId('system-status');
    await expect.poll(() => status.innerText()).toContain('Operational');
    await expect.poll(() => page.getByTestId('status-checked').innerText()).toMatch(/^Last checked \d{1,2}:\d{2}:\d{2} [AP]M$/);

    await page.route('**/api/health', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ data: { status: 'degraded', db: 'unreachable' }, error: 'The database is unreachable', code: 'SERVICE_DEGRADED' }),
      }),
    );
    await page.getByRole('button', { name: 'Refresh Status' }).click();
    await expect.poll(() => status.innerText()).toContain('Degraded — database unreachable');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'routes/support-status-degraded-desktop');
  });

  it('404: Go Back returns to the previous page and Return Home goes to /', async () => {
    await open();
    // Those pages answer 404, which the browser reports as a failed load.
    allowedErrors = /Failed to load resource: .* 404 \(Not Found\)/;
    await page.goto(`${base}/escrow`);
    await page.getByRole('heading', { name: 'How Escrow Works' }).waitFor();
    await page.goto(`${base}/nowhere`, { referer: `${base}/escrow` });
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect.poll(() => pathOf(page)).toBe('/escrow');

    await page.goto(`${base}/still/nowhere`);
    await page.getByRole('button', { name: 'Return Home' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.getByTestId('car-card').first().waitFor();

    // Opened straight on a dead link, Go Back has nowhere in the app to go but home.
    await page.goto(`${base}/dead/link`);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
  });

  it('opens the menu on a phone and follows a link from it', async () => {
    await open(PHONE);
    await page.goto(`${base}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const escrowLink = nav.getByRole('link', { name: 'Escrow Service' });
    expect(await escrowLink.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open Menu' }).click();
    expect(await page.getByRole('button', { name: 'Close Menu' }).getAttribute('aria-expanded')).toBe('true');
    await escrowLink.click();
    await expect.poll(() => pathOf(page)).toBe('/escrow');
    await expect.poll(() => escrowLink.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open Menu' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('a listing page past the end shows the count, the pager and a way back to page 1', async () => {
    await open();
    // The sample catalogue fits on one page: past its end there is no pager, only the way back.
    await page.goto(`${base}/?page=9`);
    await expect.poll(() => page.getByTestId('listing-count').innerText(), SETTLE).toBe(`Showing 0 of ${catalogue.length} vehicles`);
    expect(await page.getByText('No vehicles found matching your criteria').count()).toBe(0);
    await page.getByRole('button', { name: 'Back to page 1' }).click();
    await page.getByTestId('car-card').first().waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // A catalogue of three pages, page 9 asked for: the pager is there too.
    await page.route('**/api/cars?*', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ data: { cars: [], pagination: { page: 9, limit: 12, total: 30, pages: 3 } } }),
      }),
    );
    // Reached within the app (Back to an earlier entry), where the screen reads the page itself:
    // a page drawn on the server would come with the real catalogue instead.
    await page.evaluate(() => {
      history.pushState(history.state, '', '/?page=9');
      history.pushState(history.state, '', '/?page=9&later');
      history.back();
    });
    await expect.poll(() => page.getByTestId('listing-count').innerText(), SETTLE).toBe('Showing 0 of 30 vehicles');
    const pager = page.getByTestId('pager');
    expect(await pager.innerText()).toContain('Page 9 of 3');
    await page.getByRole('button', { name: 'Back to page 1' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'routes/listings-past-the-end-desktop');
  });

  it('restores the scroll position only on history navigation, never on a fresh page load', async () => {
    await open();
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    await page.goto(`${base}/`);
    await page.getByTestId('car-card').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect.poll(scrollY).toBe(1200);

    // A fresh load of a page (typed address, new visit) starts at the top.
    await page.goto(`${base}/?sort=price-high`);
    await page.getByTestId('car-card').first().waitFor();
    await quietFor(300, 'nothing may scroll the fresh page down later (a restored position)');
    expect(await scrollY()).toBe(0);

    // Back and Forward within the app restore where the user was.
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(scrollY).toBe(900);
    const link = page.getByRole('link', { name: 'Testimonials' });
    await link.click();
    await expect.poll(() => pathOf(page)).toBe('/testimonials');
    await expect.poll(scrollY).toBe(0);
    await page.goBack();
    await page.getByTestId('car-card').first().waitFor();
    await expect.poll(scrollY, SETTLE).toBe(900);
  });
});
