/**
 * The Listings screen (spec §2 "Listings", §4 listing states) driven in a real browser against
 * the real server and a seeded database. Expectations come from the sample data, not the API.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { cars } from '../../db/schema/index.ts';
import { SAMPLE_CARS, SAMPLE_SELLERS, type SampleCar } from '../../db/seed/sample-data.ts';
import { seedGeneratedCars } from '../../db/seed/seed.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, collectConsoleErrors, expectNoHorizontalScroll, launchBrowser, loadAllImages, newAppContext, screenshot, usd } from '../helpers/browser.ts';
import { quietFor } from '../helpers/wait.ts';

/** `expect.poll` gives up after 1 s by default; a loaded 2-core machine needs longer. */
const SETTLE = { timeout: 10_000 };

// ---------------------------------------------------------------------------------------------
// Expectations derived from the sample data, written independently of the app's formatters.

const titleOf = (c: SampleCar) => `${c.year} ${c.make} ${c.model}`;
const sellerOf = (c: SampleCar) => {
  const seller = SAMPLE_SELLERS.find((s) => s.key === c.sellerKey);
  if (!seller) throw new Error(`sample car ${c.key} has no seller`);
  return seller;
};
function marketLabel(c: SampleCar): { kind: 'below' | 'above' | 'at'; text: string } {
  if (c.price < c.marketValue) return { kind: 'below', text: `${usd(c.marketValue - c.price)} below market` };
  if (c.price > c.marketValue) return { kind: 'above', text: `${usd(c.price - c.marketValue)} above market` };
  return { kind: 'at', text: 'At market value' };
}
const byPriceAsc = (a: SampleCar, b: SampleCar) => a.price - b.price;
const titles = (list: SampleCar[]) => list.map(titleOf);

// ---------------------------------------------------------------------------------------------
// Reading the screen the way a user does.

interface CardView {
  title: string;
  price: number;
  year: number;
}

const cardsOf = (page: Page) => page.getByTestId('car-card');

/** Title, price and year of every card on the screen, in order. */
async function readCards(page: Page): Promise<CardView[]> {
  const texts = await cardsOf(page).evaluateAll((cards) =>
    cards.map((card) => ({
      title: card.querySelector('h3')?.textContent?.trim() ?? '',
      lines: (card as HTMLElement).innerText.split('\n').map((l) => l.trim()),
    })),
  );
  return texts.map(({ title, lines }) => {
    const priceLine = lines.find((l) => /^\$[\d,]+$/.test(l));
    if (!priceLine) throw new Error(`card "${title}" shows no price line: ${lines.join(' | ')}`);
    return { title, price: Number(priceLine.replace(/[$,]/g, '')), year: Number(title.slice(0, 4)) };
  });
}

const readTitles = async (page: Page) => (await readCards(page)).map((c) => c.title);

/** Waits for the listing to settle: either cards, the empty state or the error box. */
async function waitForListing(page: Page): Promise<void> {
  await page
    .getByTestId('car-card')
    .first()
    .or(page.getByText('No vehicles found matching your criteria'))
    .or(page.getByRole('alert'))
    .waitFor();
  await expect.poll(() => page.getByText('Loading vehicles...').count(), SETTLE).toBe(0);
}

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search vehicles' });
const filterButton = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Category' }).getByRole('button', { name, exact: true });
const sortSelect = (page: Page) => page.getByLabel('Sort by');
const isCarsApi = (url: URL) => url.pathname === '/api/cars';
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

// ---------------------------------------------------------------------------------------------
// One browser per file; a fresh context (cookies, storage, routes) per test.

let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleErrors: string[];
/** Tests that provoke failed requests on purpose turn this off. */
let expectNoConsoleErrors = true;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(viewport = DESKTOP): Promise<void> {
  context = await newAppContext(browser, { viewport, timeout: 10_000 });
  page = await context.newPage();
  consoleErrors = collectConsoleErrors(page);
}

