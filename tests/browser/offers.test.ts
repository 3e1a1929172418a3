/**
 * Private offers (contract §"Offers and second chance") in real browsers against the real
 * server: a buyer and a seller, each in their own browser context, negotiate one fixed-price car
 * from the car page to the escrow order, each countering twice. Every move appears on the other
 * party's open page without a reload (a marker set in the page survives), and the seller's accept
 * lands on the order page awaiting payment at the agreed amount under the smallest plan covering
 * it. A seller also reaches a new offer's thread from the bell's notification. Amounts are the
 * test's own numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, expectNoHorizontalScroll, expectNoUnexpectedErrors, startBrowserApp, usd, type Tab } from '../helpers/browser.ts';
import { createListing } from '../helpers/escrow.ts';
import { request } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Live updates on a loaded 2-core machine need more than `expect.poll`'s 1 s. */
const SETTLE = { timeout: 15_000 };
const PRICE = 100_000;
/** Where the negotiation ends, and the smallest escrow plan covering it (Basic covers up to $100,000). */
const AGREED = 93_500;
const PLAN = ESCROW_PLANS.basic;

/** The server, the browser and the two parties, set up once for the file. */
const world = {} as { browser: Browser; t: TestApp; base: string; buyer: SignedInUser; seller: SignedInUser };
const tabs = new Tabs(() => world.browser, { timeout: 15_000, viewport: DESKTOP });

/** Screenshots go to /tmp for a person to look at. */
const shoot = (page: Page, name: string) => page.screenshot({ path: `/tmp/offers-${name}.png`, fullPage: true, animations: 'disabled' });

/** Marks the page; `stillSamePage` is true as long as it was not reloaded or left. */
const markPage = (page: Page) => page.evaluate(() => ((window as unknown as { offersMark: number }).offersMark = 1));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { offersMark?: number }).offersMark === 1);

const tableAmount = (p: Page) => p.getByTestId('offer-amount').innerText();
const historyActions = (p: Page) =>
  p.getByTestId('offer-history').locator('li').evaluateAll((items) => items.map((li) => `${li.getAttribute('data-by')}:${li.getAttribute('data-action')}`));

/** The navigation bar's bell; its accessible name carries the unread count. */
const bell = (p: Page) => p.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ });

async function counter(tab: Tab, amount: number): Promise<void> {
  await tab.page.getByTestId('offer-counter').click();
  const dialog = tab.page.getByTestId('offer-move-dialog');
  await dialog.getByLabel('Your counter-offer').fill(String(amount));
  await dialog.getByTestId('offer-dialog-submit').click();
  await expect.poll(() => tableAmount(tab.page), SETTLE).toBe(usd(amount));
}

beforeAll(async () => {
  // Auctions may run for seconds here, so one can close within the test.
  Object.assign(world, await startBrowserApp({ AUCTION_MIN_SECONDS: '2', AUCTION_EXTENSION_SECONDS: '1' }));
  world.buyer = await createUser(world.t, { name: 'Bea Buyer' });
  world.seller = await createUser(world.t, { name: 'Sam Seller' });
});
afterAll(() => closeBrowserApp({ tabs, browser: world.browser, t: world.t }));

