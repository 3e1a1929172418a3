/**
 * The escrow order page (contract §Orders, §The escrow lifecycle, §Real-time) in real browsers
 * against the real server, with escrow days 20 seconds long: a buyer and a seller, each in their
 * own browser context, walk one order from the car page to the released payout, each seeing the
 * other's moves live; a second order is disputed in the page and refunded by the operator
 * command, and the car goes back on the market. Expected texts come from the contract's numbers
 * (price, plan fee) and the order's own record, not from the client's formatting code.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { cars } from '../../db/schema/index.ts';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, expectNoHorizontalScroll, expectNoUnexpectedErrors, startBrowserApp, screenshot, usd, type Tab } from '../helpers/browser.ts';
import { createListing, orderApi, orderIn, waitForOrder } from '../helpers/escrow.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

const run = promisify(execFile);

/** Live updates and the job runner on a loaded 2-core machine need more than `expect.poll`'s 1 s. */
const SETTLE = { timeout: 15_000 };
/** Browsers log refused requests as console errors; only these are expected here. */
const EXPECTED_HTTP_ERRORS = /Failed to load resource: the server responded with a status of 404/;
const EXPECTED_CONFLICT = /Failed to load resource: the server responded with a status of 409/;
const PREMIUM = ESCROW_PLANS.premium;

let browser: Browser;
let t: TestApp;
let base: string;
let buyer: SignedInUser;
let seller: SignedInUser;

const tabs = new Tabs(() => browser, { timeout: 15_000 });
/** A tab signed in as `user` (session put in localStorage before the app starts), or a visitor's. */
const openTab = (user: SignedInUser | null, viewport = DESKTOP) => tabs.open(user, { viewport });

