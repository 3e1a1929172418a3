/**
 * What a screen reader hears in the car room (issue 34): the texts the page puts in its live
 * regions, recorded in the page as they change (a MutationObserver), during a bidding war of 20
 * bids in 10 seconds from other bidders and during an auction's last minute. The price status
 * speaks at most once every few seconds and ends on the latest price; the listener's own outbid
 * is said each time they lose the lead; the countdown says one minute, thirty seconds and the
 * soft-close extension, not every second; the viewer count is in no live region. Bids come
 * through the API, as other people's would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bidIncrement } from '@common/bid-rules.ts';
import { PRICE_ANNOUNCE_INTERVAL_MS } from '../../client/src/lib/live-announcements.ts';
import type { TestApp } from '../helpers/app.ts';
import { Tabs, closeBrowserApp, startBrowserApp, usd, wcagProblems } from '../helpers/browser.ts';
import { listCar } from '../helpers/cars.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

const SETTLE = { timeout: 20_000 };
/** The soft close of this file's server: a bid in an auction's last 40 s moves its end to 40 s after the bid. */
const EXTENSION_SECONDS = 40;
const REGIONS = ['price-announcement', 'outbid-announcement', 'auction-countdown-announcement'] as const;
type Region = (typeof REGIONS)[number];

const w = {} as { browser: Browser; t: TestApp; base: string; seller: SignedInUser; rivals: SignedInUser[] };
const tabs = new Tabs(() => w.browser, { timeout: 20_000 });

beforeAll(async () => {
  Object.assign(w, await startBrowserApp({ AUCTION_MIN_SECONDS: '5', AUCTION_EXTENSION_SECONDS: String(EXTENSION_SECONDS) }));
  w.seller = await createUser(w.t, { name: 'Sid Seller' });
  w.rivals = [];
  for (const name of ['Ray Rival', 'Rita Rival', 'Rob Rival', 'Rue Rival']) w.rivals.push(await createUser(w.t, { name }));
});
afterAll(() => closeBrowserApp({ tabs, browser: w.browser, t: w.t }));

async function bid(user: SignedInUser, carId: number, amount: number): Promise<void> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/bids', headers: user.auth, payload: { carId, amount } });
  expect(res.statusCode, res.body).toBe(201);
}

/** Starts recording every text the live regions take, with the page's time, from now on. */
async function recordSpoken(page: Page): Promise<void> {
  await page.evaluate((regions) => {
    const spoken: { region: string; text: string; at: number }[] = [];
    const last = new Map<string, string>();
    const read = () => {
      for (const region of regions) {
        const text = document.querySelector(`[data-testid="${region}"]`)?.textContent?.trim() ?? '';
        if (text !== (last.get(region) ?? '')) {
          last.set(region, text);
          if (text) spoken.push({ region, text, at: performance.now() });
        }
      }
    };
    read();
    spoken.length = 0;
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    (window as unknown as { spoken: typeof spoken }).spoken = spoken;
  }, [...REGIONS]);
}

const spoken = (page: Page, region: Region) =>
  page.evaluate((r) => (window as unknown as { spoken: { region: string; text: string; at: number }[] }).spoken.filter((s) => s.region === r), region);

