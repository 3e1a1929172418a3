/**
 * Market data screens in a real browser against the real server (contract §"Discovery and market
 * data (v3)"): the listing's filter panel whose state lives in the URL, saving a search from it,
 * the alert email whose link opens the car, one-click unsubscribing from that email, the sold
 * results page and one car's result on it, the sales a market value used, the car page's price
 * history, and dates that read the same on the server and in a browser far from UTC.
 * Screenshots go to /tmp/market-*.png.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { cars, orders, priceHistory } from '../../db/schema/index.ts';
import type { SavedSearch } from '@common/schemas/discovery.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, collectConsoleErrors, expectNoHorizontalScroll, expectNoUnexpectedErrors, wcagProblems, startBrowserApp, usd, type Viewport } from '../helpers/browser.ts';
import { orderIn } from '../helpers/escrow.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar as listCarAs } from '../helpers/cars.ts';
import { pageIdle } from '../helpers/wait.ts';
import { TestMailbox, type ReceivedMail } from '../helpers/smtp.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

const SETTLE = { timeout: 15_000 };

let mailbox: TestMailbox;
let browser: Browser;
let t: TestApp;
let base: string;
const tabs = new Tabs(() => browser, { timeout: 20_000 });

beforeAll(async () => {
  mailbox = new TestMailbox();
  ({ browser, t, base } = await startBrowserApp({ SMTP_URL: await mailbox.start(), ALERT_MATCH_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5', AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1' }));
});
afterAll(async () => {
  await closeBrowserApp({ tabs, browser, t });
  await mailbox?.stop();
});

const openTab = (user: SignedInUser | null, viewport: Viewport = DESKTOP) => tabs.open(user, { viewport });
const shot = (target: Page | Locator, name: string) => target.screenshot({ path: `/tmp/market-${name}.png`, animations: 'disabled' });

const call = requestsTo(() => t);
const listCar = (seller: SignedInUser, fields: { make: string; model: string; year: number; price: number }) =>
  listCarAs(t, seller, { ...fields, mileage: 8_200, description: 'Listed by the market data browser test.' });

const panel = (page: Page) => page.getByTestId('filter-panel');
const field = (page: Page, label: string) => panel(page).getByLabel(label, { exact: true });
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
async function settled(page: Page) {
  await page.getByTestId('car-card').first().or(page.getByText('No vehicles found matching your criteria')).waitFor();
  await expect.poll(() => page.getByText('Loading vehicles...').count(), SETTLE).toBe(0);
}

describe('saved search from the filter panel, its alert and its unsubscribe link', () => {
  /** The search the filter panel names for a Porsche `model` from 2015 under $150,000. */
  const nameFor = (model: string) => `Porsche ${model} from 2015 under $150,000`;

  /**
   * What the first test makes through the page, made through the API: a buyer's instant search
   * for a Porsche `model`, a matching car listed, and the alert email about it.
   */
  async function searchWithAlert(model: string): Promise<{ buyer: SignedInUser; alert: ReceivedMail; searchName: string }> {
    const buyer = await createUser(t, { name: 'Uma Unsubscriber' });
    const searchName = nameFor(model);
    const saved = await call('POST', '/api/saved-searches', buyer, { name: searchName, query: { make: 'Porsche', model, minYear: 2015, maxPrice: 150_000 }, alerts: 'instant' });
    expect(saved.statusCode, saved.body).toBe(201);
    await listCar(await createUser(t), { make: 'Porsche', model, year: 2019, price: 139_000 });
    const alert = await mailbox.waitFor((m) => m.to.includes(buyer.email), 30_000);
    return { buyer, alert, searchName };
  }

  it('keeps the filters in the URL through reload, Back and Forward, saves the search, and its alert email opens the car', async () => {
    const model = `Carrera E2E${Date.now() % 100_000}`;
    const searchName = nameFor(model);
    const buyer = await createUser(t, { name: 'Hana Hunter' });
    const tab = await openTab(buyer);
    const { page } = tab;
    await page.goto(`${base}/`);
    await settled(page);

    // First only the make: the sample Porsches remain.
    await field(page, 'Make').fill('Porsche');
    await panel(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => params(page), SETTLE).toEqual({ make: 'Porsche' });
    await settled(page);
    const titles = await page.getByTestId('car-card').locator('h3').allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title).toContain('Porsche');
    await shot(panel(page), 'filter-panel-desktop');
    await shot(page, 'listing-with-filters');

    // Live checks in the API's words: an upside-down year range is refused before it is sent.
    await field(page, 'Year from').fill('2015');
    await field(page, 'Year to').fill('2010');
    await expect.poll(() => panel(page).getByText('The highest year must not be below the lowest').count(), SETTLE).toBe(1);
    expect(await field(page, 'Year to').getAttribute('aria-invalid')).toBe('true');
    await field(page, 'Price to').fill('lots');
    await expect.poll(() => panel(page).getByText('Price to must be a whole number').count(), SETTLE).toBe(1);
    await panel(page).getByRole('button', { name: 'Apply filters' }).click();
    expect(params(page)).toEqual({ make: 'Porsche' });
    await shot(panel(page), 'filter-panel-errors');
    expect(await wcagProblems(page), 'the filter panel with errors').toEqual([]);

    await field(page, 'Year to').fill('');
    await field(page, 'Price to').fill('$150,000');
    await field(page, 'Model').fill(model);
    await panel(page).getByRole('button', { name: 'Apply filters' }).click();
    const wanted = { make: 'Porsche', model, minYear: '2015', maxPrice: '150000' };
    await expect.poll(() => params(page), SETTLE).toEqual(wanted);
    await settled(page);
    await page.getByText('No vehicles found matching your criteria').waitFor();

    await page.reload();
    await settled(page);
    expect(params(page)).toEqual(wanted);
    expect(await field(page, 'Model').inputValue()).toBe(model);
    expect(await field(page, 'Price to').inputValue()).toBe('150000');

    await page.goBack();
    await expect.poll(() => params(page), SETTLE).toEqual({ make: 'Porsche' });
    await expect.poll(() => field(page, 'Model').inputValue(), SETTLE).toBe('');
    await page.goForward();
    await expect.poll(() => params(page), SETTLE).toEqual(wanted);
    await expect.poll(() => field(page, 'Model').inputValue(), SETTLE).toBe(model);

    // Save it: the name comes from the filters; instant alerts.
    await panel(page).getByRole('button', { name: 'Save this search' }).click();
    const dialog = page.getByTestId('save-search-dialog');
    await dialog.getByRole('heading', { name: 'Save this search' }).waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe(searchName);
    await dialog.getByRole('radio', { name: /Instant/ }).check();
    await shot(page, 'save-dialog-desktop');
    expect(await wcagProblems(page), 'the save dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect.poll(() => page.getByTestId('search-saved').textContent(), SETTLE).toContain(`Saved "${searchName}"`);
    const searches = (await call('GET', '/api/saved-searches', buyer)).json().data.searches as SavedSearch[];
    expect(searches).toMatchObject([{ name: searchName, alerts: 'instant', query: { make: 'Porsche', model, minYear: 2015, maxPrice: 150_000 } }]);

    // A seller lists a matching car: the alert email links to it, and the link opens its page.
    const seller = await createUser(t);
    const carId = (await listCar(seller, { make: 'Porsche', model, year: 2019, price: 139_000 })).id;
    const alert = await mailbox.waitFor((m) => m.to.includes(buyer.email), 30_000);
    const carLink = alert.links.find((l) => new URL(l).pathname === `/car/${carId}`);
    expect(carLink, alert.body).toBeDefined();
    await page.goto(carLink!);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SETTLE).toContain(`2019 Porsche ${model}`);
    expectNoUnexpectedErrors(tab);
  }, 120_000);

  it('turns the search\'s alerts off with one press on the email\'s unsubscribe page, and the dashboard tab shows it', async () => {
    const model = `Carrera U${Date.now() % 100_000}`;
    const { buyer, alert, searchName } = await searchWithAlert(model);
    const link = alert.links.find((l) => new URL(l).pathname === '/unsubscribe');
    expect(link, alert.body).toBeDefined();
    const visitor = await openTab(null);
    await visitor.page.goto(link!);
    await visitor.page.getByRole('button', { name: 'Turn off alerts' }).waitFor();
    // Opening the page (what a mail scanner does) changes nothing.
    const before = (await call('GET', '/api/saved-searches', buyer)).json().data.searches as SavedSearch[];
    expect(before[0]!.alerts).toBe('instant');
    await visitor.page.getByRole('button', { name: 'Turn off alerts' }).click();
    await expect.poll(() => visitor.page.getByTestId('unsubscribe-done').textContent(), SETTLE).toBe(`Alerts for "${searchName}" are off`);
    await shot(visitor.page, 'unsubscribed');
    expect(await wcagProblems(visitor.page), 'the unsubscribe page').toEqual([]);
    const after = (await call('GET', '/api/saved-searches', buyer)).json().data.searches as SavedSearch[];
    expect(after[0]!.alerts).toBe('off');

    // A token that was tampered with: the server's refusal is shown, nothing changes.
    await visitor.page.goto(`${base}/unsubscribe?token=forged`);
    await visitor.page.getByRole('button', { name: 'Turn off alerts' }).click();
    await visitor.page.getByRole('alert').waitFor();
    expectNoUnexpectedErrors(visitor, /400|Bad Request/);

    const tab = await openTab(buyer);
    await tab.page.goto(`${base}/dashboard?tab=searches`);
    const row = tab.page.getByTestId('saved-search');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByText(searchName, { exact: true }).count()).toBe(1);
    expect(await row.getByLabel('Alerts').inputValue()).toBe('off');
    // Changed in place, kept by the server.
    await row.getByLabel('Alerts').selectOption('daily');
    await waitUntil(async () => ((await call('GET', '/api/saved-searches', buyer)).json().data.searches as SavedSearch[])[0]!.alerts === 'daily', 10_000, 'daily');
    await shot(tab.page, 'dashboard-searches');
    expect(await wcagProblems(tab.page), 'the saved searches tab').toEqual([]);
    // Run opens the listing with the search's filters.
    await row.getByRole('link', { name: `Run ${searchName}` }).click();
    await expect.poll(() => params(tab.page), SETTLE).toEqual({ make: 'Porsche', model, minYear: '2015', maxPrice: '150000' });
    await settled(tab.page);
    expect(await tab.page.getByTestId('car-card').locator('h3').allTextContents()).toEqual([`2019 Porsche ${model}`]);
    // Delete, after confirming.
    await tab.page.goto(`${base}/dashboard?tab=searches`);
    await tab.page.getByRole('button', { name: `Delete ${searchName}` }).click();
    await tab.page.getByTestId('delete-search-dialog').getByRole('button', { name: 'Delete search' }).click();
    await tab.page.getByText('No saved searches yet').waitFor();
    expect((await call('GET', '/api/saved-searches', buyer)).json().data.searches).toEqual([]);
    expectNoUnexpectedErrors(tab);
  }, 60_000);

  it('fits a phone: the filter panel and the save dialog', async () => {
    const buyer = await createUser(t, { name: 'Pia Phone' });
    const tab = await openTab(buyer, PHONE);
    await tab.page.goto(`${base}/?make=Porsche&minYear=2015&maxPrice=150000`);
    await settled(tab.page);
    // On a phone the fields wait behind a Filters button that counts the ones applied.
    const toggle = panel(tab.page).getByRole('button', { name: 'Filters (3)' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await field(tab.page, 'Make').isVisible()).toBe(false);
    await panel(tab.page).scrollIntoViewIfNeeded();
    await shot(panel(tab.page), 'filter-panel-phone-closed');
    await toggle.click();
    expect(await field(tab.page, 'Make').inputValue()).toBe('Porsche');
    await shot(panel(tab.page), 'filter-panel-phone');
    await expectNoHorizontalScroll(tab.page);
    await panel(tab.page).getByRole('button', { name: 'Save this search' }).click();
    const dialog = tab.page.getByTestId('save-search-dialog');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Porsche from 2015 under $150,000');
    await shot(tab.page, 'save-dialog-phone');
    // The 21st search: the dialog says so in its words.
    const kept = ((await call('GET', '/api/saved-searches', buyer)).json().data.searches as SavedSearch[]).length;
    for (let i = kept; i < 20; i += 1) expect((await call('POST', '/api/saved-searches', buyer, { name: `Search ${i}`, query: { minYear: 2000 + i }, alerts: 'off' })).statusCode).toBe(201);
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect.poll(() => dialog.getByTestId('save-search-error').textContent(), SETTLE).toContain('You already keep 20 saved searches');
    await shot(tab.page, 'save-dialog-limit-phone');
    expectNoUnexpectedErrors(tab, /409|Conflict/);
  }, 60_000);
});