/** Runs `npm run escrow -- <args>` as the operator would, against the test server's data folder. */
async function escrowCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/src/cli/escrow.ts', ...args], {
      env: { ...process.env, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'warn', DATABASE_URL: t.database.url ?? '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// ── What the pages show ─────────────────────────────────────────────────────────────────────

const status = (p: Page) => p.getByTestId('order-status').innerText();
const nextStep = (p: Page) => p.getByTestId('order-next-step').innerText();
const steps = (p: Page) =>
  p.getByTestId('order-step').evaluateAll((items) => items.map((li) => `${li.getAttribute('data-status')}:${li.getAttribute('data-state')}`));
const section = (p: Page, testId: string) => p.getByTestId(testId).innerText();

async function openOrderPage(tab: Tab, orderId: number): Promise<void> {
  await tab.page.goto(`${base}/orders/${orderId}`);
  await tab.page.getByRole('heading', { level: 1, name: `Order #${orderId}` }).waitFor();
}

async function openCar(tab: Tab, carId: number): Promise<void> {
  await tab.page.goto(`${base}/car/${carId}`);
  await tab.page.getByRole('heading', { level: 1 }).waitFor();
  await tab.page.getByTestId('asking-price').waitFor();
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp({ ESCROW_DAY_SECONDS: '20', JOB_POLL_SECONDS: '0.5' }));
  buyer = await createUser(t, { name: 'Bea Buyer' });
  seller = await createUser(t, { name: 'Sam Seller' });
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('escrow order page', () => {
  it('buyer and seller walk one order from payment to release, each seeing the other live', async () => {
    const car = await createListing(t, seller, { make: 'Porsche', model: '911 Carrera S' });
    const carTitle = `2022 Porsche 911 Carrera S`;
    const total = car.price + PREMIUM.price;

    const b = await openTab(buyer);
    const s = await openTab(seller);
    const watcher = await openTab(null); // anyone on the car page sees the listing change live

    // The buyer orders from the car page.
    await openCar(b, car.id);
    await openCar(watcher, car.id);
    expect(await watcher.page.getByRole('button', { name: 'Place Bid' }).count()).toBe(1);
    expect(await watcher.page.getByTestId('car-status-badge').count()).toBe(0);
    await b.page.getByRole('button', { name: 'Buy with Escrow' }).click();
    const buyDialog = b.page.getByTestId('buy-with-escrow-dialog');
    await buyDialog.getByRole('button', { name: 'Place Order' }).click();
    await buyDialog.getByTestId('order-placed').waitFor();
    await screenshot(b.page, 'buy-with-escrow-placed');
    const [placed] = (await t.app.inject({ method: 'GET', url: '/api/orders', headers: buyer.auth })).json().data.orders;
    expect(placed).toMatchObject({ carId: car.id, status: 'awaiting_payment', plan: 'premium', amount: car.price });
    const orderId: number = placed.id;
    const goTo = buyDialog.getByRole('link', { name: 'Go to your order' });
    expect(await goTo.getAttribute('href')).toBe(`/orders/${orderId}`);
    await goTo.click();
    await b.page.getByRole('heading', { level: 1, name: `Order #${orderId}` }).waitFor();
    expect(new URL(b.page.url()).pathname).toBe(`/orders/${orderId}`);

    // The buyer's page: the car, the money, whose move it is, and the payment deadline ticking.
    expect(await status(b.page)).toBe('Awaiting payment');
    expect(await nextStep(b.page)).toBe('Waiting for you to pay into escrow');
    const amounts = await section(b.page, 'order-amounts');
    for (const text of [usd(car.price), usd(PREMIUM.price), usd(total)]) expect(amounts).toContain(text);
    expect(await b.page.getByRole('link', { name: carTitle }).getAttribute('href')).toBe(`/car/${car.id}`);
    const summary = await b.page.locator('main').innerText();
    expect(summary).toContain(PREMIUM.name);
    expect(summary).toMatch(new RegExp(`Inspection period\\s+${PREMIUM.guaranteeDays} days`));
    const countdown = b.page.getByTestId('order-countdown');
    expect(await countdown.innerText()).toMatch(/^Time left to pay: (\d+ min )?\d+ s/);
    const before = await countdown.innerText();
    await expect.poll(() => countdown.innerText(), { ...SETTLE, message: 'the countdown ticks' }).not.toBe(before);
    expect(await steps(b.page)).toEqual([
      'awaiting_payment:current',
      'funded:upcoming',
      'in_transit:upcoming',
      'inspection:upcoming',
      'accepted:upcoming',
      'released:upcoming',
    ]);
    expect(await b.page.getByRole('button', { name: 'Cancel Order' }).count()).toBe(1);

    // The seller's page for the same order: their side of it, and no Pay button.
    await openOrderPage(s, orderId);
    expect(await status(s.page)).toBe('Awaiting payment');
    expect(await nextStep(s.page)).toBe('Waiting for the buyer to pay into escrow');
    expect(await s.page.getByText('Escrow order · You are selling').count()).toBe(1);
    expect(await s.page.getByRole('button', { name: 'Pay into Escrow' }).count()).toBe(0);
    expect(await s.page.getByRole('button', { name: 'Cancel Order' }).count()).toBe(1);

    // Pay: the dialog shows price + fee = total and offers wire or card; one request, with an Idempotency-Key.
    const payRequests: { key: string | null }[] = [];
    b.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/orders/${orderId}/pay`)) payRequests.push({ key: request.headers()['idempotency-key'] ?? null });
    });
    await b.page.getByRole('button', { name: 'Pay into Escrow' }).click();
    const pay = b.page.getByRole('dialog', { name: 'Pay into Escrow' });
    await pay.waitFor();
    const totals = await pay.getByTestId('order-totals').innerText();
    expect(totals).toMatch(new RegExp(`Vehicle price\\s+${usd(car.price).replace('$', '\\$')}`));
    expect(totals).toMatch(new RegExp(`Escrow fee \\(${PREMIUM.name}\\)\\s+\\${usd(PREMIUM.price)}`));
    expect(totals).toMatch(new RegExp(`Total\\s+\\${usd(total)}`));
    expect(await pay.getByLabel('Bank wire').isChecked()).toBe(true);
    await pay.getByLabel('Card').check();
    await screenshot(b.page, 'order-pay-dialog');
    await pay.getByRole('button', { name: `Pay ${usd(total)}` }).click();
    await expect.poll(() => status(b.page), { ...SETTLE, message: 'the buyer sees the payment' }).toBe('Funded');
    expect(await pay.count()).toBe(0);
    expect(payRequests).toHaveLength(1);
    expect(payRequests[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    const payment = await section(b.page, 'order-payment');
    expect(payment).toContain('Card');
    expect(payment).toContain(usd(total));
    expect(await nextStep(b.page)).toBe('Waiting for the seller to ship the car');
    await expect
      .poll(() => b.page.getByTestId('order-next-step').evaluate((el) => el === document.activeElement), { ...SETTLE, message: 'focus moves to the new next step' })
      .toBe(true);

    // The seller's page follows live; so does the car page (sale pending, bidding closed).
    await expect.poll(() => status(s.page), { ...SETTLE, message: "the seller's page updates live" }).toBe('Funded');
    expect(await nextStep(s.page)).toBe('Waiting for you to ship the car');
    await expect.poll(() => watcher.page.getByTestId('car-status-badge').innerText().catch(() => ''), SETTLE).toMatch(/sale pending/i);
    expect(await watcher.page.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    expect(await watcher.page.getByRole('link', { name: /Buy with Escrow/ }).count()).toBe(0);
    await screenshot(watcher.page, 'car-sale-pending-desktop');

    // Ship: both fields are required; then the carrier and tracking number go through.
    await s.page.getByRole('button', { name: 'Enter Shipment' }).click();
    const ship = s.page.getByRole('dialog', { name: 'Ship the Car' });
    await ship.waitFor();
    expect(await ship.getByLabel('Carrier').evaluate((el) => el === document.activeElement)).toBe(true);
    await ship.getByRole('button', { name: 'Mark as Shipped' }).click();
    expect(await ship.getByText('Enter the carrier that is transporting the car.').isVisible()).toBe(true);
    expect(await ship.getByText('Enter the tracking number the carrier gave you.').isVisible()).toBe(true);
    expect(await status(s.page)).toBe('Funded');
    await ship.getByLabel('Carrier').fill('Reliable Carriers');
    await ship.getByLabel('Tracking number').fill('RC-2231-884');
    await ship.getByRole('button', { name: 'Mark as Shipped' }).click();
    await expect.poll(() => status(s.page), SETTLE).toBe('In transit');
    expect(await nextStep(s.page)).toBe('Waiting for the buyer to confirm delivery of the car');

    // The buyer's page shows the shipment live, and confirms delivery: the inspection clock starts.
    await expect.poll(() => status(b.page), { ...SETTLE, message: "the buyer's page updates live" }).toBe('In transit');
    const shipment = await section(b.page, 'order-shipment');
    expect(shipment).toContain('Reliable Carriers');
    expect(shipment).toContain('RC-2231-884');
    await b.page.getByRole('button', { name: 'Confirm Delivery' }).click();
    await expect.poll(() => status(b.page), SETTLE).toBe('Inspection');
    expect(await countdown.innerText()).toMatch(/^Inspection time left: (\d+ min )?\d+ s/);
    expect(await nextStep(b.page)).toBe('Waiting for you to inspect the car, then accept it or open a dispute');
    await expect.poll(() => status(s.page), SETTLE).toBe('Inspection');
    expect(await s.page.getByTestId('order-countdown').innerText()).toMatch(/^Inspection time left/);

    // Screenshots mid-way (the fullest page): desktop and phone, buyer and seller.
    await screenshot(b.page, 'order-buyer-desktop');
    await screenshot(s.page, 'order-seller-desktop');
    for (const tab of [b, s]) {
      await tab.page.setViewportSize(PHONE);
      await expectNoHorizontalScroll(tab.page);
    }
    await screenshot(b.page, 'order-buyer-phone');
    await screenshot(s.page, 'order-seller-phone');
    await b.page.setViewportSize(DESKTOP);

    // Accept: the dialog says the funds go to the seller; the payout lands and both pages end at Released.
    await b.page.getByRole('button', { name: 'Accept the Car' }).click();
    const accept = b.page.getByRole('dialog', { name: 'Accept the Car' });
    await accept.waitFor();
    expect(await accept.innerText()).toContain('Funds will be released to the seller');
    await accept.getByRole('button', { name: 'Accept and Release Funds' }).click();
    for (const tab of [b, s]) {
      await expect.poll(() => status(tab.page), { ...SETTLE, message: 'released, live' }).toBe('Released');
      await expect.poll(() => section(tab.page, 'order-payout'), SETTLE).toContain('Paid out');
      expect(await section(tab.page, 'order-payout')).toContain(usd(car.price));
      expect(await tab.page.getByTestId('order-countdown').count()).toBe(0);
      expect(await tab.page.getByRole('button', { name: /Accept|Dispute|Cancel/ }).count()).toBe(0);
      expect(await steps(tab.page)).toEqual(['awaiting_payment:done', 'funded:done', 'in_transit:done', 'inspection:done', 'accepted:done', 'released:done']);
    }
    expect(await nextStep(s.page)).toBe('Complete: the funds were released to you');
    expect(await nextStep(b.page)).toBe('Complete: the funds were released to the seller');
    const server = await waitForOrder(t, buyer, orderId, (o) => o.status === 'released');
    expect(await section(s.page, 'order-payout')).toContain(server.payout!.reference!);
    await screenshot(s.page, 'order-seller-released-phone');
    await s.page.setViewportSize(DESKTOP);
    await screenshot(s.page, 'order-seller-released-desktop');

    // The car page: sold (live for the watcher), no bid form and no order button; the buyer's link to the order.
    await expect.poll(() => watcher.page.getByTestId('car-status-badge').innerText().catch(() => ''), SETTLE).toMatch(/^sold$/i);
    await openCar(b, car.id);
    expect((await b.page.getByTestId('car-status-badge').innerText()).toLowerCase()).toBe('sold');
    expect(await b.page.getByTestId('car-status-notice').innerText()).toContain('sold');
    expect(await b.page.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    expect(await b.page.getByLabel('Your bid').count()).toBe(0);
    expect(await b.page.getByRole('button', { name: 'Buy with Escrow' }).count()).toBe(0);
    await expect.poll(() => b.page.getByRole('link', { name: 'View your order' }).getAttribute('href').catch(() => null), SETTLE).toBe(`/orders/${orderId}`);
    await b.page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(b.page);
    await screenshot(b.page, 'car-sold-phone');
    await b.page.setViewportSize(DESKTOP);

    // The dashboards list the order for each side, with the next step and a link to it.
    for (const [tab, role] of [
      [b, 'You are buying'],
      [s, 'You are selling'],
    ] as const) {
      await tab.page.goto(`${base}/dashboard?tab=orders`);
      const row = tab.page.getByTestId('order-row').filter({ hasText: `Order #${orderId}` });
      await row.waitFor();
      const text = await row.innerText();
      expect(text).toContain(role);
      expect(text).toContain(carTitle);
      expect(text).toContain('Released');
      expect(text).toMatch(/Complete: the funds were released/);
      expect(await row.getByRole('link', { name: `View order #${orderId}` }).getAttribute('href')).toBe(`/orders/${orderId}`);
    }
    await screenshot(b.page, 'dashboard-orders-desktop');
    await b.page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(b.page);
    await screenshot(b.page, 'dashboard-orders-phone');

    // The seller's bell: order notifications lead to the order.
    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ }).click();
    const panel = s.page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByTestId('notification-item').filter({ hasText: `Order #${orderId}` }).first();
    await item.waitFor();
    expect(await item.getByRole('link', { name: 'View order' }).getAttribute('href')).toBe(`/orders/${orderId}`);
    await item.getByRole('link', { name: 'View order' }).click();
    await expect.poll(() => new URL(s.page.url()).pathname, SETTLE).toBe(`/orders/${orderId}`);
    await s.page.getByRole('heading', { level: 1, name: `Order #${orderId}` }).waitFor();

    expectNoUnexpectedErrors(b);
    expectNoUnexpectedErrors(s);
    expectNoUnexpectedErrors(watcher);
  }, 180_000);

  it('a disputed order is refunded by the operator: the buyer sees it live and the car is listed again', async () => {
    const order = await orderIn(t, 'inspection', buyer, seller);
    const b = await openTab(buyer, PHONE);
    await openOrderPage(b, order.id);
    expect(await status(b.page)).toBe('Inspection');
    const carTab = await openTab(null);
    await openCar(carTab, order.carId);
    expect((await carTab.page.getByTestId('car-status-badge').innerText()).toLowerCase()).toBe('sale pending');

    // Dispute: a reason is required; it shows in the timeline once the dispute is open.
    await b.page.getByRole('button', { name: 'Open a Dispute' }).click();
    const dispute = b.page.getByRole('dialog', { name: 'Open a Dispute' });
    await dispute.waitFor();
    await dispute.getByRole('button', { name: 'Open Dispute' }).click();
    expect(await dispute.getByText(/^Describe what is wrong with the car/).isVisible()).toBe(true);
    const reason = 'The paint on the driver door does not match the listing photos.';
    await dispute.getByLabel('What is wrong with the car?').fill(reason);
    await screenshot(b.page, 'order-dispute-dialog-phone');
    await dispute.getByRole('button', { name: 'Open Dispute' }).click();
    await expect.poll(() => status(b.page), SETTLE).toBe('Disputed');
    expect(await nextStep(b.page)).toBe('Waiting for our escrow team to resolve the dispute');
    expect(await b.page.getByTestId('order-timeline').innerText()).toContain(reason);
    expect((await steps(b.page)).at(-1)).toBe('disputed:current');
    expect(await b.page.getByTestId('order-countdown').count()).toBe(0);
    expect(await b.page.getByRole('button', { name: /Accept|Dispute/ }).count()).toBe(0);
    await expectNoHorizontalScroll(b.page);
    await screenshot(b.page, 'order-buyer-disputed-phone');

    // The operator refunds it from the command line; the page follows without a reload.
    const note = 'Inspector confirmed the paint damage';
    const result = await escrowCommand(['resolve', String(order.id), 'refund', '--note', note]);
    expect(result.code, result.stderr).toBe(0);
    await expect.poll(() => status(b.page), { ...SETTLE, message: 'refunded, live' }).toBe('Refunded');
    await expect.poll(() => section(b.page, 'order-refund').catch(() => ''), SETTLE).toContain('Refunded');
    expect(await section(b.page, 'order-refund')).toContain(usd(order.amount + order.escrowFee));
    expect(await nextStep(b.page)).toBe('Closed: your payment was refunded to you');
    expect(await b.page.getByTestId('order-timeline').innerText()).toContain(note);
    expect((await steps(b.page)).slice(-2)).toEqual(['disputed:done', 'refunded:done']);
    await screenshot(b.page, 'order-buyer-refunded-phone');

    // The car is on the market again, live for whoever has its page open.
    await expect.poll(() => carTab.page.getByTestId('car-status-badge').count(), { ...SETTLE, message: 'listed again, live' }).toBe(0);
    await carTab.page.getByRole('button', { name: 'Place Bid' }).waitFor();
    expect(await carTab.page.getByTestId('car-status-notice').count()).toBe(0);
    expect(await carTab.page.getByRole('link', { name: 'Sign in to Buy with Escrow' }).count()).toBe(1);

    expectNoUnexpectedErrors(b);
    expectNoUnexpectedErrors(carTab);
  }, 120_000);

  it('a cancelled order: either party may cancel while unpaid, and the other sees it live', async () => {
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const s = await openTab(seller);
    const b = await openTab(buyer);
    await openOrderPage(s, order.id);
    await openOrderPage(b, order.id);
    await s.page.getByRole('button', { name: 'Cancel Order' }).click();
    const cancel = s.page.getByRole('dialog', { name: 'Cancel Order' });
    await cancel.waitFor();
    // Escape keeps the order.
    await s.page.keyboard.press('Escape');
    await expect.poll(() => cancel.count(), SETTLE).toBe(0);
    expect(await status(s.page)).toBe('Awaiting payment');
    await s.page.getByRole('button', { name: 'Cancel Order' }).click();
    await cancel.getByLabel(/Reason/).fill('The car was sold at the dealership');
    await cancel.getByRole('button', { name: 'Cancel Order' }).click();
    await expect.poll(() => status(s.page), SETTLE).toBe('Cancelled');
    await expect.poll(() => status(b.page), { ...SETTLE, message: 'the buyer sees the cancellation live' }).toBe('Cancelled');
    expect(await nextStep(b.page)).toBe('Closed: this order was cancelled');
    expect(await b.page.getByTestId('order-timeline').innerText()).toContain('The car was sold at the dealership');
    expect(await b.page.getByRole('button', { name: 'Pay into Escrow' }).count()).toBe(0);
    expect(await steps(b.page)).toEqual(['awaiting_payment:done', 'cancelled:done']);
    await screenshot(b.page, 'order-buyer-cancelled-desktop');
    expectNoUnexpectedErrors(s);
    expectNoUnexpectedErrors(b);
  }, 60_000);

  it("a move refused because the order changed meanwhile shows the server's reason and the order as it is now", async () => {
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const b = await openTab(buyer);
    // No live connection for this tab, so the page cannot know the order moved until it asks.
    await b.context.route(/\/socket\.io\//, (route) => route.abort());
    await b.page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await openOrderPage(b, order.id);
    await b.page.getByRole('button', { name: 'Pay into Escrow' }).click();
    const pay = b.page.getByRole('dialog', { name: 'Pay into Escrow' });
    await pay.waitFor();
    const res = await orderApi(t).act(seller, order.id, 'cancel', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(b.page)).toBe('Awaiting payment');

    await pay.getByRole('button', { name: /^Pay \$/ }).click();
    await expect.poll(() => status(b.page), { ...SETTLE, message: 'the order is re-read after the 409' }).toBe('Cancelled');
    expect(await pay.count(), 'the dialog of a move no longer possible closes').toBe(0);
    expect(await b.page.getByTestId('order-action-error').innerText()).toMatch(/cannot pay/i);
    expect(await b.page.getByRole('button', { name: 'Pay into Escrow' }).count()).toBe(0);
    expectNoUnexpectedErrors(b, /status of 409|socket\.io|WebSocket|net::ERR_FAILED/);
  }, 60_000);

  it('the asking price changed while the buyer was ordering: the dialog shows the new price and orders at it', async () => {
    const car = await createListing(t, seller, { make: 'Ferrari', model: 'Roma Repriced' });
    const b = await openTab(buyer);
    await openCar(b, car.id);
    await b.page.getByRole('button', { name: 'Buy with Escrow' }).click();
    const dialog = b.page.getByTestId('buy-with-escrow-dialog');
    await expect.poll(() => dialog.getByTestId('order-total').innerText(), SETTLE).toBe(usd(car.price + PREMIUM.price));
    const newPrice = car.price + 2_500;
    await t.database.db.update(cars).set({ price: newPrice }).where(eq(cars.id, car.id));

    await dialog.getByRole('button', { name: 'Place Order' }).click();
    const error = dialog.getByTestId('buy-escrow-error');
    await error.waitFor();
    expect(await error.innerText()).toContain(`The asking price is now ${usd(newPrice)}`);
    expect(await dialog.getByTestId('new-price').innerText()).toBe(usd(newPrice));
    expect(await dialog.getByTestId('order-total').innerText()).toBe(usd(newPrice + PREMIUM.price));
    // The car page re-read the car behind the dialog.
    await expect.poll(() => b.page.getByTestId('asking-price').innerText(), SETTLE).toBe(usd(newPrice));

    await dialog.getByRole('button', { name: 'Place Order' }).click();
    await dialog.getByTestId('order-placed').waitFor();
    const [latest] = (await t.app.inject({ method: 'GET', url: '/api/orders', headers: buyer.auth })).json().data.orders;
    expect(latest).toMatchObject({ carId: car.id, amount: newPrice });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    // Back on the car page: the order is linked and the buyer is not offered a second one.
    await expect.poll(() => b.page.getByRole('link', { name: 'View your order' }).getAttribute('href').catch(() => null), SETTLE).toBe(`/orders/${latest.id}`);
    expect(await b.page.getByRole('button', { name: 'Buy with Escrow' }).count()).toBe(0);
    expectNoUnexpectedErrors(b, EXPECTED_CONFLICT);
  }, 60_000);

  it('visitors are sent to sign in, and someone else\'s order is not found', async () => {
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const visitor = await openTab(null);
    await visitor.page.goto(`${base}/orders/${order.id}`);
    await expect.poll(() => new URL(visitor.page.url()).pathname, SETTLE).toBe('/login');

    const stranger = await createUser(t, { name: 'Nosy Neighbour' });
    const tab = await openTab(stranger);
    await tab.page.goto(`${base}/orders/${order.id}`);
    await tab.page.getByRole('heading', { name: 'Order Not Found' }).waitFor();
    expect(await tab.page.getByRole('link', { name: 'Your Orders' }).getAttribute('href')).toBe('/dashboard?tab=orders');
    await tab.page.goto(`${base}/orders/not-a-number`);
    await tab.page.getByRole('heading', { name: 'Order Not Found' }).waitFor();
    expectNoUnexpectedErrors(visitor);
    expectNoUnexpectedErrors(tab, EXPECTED_HTTP_ERRORS);
  }, 60_000);
});