beforeEach(async () => {
  expectNoConsoleErrors = true;
  await openPage();
});
afterEach(async () => {
  await context?.close();
  if (expectNoConsoleErrors) expect(consoleErrors, 'console or page errors').toEqual([]);
});

// ---------------------------------------------------------------------------------------------

describe('Listings with the 12 sample cars', () => {
  let t: TestApp;
  let base: string;
  /** Car id by "make model", read from the database the app serves. */
  const idByName = new Map<string, number>();

  beforeAll(async () => {
    t = await startTestApp({ SERVE_CLIENT: 'true' });
    base = await t.listen();
    const rows = await t.database.db.select({ id: cars.id, make: cars.make, model: cars.model }).from(cars);
    for (const row of rows) idByName.set(`${row.make} ${row.model}`, row.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function open(path = '/'): Promise<void> {
    await page.goto(`${base}${path}`);
    await waitForListing(page);
  }

  /**
   * Reaches the listing from another screen of the app. The listing drawn on the server arrives
   * with its cars; reached within the app, the screen reads them itself, which is where a
   * failing or slow API can show.
   */
  async function reachWithinApp(): Promise<void> {
    await page.goto(`${base}/support`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cars' }).click();
  }

  it('loads / with every sample car, cheapest first, and no console errors', async () => {
    await open();
    await expect.poll(() => page.getByTestId('listing-count').textContent(), SETTLE).toBe('Showing 12 of 12 vehicles');
    expect(await cardsOf(page).count()).toBe(12);
    expect(await readTitles(page)).toEqual(titles([...SAMPLE_CARS].sort(byPriceAsc)));
    expect(await page.title()).toContain('Cars');
    await expect.poll(() => searchBox(page).getAttribute('placeholder'), SETTLE).toBe('Search by make, model, or year...');
    expect(await filterButton(page, 'All').getAttribute('aria-pressed')).toBe('true');
    expect(await sortSelect(page).inputValue()).toBe('price-low');
    // Spec: the pager only appears with more than one page; 12 cars at 12 a page is one page.
    expect(await page.getByTestId('pager').count()).toBe(0);
    await loadAllImages(page, SETTLE);
    await screenshot(page, 'listings-desktop');
    expect(consoleErrors).toEqual([]);
  });

  it('shows on every card what the spec lists, with the market label coloured by kind', async () => {
    await open();
    const cards = cardsOf(page);
    for (const sample of SAMPLE_CARS) {
      const title = titleOf(sample);
      const card = cards.filter({ has: page.getByRole('heading', { name: title, exact: true }) });
      expect(await card.count(), title).toBe(1);
      const text = (await card.innerText()).split('\n').map((l) => l.trim()).filter(Boolean);
      const seller = sellerOf(sample);
      const market = marketLabel(sample);
      expect(text, title).toEqual(
        expect.arrayContaining([
          sample.condition,
          title,
          sample.location,
          usd(sample.price),
          market.text,
          `Market value: ${usd(sample.marketValue)}`,
          '0 bids',
          '0 viewing',
          `${sample.mileage.toLocaleString('en-US')} mi`,
          'View Details & Chat',
        ]),
      );
      expect(text.join(' '), title).toMatch(new RegExp(`Seller:\\s*${seller.name}`));
      expect(await card.getByText('Verified', { exact: true }).count(), `${title} verified badge`).toBe(seller.verified ? 1 : 0);
      expect(await card.getByRole('img', { name: title }).isVisible(), `${title} image`).toBe(true);
      expect(await card.getByText('No Image').count(), `${title} image fallback`).toBe(0);

      const link = card.getByRole('link', { name: 'View Details & Chat' });
      const id = idByName.get(`${sample.make} ${sample.model}`);
      expect(id, title).toBeDefined();
      expect(await link.getAttribute('href'), title).toBe(`/car/${id}`);

      const label = card.getByText(market.text, { exact: true });
      expect(await label.getAttribute('class'), title).toContain(`market-label--${market.kind}`);
    }

    // Spec: the market label is green below, red above and grey at market value.
    const colourOf = async (kind: 'below' | 'above' | 'at') => {
      const sample = SAMPLE_CARS.find((c) => marketLabel(c).kind === kind);
      if (!sample) throw new Error(`no sample car is ${kind} market`);
      const rgb = await page.getByText(marketLabel(sample).text, { exact: true }).evaluate((el) => getComputedStyle(el).color);
      const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
      return { rgb, r, g, b };
    };
    const below = await colourOf('below');
    const above = await colourOf('above');
    const at = await colourOf('at');
    expect(new Set([below.rgb, above.rgb, at.rgb]).size).toBe(3);
    expect(below.g, `below is green: ${below.rgb}`).toBeGreaterThan(Math.max(below.r, below.b));
    expect(above.r, `above is red: ${above.rgb}`).toBeGreaterThan(Math.max(above.g, above.b));
    expect(Math.max(at.r, at.g, at.b) - Math.min(at.r, at.g, at.b), `at is grey: ${at.rgb}`).toBeLessThan(40);
  });

  it('searches on Enter (not while typing), puts search= in the URL and shows only matching cars', async () => {
    await open();
    await searchBox(page).fill('porsche');
    await quietFor(300, 'typing must NOT search: a moment in which a search would have started');
    expect(param(page, 'search'), 'typing alone does not search').toBeNull();
    expect(await cardsOf(page).count()).toBe(12);
    await searchBox(page).press('Enter');
    await expect.poll(() => param(page, 'search'), SETTLE).toBe('porsche');
    await expect.poll(() => page.getByTestId('listing-count').textContent(), SETTLE).toBe('Showing 2 of 2 vehicles');
    expect(await readTitles(page)).toEqual(titles(SAMPLE_CARS.filter((c) => c.make === 'Porsche').sort(byPriceAsc)));
  });

  it('searches with the Search button, ignoring case and accents', async () => {
    await open();
    await searchBox(page).fill('Ferrari');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => param(page, 'search'), SETTLE).toBe('Ferrari');
    await expect.poll(() => readTitles(page), SETTLE).toEqual(titles(SAMPLE_CARS.filter((c) => c.make === 'Ferrari')));
    expect(await page.getByTestId('listing-count').textContent()).toBe('Showing 1 of 1 vehicles');
    expect(await searchBox(page).inputValue()).toBe('Ferrari');

    await searchBox(page).fill('HURACAN');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => readTitles(page), SETTLE).toEqual(['2021 Lamborghini Huracán EVO']);
    expect(param(page, 'search')).toBe('HURACAN');
  });

  it('each category filter shows only matching cars', async () => {
    await open();
    const filters = [
      { label: '$100k+', value: 'luxury', matches: (c: SampleCar) => c.price >= 100_000 },
      { label: 'Sports', value: 'sports', matches: (c: SampleCar) => c.bodyStyle === 'sports' },
      { label: 'Below Market', value: 'below-market', matches: (c: SampleCar) => c.price < c.marketValue },
      { label: 'All', value: null, matches: () => true },
    ];
    for (const { label, value, matches } of filters) {
      await filterButton(page, label).click();
      await expect.poll(() => param(page, 'filter'), SETTLE).toBe(value);
      const expected = SAMPLE_CARS.filter(matches).sort(byPriceAsc);
      await expect.poll(() => readTitles(page), { ...SETTLE, message: label }).toEqual(titles(expected));
      await waitForListing(page);
      expect(await page.getByTestId('listing-count').textContent()).toBe(
        `Showing ${expected.length} of ${expected.length} vehicles`,
      );
      for (const other of filters) {
        expect(await filterButton(page, other.label).getAttribute('aria-pressed'), other.label).toBe(String(other.label === label));
      }
      if (value === 'luxury') {
        for (const card of await readCards(page)) expect(card.price, card.title).toBeGreaterThanOrEqual(100_000);
      }
    }
  });

  it('a sort chosen before the category change has been drawn keeps the category', async () => {
    await open();
    // Both in one task, as a fast hand would: the router has not drawn the category yet when
    // the sort changes.
    const [category, sort] = [await filterButton(page, 'Sports').elementHandle(), await sortSelect(page).elementHandle()];
    await page.evaluate(
      ([button, select]) => {
        (button as HTMLButtonElement).click();
        (select as HTMLSelectElement).value = 'price-high';
        select!.dispatchEvent(new Event('change', { bubbles: true }));
      },
      [category, sort] as const,
    );
    await expect.poll(() => new URL(page.url()).search, SETTLE).toBe('?filter=sports&sort=price-high');
    const expected = SAMPLE_CARS.filter((c) => c.bodyStyle === 'sports').sort((a, b) => b.price - a.price);
    await expect.poll(() => readTitles(page), SETTLE).toEqual(titles(expected));
    expect(await filterButton(page, 'Sports').getAttribute('aria-pressed')).toBe('true');
    expect(await sortSelect(page).inputValue()).toBe('price-high');
  });

  it('every sort reorders the cards', async () => {
    await open();
    const all = SAMPLE_CARS.length;
    const sorts: { value: string; check: (cards: CardView[]) => void }[] = [
      {
        value: 'price-high',
        check: (cards) => expect(cards.map((c) => c.price)).toEqual([...SAMPLE_CARS].map((c) => c.price).sort((a, b) => b - a)),
      },
      {
        value: 'year-new',
        check: (cards) => expect(cards.map((c) => c.year)).toEqual([...SAMPLE_CARS].map((c) => c.year).sort((a, b) => b - a)),
      },
      {
        value: 'year-old',
        check: (cards) => expect(cards.map((c) => c.year)).toEqual([...SAMPLE_CARS].map((c) => c.year).sort((a, b) => a - b)),
      },
      {
        // No bids and no live viewers on the sample cars, so "popular" falls back to newest listing first.
        value: 'popular',
        check: (cards) =>
          expect(cards.map((c) => c.title)).toEqual(titles([...SAMPLE_CARS].sort((a, b) => a.listedDaysAgo - b.listedDaysAgo))),
      },
      {
        value: 'price-low',
        check: (cards) => expect(cards.map((c) => c.price)).toEqual([...SAMPLE_CARS].map((c) => c.price).sort((a, b) => a - b)),
      },
    ];
    for (const { value, check } of sorts) {
      const before = await readTitles(page);
      await sortSelect(page).selectOption(value);
      await expect.poll(() => readTitles(page), { ...SETTLE, message: `sort ${value} reorders` }).not.toEqual(before);
      await waitForListing(page);
      expect(param(page, 'sort')).toBe(value === 'price-low' ? null : value);
      const cards = await readCards(page);
      expect(cards).toHaveLength(all);
      check(cards);
    }
  });

  it('renders the state of a deep link /?filter=sports&sort=price-high', async () => {
    await open('/?filter=sports&sort=price-high');
    expect(await filterButton(page, 'Sports').getAttribute('aria-pressed')).toBe('true');
    expect(await sortSelect(page).inputValue()).toBe('price-high');
    const expected = SAMPLE_CARS.filter((c) => c.bodyStyle === 'sports').sort((a, b) => b.price - a.price);
    expect(await readTitles(page)).toEqual(titles(expected));
  });

  it('shows the empty state for a nonsense search, and Clear Filters restores everything', async () => {
    await open('/?filter=sports');
    await searchBox(page).fill('qwxzv nonsense');
    await searchBox(page).press('Enter');
    await page.getByText('No vehicles found matching your criteria').waitFor();
    expect(await cardsOf(page).count()).toBe(0);
    expect(await page.getByTestId('listing-count').count()).toBe(0);
    expect(await page.getByTestId('pager').count()).toBe(0);
    await screenshot(page, 'listings-empty');

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => cardsOf(page).count(), SETTLE).toBe(12);
    expect(await page.getByTestId('listing-count').textContent()).toBe('Showing 12 of 12 vehicles');
    expect(await searchBox(page).inputValue()).toBe('');
    expect(await filterButton(page, 'All').getAttribute('aria-pressed')).toBe('true');
    expect(param(page, 'search')).toBeNull();
    expect(param(page, 'filter')).toBeNull();
  });

  it('shows the server error in an error box, and Retry recovers', async () => {
    expectNoConsoleErrors = false; // the browser logs the 500 responses
    const failing = (route: Route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Database exploded', code: 'INTERNAL_ERROR' }),
      });
    await page.route(isCarsApi, failing);
    await reachWithinApp();
    await waitForListing(page);
    const alert = page.getByRole('alert');
    expect(await alert.innerText()).toContain('Database exploded');
    expect(await alert.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await cardsOf(page).count()).toBe(0);
    expect(await page.getByTestId('listing-count').count()).toBe(0);
    await screenshot(page, 'listings-error');

    // Still failing: Retry asks again and shows the error again.
    let calls = 0;
    await page.unroute(isCarsApi, failing);
    await page.route(isCarsApi, (route) => {
      calls += 1;
      return failing(route);
    });
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => calls, SETTLE).toBe(1);
    await alert.waitFor();

    await page.unrouteAll();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cardsOf(page).count(), SETTLE).toBe(12);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('listing-count').textContent()).toBe('Showing 12 of 12 vehicles');
  });

  it('shows a readable message when the API cannot be reached (spec §8)', async () => {
    expectNoConsoleErrors = false;
    await page.route(isCarsApi, (route) => route.abort('connectionrefused'));
    await reachWithinApp();
    await waitForListing(page);
    const alert = page.getByRole('alert');
    expect(await alert.innerText()).toMatch(/^(Network error occurred|Failed to fetch cars)\s+Retry$/);
  });

  it('shows "Loading vehicles..." while the response is pending', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(isCarsApi, async (route) => {
      await gate;
      await route.continue();
    });
    await reachWithinApp();
    const loading = page.getByRole('status').filter({ hasText: 'Loading vehicles...' });
    await loading.waitFor();
    await quietFor(200, 'the loading state must stay while the answer is held');
    expect(await loading.isVisible()).toBe(true);
    expect(await cardsOf(page).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Available Vehicles' }).getAttribute('aria-busy')).toBe('true');
    release();
    await expect.poll(() => cardsOf(page).count(), SETTLE).toBe(12);
    expect(await page.getByText('Loading vehicles...').count()).toBe(0);
  });

  it('on a phone (375×812): one column of cards, and a menu button that expands the nav links', async () => {
    await context.close();
    await openPage(PHONE);
    await open();
    expect(await cardsOf(page).count()).toBe(12);
    const boxOf = async (i: number) => {
      const box = await cardsOf(page).nth(i).boundingBox();
      if (!box) throw new Error(`card ${i} is not laid out`);
      return box;
    };
    const [a, b, c] = await Promise.all([boxOf(0), boxOf(1), boxOf(2)]);
    expect(Math.abs(a.x - b.x)).toBeLessThan(1);
    expect(Math.abs(b.x - c.x)).toBeLessThan(1);
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
    expect(a.width).toBeGreaterThan(PHONE.width * 0.8);
    await expectNoHorizontalScroll(page);
    await loadAllImages(page, SETTLE);
    await screenshot(page, 'listings-phone');

    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = nav.getByRole('button', { name: /Menu/ });
    const testimonials = nav.getByRole('link', { name: 'Testimonials' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await testimonials.isVisible()).toBe(false);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Cars', 'Testimonials', 'Escrow Service', 'Support', 'Sign In', 'Sign Up']) {
      expect(await nav.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded'), SETTLE).toBe('false');
    expect(await testimonials.isVisible()).toBe(false);
  });
});