/** Paces the war: the next bid goes this long after the one before (it is the load, not a wait for an outcome). */
const pace = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live regions', () => {
  it('a bidding war of 20 bids in 10 s: one price every few seconds, ending on the latest, and each outbid of the listener', async () => {
    const listener = await createUser(w.t, { name: 'Lia Listener' });
    const car = await listCar(w.t, w.seller, { model: 'F40 War', price: 200_000, auctionInSeconds: 86_400 });
    let price = 200_000;
    await bid(listener, car.id, price);

    const { page } = await tabs.open(listener);
    await page.goto(`${w.base}/car/${car.id}`);
    await page.getByTestId('auction-price').waitFor();
    await expect.poll(() => page.getByTestId('auction-price').innerText(), SETTLE).toBe(usd(price));
    await recordSpoken(page);

    // The viewer count changes all the time and is never read out.
    const viewersLive = await page.getByTestId('viewers').evaluate((el) => el.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"], [role="timer"]') !== null);
    expect(viewersLive, 'the viewer count is in no live region').toBe(false);
    // The list of bids comes with the car's bid history, which may answer after its price.
    await expect.poll(() => page.getByRole('log', { name: 'Recent bids' }).count(), { ...SETTLE, message: 'the bids are a log' }).toBe(1);

    const outbidAt: number[] = [];
    for (let i = 0; i < 20; i++) {
      price += bidIncrement(price);
      await bid(w.rivals[i % w.rivals.length]!, car.id, price);
      if (i === 0 || i === 10) outbidAt.push(price);
      if (i === 9) {
        // The listener takes the lead back mid-war; the next rival bid outbids them again.
        price += bidIncrement(price);
        await bid(listener, car.id, price);
      }
      await pace(500);
    }

    // The price status ends on the latest price, once the interval has passed.
    await expect.poll(async () => (await spoken(page, 'price-announcement')).at(-1)?.text, SETTLE).toBe(`Current bid ${usd(price)}`);
    const prices = await spoken(page, 'price-announcement');
    expect(prices.length, prices.map((p) => p.text).join(' | ')).toBeLessThanOrEqual(4);
    for (let i = 1; i < prices.length; i++) expect(prices[i]!.at - prices[i - 1]!.at, 'prices are spaced out').toBeGreaterThanOrEqual(PRICE_ANNOUNCE_INTERVAL_MS - 250);

    await expect.poll(async () => (await spoken(page, 'outbid-announcement')).length, SETTLE).toBe(2);
    expect((await spoken(page, 'outbid-announcement')).map((s) => s.text)).toEqual(outbidAt.map((amount) => `You have been outbid: the highest bid is now ${usd(amount)}.`));

    // Turning announcements off silences the price; the next outbid is still said.
    await page.getByRole('checkbox', { name: 'Read out new bids' }).uncheck();
    expect(await page.evaluate(() => window.localStorage.getItem('luxemotors.announceBids'))).toBe('off');
    const before = (await spoken(page, 'price-announcement')).length;
    price += bidIncrement(price);
    await bid(listener, car.id, price);
    price += bidIncrement(price);
    await bid(w.rivals[0]!, car.id, price);
    await expect.poll(async () => (await spoken(page, 'outbid-announcement')).length, SETTLE).toBe(3);
    expect(await page.getByTestId('price-announcement').innerText()).toBe('');
    expect((await spoken(page, 'price-announcement')).length).toBe(before);
    expect(await wcagProblems(page)).toEqual([]);
  }, 90_000);

  it("an auction's last minute: the countdown says one minute, thirty seconds and the extension, not every second", async () => {
    const listener = await createUser(w.t, { name: 'Tim Timer' });
    const car = await listCar(w.t, w.seller, { model: 'Miura Last Minute', price: 300_000, auctionInSeconds: 75 });
    const { page } = await tabs.open(listener);
    await page.goto(`${w.base}/car/${car.id}`);
    await page.getByRole('timer').first().waitFor();
    await recordSpoken(page);
    const countdown = () => spoken(page, 'auction-countdown-announcement');

    await expect.poll(async () => (await countdown()).map((s) => s.text), { timeout: 30_000 }).toEqual(['1 minute left.']);
    await expect.poll(async () => (await countdown()).map((s) => s.text), { timeout: 45_000 }).toEqual(['1 minute left.', '30 seconds left.']);
    expect(await page.getByRole('timer').first().getAttribute('aria-label')).toMatch(/^Ends in \d+ seconds? left$/);

    // A late bid moves the end to 40 s after it: said once, with the time now left. The page's
    // estimate of the server's clock is behind by the one-way trip of the answer it came from
    // (a second on a loaded machine), so it may say a second more.
    await bid(w.rivals[0]!, car.id, 300_000);
    await expect.poll(async () => (await countdown()).length, SETTLE).toBe(3);
    expect((await countdown()).at(-1)!.text).toMatch(/^A late bid extended the auction: (3[89]|4[01]) seconds left\.$/);
    await page.getByTestId('auction-countdown-extended').waitFor();
    expect(await wcagProblems(page)).toEqual([]);
  }, 90_000);
});