/** "Nov 3, 2026": the day as the pages show it, in UTC. */
const utcDay = (iso: string) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

/** `/results?carId=` shows that car's sale alone, under a heading that names it. */
async function expectOneSale(page: Page, carId: number, heading: string) {
  const one = page.getByTestId('one-sale');
  await one.getByRole('heading', { level: 2, name: heading }).waitFor(SETTLE);
  const rows = one.getByTestId('sold-result');
  expect(await rows.count()).toBe(1);
  expect(await rows.getByRole('link').getAttribute('href')).toBe(`/car/${carId}`);
}

describe('sold results and price history', () => {
  let sales = 0;
  /** A 2021 GT3 Touring of a make of its own, bought at $162,500 and released: one sale on the results. */
  async function releasedSale(): Promise<{ id: number; make: string }> {
    sales += 1;
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const make = `Soldmake${Date.now() % 100_000}${sales}`;
    const car = await listCar(seller, { make, model: 'GT3 Touring', year: 2021, price: 162_500 });
    await orderIn(t, 'released', buyer, seller, { car });
    return { id: car.id, make };
  }

  it('lists a released sale on /results, filtered by make in the URL, and the sold car\'s page links to it', async () => {
    const { id, make } = await releasedSale();
    const car = { id };

    for (const viewport of [DESKTOP, PHONE]) {
      const tab = await openTab(null, viewport);
      await tab.page.goto(`${base}/results`);
      await tab.page.getByLabel('Make').fill(make);
      await tab.page.getByRole('button', { name: 'Show results' }).click();
      await expect.poll(() => params(tab.page), SETTLE).toEqual({ make });
      const row = tab.page.getByTestId('sold-result');
      await expect.poll(() => row.count(), SETTLE).toBe(1);
      const text = await row.innerText();
      for (const part of [`2021 ${make} GT3 Touring`, '8,200 mi', usd(162_500), 'Bought at the asking price']) expect(text).toContain(part);
      await tab.page.reload();
      await expect.poll(() => row.count(), SETTLE).toBe(1);
      expect(await tab.page.getByLabel('Make').inputValue()).toBe(make);
      if (viewport === PHONE) await expectNoHorizontalScroll(tab.page);
      // Unfiltered, for the look of a longer page.
      await tab.page.goto(`${base}/results`);
      await row.first().waitFor();
      await shot(tab.page, `results-${viewport === PHONE ? 'phone' : 'desktop'}`);
      expect(await wcagProblems(tab.page), 'the results page').toEqual([]);
      expectNoUnexpectedErrors(tab);
    }

    // The sold car's page says what it sold for and leads to its own result, and from there to its model's.
    const tab = await openTab(null, DESKTOP);
    await tab.page.goto(`${base}/car/${car.id}`);
    const sale = tab.page.getByTestId('car-sale');
    await expect.poll(() => sale.count(), SETTLE).toBe(1);
    expect(await sale.innerText()).toContain(`Sold for ${usd(162_500)}`);
    expect(await sale.getByRole('link', { name: `What other ${make} GT3 Touring cars sold for` }).getAttribute('href')).toBe(`/results?make=${make}&model=GT3+Touring`);
    await sale.getByRole('link', { name: "See this sale's result" }).click();
    await expect.poll(() => params(tab.page), SETTLE).toEqual({ carId: String(car.id) });
    await expectOneSale(tab.page, car.id, `2021 ${make} GT3 Touring, sold for ${usd(162_500)}`);
    expect(await tab.page.getByRole('search', { name: 'Filter sold results' }).count()).toBe(0);
    await tab.page.getByRole('link', { name: `See all ${make} GT3 Touring results` }).click();
    await expect.poll(() => params(tab.page), SETTLE).toEqual({ make, model: 'GT3 Touring' });
    await expect.poll(() => tab.page.getByTestId('sold-result').count(), SETTLE).toBe(1);
    expectNoUnexpectedErrors(tab);

    // Opened straight from a link (drawn on the server), on both sizes.
    for (const viewport of [DESKTOP, PHONE]) {
      const direct = await openTab(null, viewport);
      await direct.page.goto(`${base}/results?carId=${car.id}`);
      await expectOneSale(direct.page, car.id, `2021 ${make} GT3 Touring, sold for ${usd(162_500)}`);
      if (viewport === PHONE) await expectNoHorizontalScroll(direct.page);
      await shot(direct.page, `one-result-${viewport === PHONE ? 'phone' : 'desktop'}`);
      expect(await wcagProblems(direct.page), 'one car\'s result').toEqual([]);
      expectNoUnexpectedErrors(direct);
    }
    // A car that did not sell: said so, with the way to all results.
    const unsold = await listCar(await createUser(t), { make, model: 'GT3 Touring', year: 2021, price: 170_000 });
    const none = await openTab(null);
    await none.page.goto(`${base}/results?carId=${unsold.id}`);
    await none.page.getByText('No sale on record for this car').waitFor();
    expect(await none.page.getByTestId('sold-result').count()).toBe(0);
    expect(await none.page.getByRole('link', { name: 'All sold results' }).getAttribute('href')).toBe('/results');
    expectNoUnexpectedErrors(none);
  }, 120_000);

  it('names the recent sales a market value used on the car page, each linking to its result', async () => {
    const sold = await releasedSale();
    const seller = await createUser(t);
    // Three more of the model: with the sale, enough comparables for an estimate.
    const cars = [];
    for (const price of [165_000, 168_000, 171_000]) cars.push(await listCar(seller, { make: sold.make, model: 'GT3 Touring', year: 2021, price }));
    const subject = cars[0]!;
    await waitUntil(async () => (await call('GET', `/api/cars/${subject.id}`)).json().data.marketValueBasis === 'comparables', 15_000, 'an estimate from comparables');
    const valuation = (await call('GET', `/api/cars/${subject.id}/valuation`)).json().data as { comparables: { carId: number; source: string; soldAt: string | null }[] };
    const used = valuation.comparables.find((c) => c.carId === sold.id);
    expect(used, 'the sale is among the comparables').toMatchObject({ source: 'sale' });

    for (const viewport of [DESKTOP, PHONE]) {
      const tab = await openTab(null, viewport);
      await tab.page.goto(`${base}/car/${subject.id}`);
      const sales = tab.page.getByTestId('market-sales');
      await sales.waitFor(SETTLE);
      expect(await sales.getByRole('heading', { name: /Recent sales used/ }).count()).toBe(1);
      const items = sales.getByTestId('market-sale');
      expect(await items.count()).toBe(1);
      expect((await items.first().textContent())?.replace(/\s+/g, ' ').trim()).toBe(`2021 ${sold.make} GT3 Touring sold ${usd(162_500)} on ${utcDay(used!.soldAt!)}`);
      expect(await items.first().locator('time').getAttribute('datetime')).toBe(used!.soldAt);
      expect(await tab.page.getByTestId('market-basis').innerText()).toContain(`Based on ${valuation.comparables.length} comparable cars`);
      const card = tab.page.locator('.pricing-card');
      await card.scrollIntoViewIfNeeded();
      await shot(card, `market-value-${viewport === PHONE ? 'phone' : 'desktop'}`);
      if (viewport === PHONE) await expectNoHorizontalScroll(tab.page);
      expect(await wcagProblems(tab.page), 'the car page with the sales used').toEqual([]);
      if (viewport === DESKTOP) {
        await items.first().getByRole('link', { name: `2021 ${sold.make} GT3 Touring` }).click();
        await expect.poll(() => params(tab.page), SETTLE).toEqual({ carId: String(sold.id) });
        await expectOneSale(tab.page, sold.id, `2021 ${sold.make} GT3 Touring, sold for ${usd(162_500)}`);
      }
      expectNoUnexpectedErrors(tab);
    }
  }, 90_000);

  it('shows the price history with its last drop on a sample car cut in price, and no chart for one price', async () => {
    const all = (await call('GET', '/api/cars?limit=50')).json().data.cars as { id: number }[];
    const histories = await Promise.all(all.map(async (c) => ({ id: c.id, points: (await call('GET', `/api/cars/${c.id}/price-history`)).json().data.points as { price: number }[] })));
    const cut = histories.find((h) => h.points.length === 2 && h.points[1]!.price < h.points[0]!.price);
    const single = histories.find((h) => h.points.length === 1);
    expect(cut, 'a seeded car with a price cut').toBeDefined();
    expect(single, 'a seeded car at its first price').toBeDefined();
    for (const viewport of [DESKTOP, PHONE]) {
      const tab = await openTab(null, viewport);
      await tab.page.goto(`${base}/car/${cut!.id}`);
      const chart = tab.page.getByTestId('price-history');
      await chart.waitFor();
      const drop = cut!.points[0]!.price - cut!.points[1]!.price;
      expect(await chart.getByTestId('price-drop').textContent()).toMatch(new RegExp(`^Price dropped ${usd(drop).replace('$', '\\$')} on [A-Z][a-z]{2} \\d{1,2}, \\d{4}$`));
      // The chart is described by a table of the prices for screen readers.
      expect(await chart.getByRole('table').getByRole('row').count()).toBe(3);
      await chart.scrollIntoViewIfNeeded();
      await shot(chart, `chart-${viewport === PHONE ? 'phone' : 'desktop'}`);
      if (viewport === DESKTOP) await shot(tab.page, 'car-page-with-chart');
      expect(await wcagProblems(tab.page), 'the car page with its chart').toEqual([]);
      expectNoUnexpectedErrors(tab);
    }
    const tab = await openTab(null);
    await tab.page.goto(`${base}/car/${single!.id}`);
    await tab.page.getByRole('heading', { level: 1 }).waitFor();
    await tab.page.waitForLoadState('networkidle');
    expect(await tab.page.getByTestId('price-history').count()).toBe(0);
  }, 60_000);
  it('draws the price chart and the results with the same dates on the server and in a browser far from UTC: no hydration error', async () => {
    const sold = await releasedSale();
    // Times late in the UTC day: already the next day at UTC+14, so a date in the browser's own
    // zone would differ from the server's (which draws in UTC).
    const lateUtc = (daysAgo: number) => {
      const at = new Date();
      at.setUTCDate(at.getUTCDate() - daysAgo);
      at.setUTCHours(23, 30, 0, 0);
      return at;
    };
    const [order] = await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.carId, sold.id));
    await t.database.db.update(orders).set({ updatedAt: lateUtc(2) }).where(eq(orders.id, order!.id));
    const seller = await createUser(t);
    const charted = await listCar(seller, { make: sold.make, model: 'Chart Coupe', year: 2020, price: 150_000 });
    await t.database.db.update(priceHistory).set({ at: lateUtc(5) }).where(eq(priceHistory.carId, charted.id));
    await t.database.db.insert(priceHistory).values({ carId: charted.id, price: 142_000, at: lateUtc(1) });

    const zone = 'Pacific/Kiritimati';
    const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce', locale: 'en-US', timezoneId: zone });
    context.setDefaultTimeout(20_000);
    try {
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`console.${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
      // The zone is in effect: the browser's own calendar is a day ahead of UTC here.
      await page.goto(`${base}/escrow`);
      expect(await page.evaluate((iso) => new Date(iso).getDate(), lateUtc(1).toISOString())).toBe(new Date(lateUtc(1).getTime() + 86_400_000).getUTCDate());

      const visit = async (path: string) => {
        messages.length = 0;
        const res = await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
        expect(res?.status(), path).toBe(200);
        await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'));
        expect(await page.locator('#page-data').count(), `${path} was drawn on the server`).toBe(1);
        // React reports a hydration mismatch as it hydrates; once the page is idle, any report is in.
        await pageIdle(page);
        expect(messages.filter((m) => /Minified React error #(?:418|419|423|425)\b|hydrat/i.test(m)), `${path}: hydration errors`).toEqual([]);
      };

      await visit(`/car/${charted.id}`);
      const chart = page.getByTestId('price-history');
      expect(await chart.getByTestId('price-drop').textContent()).toBe(`Price dropped ${usd(8_000)} on ${utcDay(lateUtc(1).toISOString())}`);
      expect(await chart.getByText(`Since ${utcDay(lateUtc(5).toISOString())} (UTC)`).count()).toBe(1);
      await chart.scrollIntoViewIfNeeded();
      await shot(chart, 'chart-far-from-utc');

      await visit(`/results?make=${sold.make}`);
      const row = page.getByTestId('sold-result').first();
      expect(await row.locator('time').textContent()).toBe(utcDay(lateUtc(2).toISOString()));
      await visit(`/results?carId=${sold.id}`);
      expect(await page.getByTestId('one-sale').locator('time').textContent()).toBe(utcDay(lateUtc(2).toISOString()));
      expect(errors, 'console or page errors').toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('the pricing card', () => {
  it('offers "Make an offer" on an auction that ended below its reserve only while the car is still unsold, as the server takes offers', async () => {
    const [seller, bidder, buyer] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const { id: carId } = await listCarAs(t, seller, {
      make: 'Ferrari', model: 'Reserve Test', year: 1991, price: 50_000, mileage: 9_000, location: 'Monterey, CA',
      description: 'An auction that ends within the test.', bodyStyle: 'sports', auctionInSeconds: 3, reservePrice: 150_000,
    });
    expect((await call('POST', '/api/bids', bidder, { carId, amount: 60_000 })).statusCode).toBe(201);
    await expect
      .poll(async () => {
        await t.app.services.auctions.close(carId).catch(() => undefined);
        return (await call('GET', `/api/cars/${carId}`)).json().data.auction.outcome;
      }, SETTLE)
      .toBe('reserve_not_met');

    const tab = await openTab(buyer);
    await tab.page.goto(`${base}/car/${carId}`);
    await tab.page.getByTestId('make-offer').waitFor(SETTLE);

    // Its seller agreed a sale meanwhile (the car is pending): the server refuses offers now, so the card offers none.
    await t.database.db.update(cars).set({ status: 'pending' }).where(eq(cars.id, carId));
    expect((await call('POST', `/api/cars/${carId}/offers`, buyer, { amount: 70_000 })).statusCode).toBe(409);
    // The server may serve the page as sent for a moment (PAGE_FRESH_MS): reloaded until that moment is over.
    await expect
      .poll(async () => {
        await tab.page.reload({ waitUntil: 'networkidle' });
        return tab.page.getByTestId('car-status-notice').count();
      }, SETTLE)
      .toBe(1);
    expect(await tab.page.getByTestId('car-status-notice').innerText()).toContain('Sale pending');
    expect(await tab.page.getByTestId('make-offer').count()).toBe(0);
    expectNoUnexpectedErrors(tab);
  }, 60_000);
});