describe('Listings paging (12 sample + 20 generated cars)', () => {
  let t: TestApp;
  let base: string;
  const total = SAMPLE_CARS.length + 20;

  beforeAll(async () => {
    t = await startTestApp({ SERVE_CLIENT: 'true' });
    await seedGeneratedCars(t.database.db, 20);
    base = await t.listen();
  });
  afterAll(async () => {
    await t?.close();
  });

  const pager = () => page.getByTestId('pager');
  const pagerButton = (name: 'Previous' | 'Next') => pager().getByRole('button', { name });
  const pagerStatus = () => pager().getByText(/^Page \d+ of \d+$/);

  async function goToPage(name: 'Previous' | 'Next', expected: number, previous: string[]): Promise<string[]> {
    await pagerButton(name).click();
    await expect.poll(() => pagerStatus().textContent(), SETTLE).toBe(`Page ${expected} of 3`);
    await expect.poll(() => readTitles(page), SETTLE).not.toEqual(previous);
    await waitForListing(page);
    return readTitles(page);
  }

  it('pages through 32 cars with Next, Previous, page= in the URL and Back', async () => {
    await page.goto(`${base}/`);
    await waitForListing(page);
    expect(await pagerStatus().textContent()).toBe('Page 1 of 3');
    expect(await page.getByTestId('listing-count').textContent()).toBe(`Showing 12 of ${total} vehicles`);
    expect(await pagerButton('Previous').isDisabled()).toBe(true);
    expect(await pagerButton('Next').isEnabled()).toBe(true);
    expect(param(page, 'page')).toBeNull();
    const page1 = await readCards(page);

    const page2Titles = await goToPage('Next', 2, page1.map((c) => c.title));
    expect(param(page, 'page')).toBe('2');
    expect(page2Titles).toHaveLength(12);
    const page2 = await readCards(page);
    // Cheapest first across pages: page 2 starts where page 1 ended.
    expect(page2[0]!.price).toBeGreaterThanOrEqual(page1.at(-1)!.price);
    expect(await pagerButton('Previous').isEnabled()).toBe(true);

    const page3Titles = await goToPage('Next', 3, page2Titles);
    expect(param(page, 'page')).toBe('3');
    expect(page3Titles).toHaveLength(total - 24);
    expect(await page.getByTestId('listing-count').textContent()).toBe(`Showing ${total - 24} of ${total} vehicles`);
    expect(await pagerButton('Next').isDisabled()).toBe(true);

    await goToPage('Previous', 2, page3Titles);
    expect(param(page, 'page')).toBe('2');
    expect(await readTitles(page)).toEqual(page2Titles);

    // Browser Back walks the history of queries: page 2 → 3 → 2, so Back shows page 3 again.
    await page.goBack();
    await expect.poll(() => pagerStatus().textContent(), SETTLE).toBe('Page 3 of 3');
    await expect.poll(() => readTitles(page), SETTLE).toEqual(page3Titles);
    expect(param(page, 'page')).toBe('3');
    await page.goBack();
    await expect.poll(() => pagerStatus().textContent(), SETTLE).toBe('Page 2 of 3');
    await expect.poll(() => readTitles(page), SETTLE).toEqual(page2Titles);
    expect(param(page, 'page')).toBe('2');
    await page.goBack();
    await expect.poll(() => pagerStatus().textContent(), SETTLE).toBe('Page 1 of 3');
    await expect.poll(() => readTitles(page), SETTLE).toEqual(page1.map((c) => c.title));
    expect(param(page, 'page')).toBeNull();
  });

  it('a filter change goes back to page 1', async () => {
    await page.goto(`${base}/?page=2`);
    await waitForListing(page);
    expect(await pagerStatus().textContent()).toBe('Page 2 of 3');
    await filterButton(page, '$100k+').click();
    await expect.poll(() => param(page, 'filter'), SETTLE).toBe('luxury');
    expect(param(page, 'page')).toBeNull();
    await expect.poll(() => pagerStatus().textContent(), SETTLE).toMatch(/^Page 1 of \d+$/);
  });
});