describe('offers', () => {
  it('buyer and seller negotiate from the car page, each countering twice, to an escrow order, each move live on the other side', async () => {
    const { t, base, buyer, seller } = world;
    const car = await createListing(t, seller, { make: 'BMW', model: 'M3 Competition', price: PRICE });
    const b = await tabs.open(buyer);
    const s = await tabs.open(seller);

    // The seller waits on the dashboard's Offers tab.
    await s.page.goto(`${base}/dashboard?tab=offers`);
    await s.page.getByText('No offers yet').waitFor();
    await markPage(s.page);

    // The buyer makes an offer from the car page; the rule is said in the dialog.
    await b.page.goto(`${base}/car/${car.id}`);
    await b.page.getByTestId('asking-price').waitFor();
    await shoot(b.page, 'car-page-make-offer');
    await b.page.getByTestId('make-offer').click();
    const dialog = b.page.getByTestId('make-offer-dialog');
    expect(await dialog.innerText()).toContain(`below the asking price of ${usd(PRICE)}`);
    expect(await dialog.innerText()).toContain('expires after 2 days');
    // Above the asking price: refused in the form, nothing sent.
    await dialog.getByLabel('Your offer').fill(String(PRICE));
    await dialog.getByTestId('offer-dialog-submit').click();
    await expect.poll(() => dialog.innerText(), SETTLE).toContain(`at most ${usd(PRICE - 1)}`);
    await dialog.getByLabel('Your offer').fill('90,000');
    await dialog.getByTestId('offer-message').fill('Cash buyer, can collect next week.');
    expect(await dialog.getByTestId('offer-amount-error').count()).toBe(0); // typing again clears the refusal
    await b.page.screenshot({ path: '/tmp/offers-make-offer-dialog.png', animations: 'disabled' });
    await dialog.getByTestId('offer-dialog-submit').click();
    await expect.poll(() => new URL(b.page.url()).pathname, SETTLE).toMatch(/^\/offers\/\d+$/);
    const offerId = Number(new URL(b.page.url()).pathname.split('/').pop());
    await b.page.getByRole('heading', { level: 1, name: `Offer #${offerId}` }).waitFor();
    expect(await tableAmount(b.page)).toBe(usd(90_000));
    expect(await b.page.getByTestId('offer-turn').innerText()).toContain('Waiting for Sam Seller');
    expect(await b.page.getByTestId('offer-withdraw').count()).toBe(1);
    expect(await b.page.getByTestId('offer-accept').count()).toBe(0);

    // Back on the car page the buyer is shown their open offer instead of a second one.
    await b.page.goto(`${base}/car/${car.id}`);
    await expect.poll(() => b.page.getByTestId('my-offer').innerText().catch(() => ''), SETTLE).toContain(`Your offer: ${usd(90_000)}`);
    expect(await b.page.getByTestId('make-offer').count()).toBe(0);
    await shoot(b.page, 'car-page-my-offer');
    await b.page.getByTestId('my-offer').getByRole('link', { name: 'View offer' }).click();
    await b.page.getByRole('heading', { level: 1, name: `Offer #${offerId}` }).waitFor();

    // The seller's tab shows it without a reload, as their turn.
    const row = s.page.locator(`[data-testid="offer-row"][data-offer-id="${offerId}"]`);
    await row.waitFor(SETTLE);
    expect(await row.getByTestId('offer-row-amount').innerText()).toBe(usd(90_000));
    expect(await row.getByTestId('offer-turn').innerText()).toBe('Your turn');
    expect(await stillSamePage(s.page)).toBe(true);
    await shoot(s.page, 'dashboard-tab');

    // The seller's car page counts the open offer and leads to the tab; the seller opens the thread.
    await s.page.goto(`${base}/car/${car.id}`);
    await expect.poll(() => s.page.getByTestId('car-offers-link').innerText(), SETTLE).toContain('Offers (1 open)');
    await s.page.getByTestId('car-offers-link').click();
    await s.page.locator(`[data-testid="offer-row"][data-offer-id="${offerId}"]`).getByRole('link', { name: `View offer #${offerId}` }).click();
    await s.page.getByRole('heading', { level: 1, name: `Offer #${offerId}` }).waitFor();
    expect(await s.page.getByTestId('offer-note').innerText()).toContain('Cash buyer');
    await markPage(s.page);
    await markPage(b.page);
    // Each party counters twice; every move shows on the other side without a reload.
    await counter(s, 97_000);
    await expect.poll(() => tableAmount(b.page), SETTLE).toBe(usd(97_000));
    expect(await b.page.getByTestId('offer-turn').innerText()).toContain('Your turn');
    expect(await stillSamePage(b.page)).toBe(true);

    await counter(b, 92_000);
    await expect.poll(() => tableAmount(s.page), SETTLE).toBe(usd(92_000));
    expect(await s.page.getByTestId('offer-turn').innerText()).toContain('Your turn');
    expect(await stillSamePage(s.page)).toBe(true);

    await counter(s, 95_000);
    await expect.poll(() => tableAmount(b.page), SETTLE).toBe(usd(95_000));
    expect(await b.page.getByTestId('offer-turn').innerText()).toContain('Your turn');
    expect(await stillSamePage(b.page)).toBe(true);

    await counter(b, AGREED);
    await expect.poll(() => tableAmount(s.page), SETTLE).toBe(usd(AGREED));
    expect(await s.page.getByTestId('offer-turn').innerText()).toContain('Your turn');
    expect(await stillSamePage(s.page)).toBe(true);
    const history = ['buyer:offer', 'seller:counter', 'buyer:counter', 'seller:counter', 'buyer:counter'];
    expect(await historyActions(s.page)).toEqual(history);
    await expect.poll(() => historyActions(b.page), SETTLE).toEqual(history);
    await shoot(s.page, 'thread-desktop');
    await s.page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(s.page);
    await shoot(s.page, 'thread-phone');
    await s.page.setViewportSize(DESKTOP);

    // The seller accepts: the dialog says what follows, then the order page awaits the buyer's
    // payment at the agreed amount, under the smallest plan that covers it.
    await s.page.getByTestId('offer-accept').click();
    const accept = s.page.getByTestId('offer-move-dialog');
    expect(await accept.innerText()).toContain(`escrow order at ${usd(AGREED)} that the buyer pays within 3 days`);
    await accept.getByTestId('offer-dialog-submit').click();
    await expect.poll(() => new URL(s.page.url()).pathname, SETTLE).toMatch(/^\/orders\/\d+$/);
    const orderPath = new URL(s.page.url()).pathname;
    await s.page.getByTestId('order-status').waitFor();
    expect(await s.page.getByTestId('order-status').innerText()).toBe('Awaiting payment');
    const amounts = await s.page.getByTestId('order-amounts').innerText();
    for (const text of [usd(AGREED), usd(PLAN.price), usd(AGREED + PLAN.price)]) expect(amounts).toContain(text);
    expect(await s.page.locator('main').innerText()).toMatch(new RegExp(`Protection plan\\s+${PLAN.name}`));

    // The buyer's thread shows the accept live, with the order linked; it leads to the same order.
    await expect.poll(() => b.page.getByTestId('offer-status').innerText(), SETTLE).toBe('Accepted');
    expect(await b.page.getByTestId('offer-order-link').getAttribute('href')).toBe(orderPath);
    expect(await stillSamePage(b.page)).toBe(true);
    await b.page.getByTestId('offer-order-link').click();
    await expect.poll(() => new URL(b.page.url()).pathname, SETTLE).toBe(orderPath);
    await b.page.getByTestId('order-status').waitFor();
    expect(await b.page.getByTestId('order-status').innerText()).toBe('Awaiting payment');
    expect(await b.page.getByTestId('order-amounts').innerText()).toContain(usd(AGREED));

    await s.page.setViewportSize(PHONE);
    await s.page.goto(`${base}/dashboard?tab=offers`);
    await s.page.locator(`[data-testid="offer-row"][data-offer-id="${offerId}"][data-status="accepted"]`).waitFor(SETTLE);
    await expectNoHorizontalScroll(s.page);
    await shoot(s.page, 'dashboard-tab-phone');

    expectNoUnexpectedErrors(b);
    expectNoUnexpectedErrors(s);
  }, 120_000);

  it("a seller's bell tells of a new offer live, and its notification leads to the offer's thread", async () => {
    const { t, base, buyer } = world;
    const seller = await createUser(t, { name: 'Nia Notified' });
    const car = await createListing(t, seller, { make: 'Porsche', model: '911 GT3', price: PRICE });
    const s = await tabs.open(seller);
    await s.page.goto(`${base}/dashboard`);
    await expect.poll(() => bell(s.page).getAttribute('aria-label'), SETTLE).toBe('Notifications');
    await markPage(s.page);

    // The buyer makes an offer; the seller's badge counts it without a reload.
    const made = await t.app.inject({ method: 'POST', url: `/api/cars/${car.id}/offers`, headers: buyer.auth, payload: { amount: 88_000, message: 'Can view it on Saturday.' } });
    expect(made.statusCode, made.body).toBe(201);
    const offerId: number = made.json().data.id;
    await expect.poll(() => bell(s.page).getAttribute('aria-label'), SETTLE).toBe('Notifications, 1 unread');
    expect(await stillSamePage(s.page)).toBe(true);

    // The bell's panel lists it, unread, with a link to the thread.
    await bell(s.page).click();
    const panel = s.page.getByRole('dialog', { name: 'Notifications' });
    await panel.waitFor();
    const item = panel.getByTestId('notification-item').filter({ hasText: `Offer #${offerId}:` });
    expect(await item.count()).toBe(1);
    const text = await item.innerText();
    expect(text).toContain('New offer');
    expect(text).toContain(`Bea Buyer offers ${usd(88_000)} for the`);
    expect(await item.getAttribute('class')).toContain('bell-item--unread');
    const view = item.getByRole('link', { name: 'View offer' });
    expect(await view.getAttribute('href')).toBe(`/offers/${offerId}`);
    await s.page.screenshot({ path: '/tmp/offers-notification-panel.png', animations: 'disabled' });

    // Clicking it opens the thread in the app (no reload), closes the panel and marks it read.
    await view.click();
    await expect.poll(() => new URL(s.page.url()).pathname, SETTLE).toBe(`/offers/${offerId}`);
    await s.page.getByRole('heading', { level: 1, name: `Offer #${offerId}` }).waitFor();
    expect(await tableAmount(s.page)).toBe(usd(88_000));
    expect(await s.page.getByTestId('offer-note').innerText()).toContain('Can view it on Saturday.');
    expect(await s.page.getByTestId('offer-turn').innerText()).toContain('Your turn');
    expect(await s.page.getByTestId('offer-accept').count()).toBe(1);
    expect(await stillSamePage(s.page)).toBe(true);
    expect(await panel.count()).toBe(0);
    await expect.poll(() => bell(s.page).getAttribute('aria-label'), SETTLE).toBe('Notifications');
    await shoot(s.page, 'thread-from-notification');
    expectNoUnexpectedErrors(s);
  }, 60_000);

  it('the seller offers an auction\'s car to the runner-up from My Listings, and the runner-up sees it live', async () => {
    const { t, base, seller } = world;
    const [winner, runnerUp] = [await createUser(t, { name: 'Wyn Winner' }), await createUser(t, { name: 'Rory Runner' })];
    const inject = (user: SignedInUser, method: 'GET' | 'POST', url: string, payload?: object) => request(t, method, url, user, payload);
    /** An auction of a few seconds with these bids, closed with `outcome`. */
    async function auctionEnded(bids: [SignedInUser, number][], outcome: string, reservePrice?: number): Promise<number> {
      const { id } = await listCar(t, seller, {
        make: 'Ferrari', model: 'F40 Second Chance', year: 1990, price: 50_000, mileage: 9_000, location: 'Monterey, CA',
        description: 'An auction that ends within the test.', bodyStyle: 'sports',
        auctionInSeconds: 3, ...(reservePrice ? { reservePrice } : {}),
      });
      for (const [who, amount] of bids) expect((await inject(who, 'POST', '/api/bids', { carId: id, amount })).statusCode).toBe(201);
      await expect
        .poll(async () => {
          await t.app.services.auctions.close(id).catch(() => undefined);
          return (await inject(seller, 'GET', `/api/cars/${id}`)).json().data.auction.outcome;
        }, SETTLE)
        .toBe(outcome);
      return id;
    }

    // Below its reserve an ended auction takes offers of any amount, from its car page.
    const unsold = await auctionEnded([[winner, 60_000]], 'reserve_not_met', 150_000);
    const r = await tabs.open(runnerUp);
    await r.page.goto(`${base}/car/${unsold}`);
    await r.page.getByTestId('make-offer').click();
    expect(await r.page.getByTestId('make-offer-dialog').innerText()).toContain('Name any amount');

    // A sold auction whose winner does not pay (and cancels) can go to the runner-up.
    const carId = await auctionEnded([[runnerUp, 55_000], [winner, 60_000]], 'sold');
    const [order] = (await inject(winner, 'GET', '/api/orders')).json().data.orders.filter((o: { carId: number }) => o.carId === carId);
    expect((await inject(winner, 'POST', `/api/orders/${order.id}/cancel`, { reason: 'Cannot pay' })).statusCode).toBe(200);

    await r.page.goto(`${base}/dashboard?tab=offers`);
    await r.page.getByText('No offers yet').waitFor();
    await markPage(r.page);

    const s = await tabs.open(seller, { viewport: PHONE });
    await s.page.goto(`${base}/dashboard?tab=listings`);
    const listing = s.page.locator(`[data-testid="listing-row"][data-car-id="${carId}"]`);
    await listing.getByTestId('second-chance').click();
    const dialog = s.page.getByTestId('second-chance-dialog');
    expect(await dialog.innerText()).toContain(`Offer the car to Rory Runner at ${usd(55_000)}? They have 1 day to accept.`);
    await s.page.screenshot({ path: '/tmp/offers-second-chance-dialog-phone.png', animations: 'disabled' });
    await dialog.getByTestId('offer-dialog-submit').click();
    await expect.poll(() => new URL(s.page.url()).pathname, SETTLE).toMatch(/^\/offers\/\d+$/);
    const offerId = Number(new URL(s.page.url()).pathname.split('/').pop());
    expect(await tableAmount(s.page)).toBe(usd(55_000));
    expect(await s.page.locator('main').innerText()).toContain('SECOND CHANCE OFFER');

    // The runner-up's tab shows it without a reload, as their turn.
    const row = r.page.locator(`[data-testid="offer-row"][data-offer-id="${offerId}"]`);
    await row.waitFor(SETTLE);
    expect(await row.getByTestId('offer-turn').innerText()).toBe('Your turn');
    expect(await stillSamePage(r.page)).toBe(true);
    expectNoUnexpectedErrors(r);
    expectNoUnexpectedErrors(s);
  }, 120_000);
});
