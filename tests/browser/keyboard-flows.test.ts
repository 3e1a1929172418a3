/**
 * The main flows with the keyboard only (issue 34): Tab, Shift+Tab, Enter, Space, the arrow
 * keys, Escape, typing and pasting, never a click. Each step checks where focus is by role and
 * accessible name, that it can be seen (an indicator, under nothing sticky), and that axe-core
 * finds no WCAG 2.x A/AA violation. Data the flows start from is made through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, expectFocusOn, expectFocusVisible, expectNoUnexpectedErrors, focusSight, focusedControl, startBrowserApp, tabTo, usd, wcagProblems } from '../helpers/browser.ts';
import { listCar } from '../helpers/cars.ts';
import { orderApi, orderIn } from '../helpers/escrow.ts';
import { createStaff, enrolTotp, totpCode } from '../helpers/staff.ts';
import { TEST_PASSWORD, createUser, type SignedInUser } from '../helpers/users.ts';

const SETTLE = { timeout: 15_000 };
const w = {} as { browser: Browser; t: TestApp; base: string; seller: SignedInUser };
const tabs = new Tabs(() => w.browser, { timeout: 15_000 });

beforeAll(async () => {
  Object.assign(w, await startBrowserApp());
  w.seller = await createUser(w.t, { name: 'Sam Seller' });
});
afterAll(() => closeBrowserApp({ tabs, browser: w.browser, t: w.t }));

/** No WCAG 2.x A/AA violation on the page as it is now, `step` naming where. */
async function expectNoViolations(page: Page, step: string): Promise<void> {
  expect(await wcagProblems(page), `axe: ${step}`).toEqual([]);
}

/** Polls until focus is on `role` `name` (it moves there once a request is answered). */
async function focusLandsOn(page: Page, role: string, name: string | RegExp, label: string): Promise<void> {
  await expect
    .poll(async () => {
      const control = await focusedControl(page);
      return control && control.role === role && (typeof name === 'string' ? control.name === name : name.test(control.name)) ? 'there' : (control?.label ?? 'the page body');
    }, { ...SETTLE, message: `${label}: focus on ${role} "${String(name)}"` })
    .toBe('there');
  await expectFocusVisible(page, label);
}

/**
 * Polls until focus is on `target`, an element that is not a control (a status, a next step) and
 * so has no name of its own to check, given focus by the app after a move took its control away.
 * It must be in view and under nothing sticky; `indicator: false` for one styled without a ring.
 */
async function focusReaches(page: Page, target: Locator, label: string, options: { indicator?: boolean } = {}): Promise<void> {
  await expect.poll(() => target.evaluate((el) => el === document.activeElement).catch(() => false), { ...SETTLE, message: `${label}: where focus is` }).toBe(true);
  const sight = (await focusSight(page))!;
  expect(sight.coveredBy, `${label}: ${sight.where} is under nothing sticky`).toEqual([]);
  expect(sight.offscreen, `${label}: ${sight.where} is within the window`).toBe(false);
  if (options.indicator !== false) expect(sight.indicated, `${label}: ${sight.where} shows a focus indicator`).toBe(true);
}

/** From the top of a freshly loaded page: the skip link first, Enter, and focus is in the content. */
async function skipToContent(page: Page): Promise<void> {
  await page.keyboard.press('Tab');
  await expectFocusOn(page, 'link', 'Skip to content', 'first Tab');
  await expectFocusVisible(page, 'the skip link');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id), SETTLE).toBe('main');
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('the focus checks', () => {
  it('find a control without a focus indicator, one under a fixed bar, one never reached, and focus lost', async () => {
    const { page } = await tabs.open(null);
    const load = (body: string) => page.setContent(`<html lang="en"><head><title>Check</title></head><body>${body}</body></html>`);

    await load('<main><button style="outline: none">No ring</button></main>');
    await expect(tabTo(page, 'button', 'No ring')).rejects.toThrow(/button\.?[^:]*"No ring" shows no focus indicator/);

    // Tab brings each button in at the bottom of the window, where the bar lies over it.
    const items = Array.from({ length: 30 }, (_, i) => `<p><button>Item ${i + 1}</button></p>`).join('');
    await load(`<main>${items}</main><div class="bar" style="position: fixed; bottom: 0; left: 0; right: 0; height: 120px; background: #eee">Bid bar</div>`);
    await expect(tabTo(page, 'button', 'Item 30')).rejects.toThrow(/"Item \d+" is under sticky elements[\s\S]*div\.bar/);

    await load('<main><button>A</button><button>B</button><button>C</button><button>D</button></main>');
    await expect(tabTo(page, 'button', 'Missing', { max: 3 })).rejects.toThrow('button "Missing" not reached in 3 presses of Tab; passed: button "A" → button "B" → button "C"');

    await load('<main><button onclick="this.remove()">Gone</button></main>');
    await tabTo(page, 'button', 'Gone', { max: 1 });
    await page.keyboard.press('Enter');
    await expect(expectFocusOn(page, 'button', 'Gone', 'after it went')).rejects.toThrow('after it went: focus should be on button "Gone", but it is on nothing (the page body)');
  });
});

describe('keyboard-only flows', () => {
  it('signs in with a pasted two-factor code', async () => {
    const user = await createUser(w.t, { name: 'Tess Totp' });
    const { secret } = await enrolTotp(w.t, user);
    const tab = await tabs.open(null);
    const { page } = tab;
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: w.base });
    await page.goto(`${w.base}/login`);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await expectNoViolations(page, 'sign in');

    await skipToContent(page);
    await tabTo(page, 'textbox', 'Email');
    await page.keyboard.type(user.email);
    await tabTo(page, 'textbox', 'Password');
    await page.keyboard.type(TEST_PASSWORD);
    await page.keyboard.press('Enter');

    // The password was right: the code is asked for, and focus waits in its field.
    await focusLandsOn(page, 'textbox', 'Authentication code', 'the second step');
    await expectNoViolations(page, 'sign in: authentication code asked');

    // Pasted as an authenticator app shows it, in two groups of three.
    const code = totpCode(secret);
    await page.evaluate((text) => navigator.clipboard.writeText(text), `${code.slice(0, 3)} ${code.slice(3)}`);
    await page.keyboard.press('ControlOrMeta+V');
    expect(await page.getByLabel('Authentication code').inputValue()).toBe(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => pathOf(page), SETTLE).toBe('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).waitFor();
    // The form went with the sign-in screen: focus continues at the start of the new content, not lost to the page.
    await focusReaches(page, page.getByRole('main'), 'after signing in', { indicator: false });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null), 'the next Tab stays in the content').toBe(true);
    await expectNoViolations(page, 'signed in');
    // The first answer asked for the code (401 TOTP_REQUIRED); the browser logs it.
    expectNoUnexpectedErrors(tab, /status of 401/);
  }, 60_000);

  // On a phone the page is one long column under the sticky header: the bid form is far down it.
  it.each([
    ['a desktop', DESKTOP],
    ['a phone', PHONE],
  ] as const)('places a bid with a maximum on an auction, on %s', async (_, viewport) => {
    const buyer = await createUser(w.t, { name: 'Bo Bidder' });
    const car = await listCar(w.t, w.seller, { model: 'Carrera GT Keys', price: 50_000, auctionInSeconds: 2 * 86_400 });
    const tab = await tabs.open(buyer, { viewport });
    const { page } = tab;
    await page.goto(`${w.base}/car/${car.id}`);
    await page.getByLabel('Your bid').waitFor();
    await expectNoViolations(page, 'car page: auction');

    await skipToContent(page);
    await tabTo(page, 'textbox', 'Your bid', { max: 80 });
    expect(await page.getByLabel('Your bid').inputValue(), 'the minimum is filled in').toBe('50,000');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('51000');
    await tabTo(page, 'checkbox', 'Set a maximum');
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: 'Set a maximum' }).isChecked()).toBe(true);
    await tabTo(page, 'textbox', 'Your maximum', { max: 1 });
    await expectNoViolations(page, 'bid form with a maximum');
    await page.keyboard.type('60000');
    await page.keyboard.press('Enter');

    await expect.poll(() => page.getByTestId('bid-feedback').innerText().catch(() => ''), SETTLE).toBe(
      `Your bid of ${usd(51_000)} was placed. We bid for you up to your maximum of ${usd(60_000)}.`,
    );
    await expect.poll(() => page.getByTestId('my-maximum').innerText().catch(() => ''), SETTLE).toContain(`Your maximum: ${usd(60_000)}. You are leading.`);
    // The maximum's field went with the bid; focus is on what opened it, not lost to the page.
    await focusLandsOn(page, 'checkbox', 'Set a maximum', 'after the bid with a maximum');
    expect(await page.getByRole('checkbox', { name: 'Set a maximum' }).isChecked()).toBe(false);
    await expectNoViolations(page, 'bid placed with a maximum');

    // The next bid, at the minimum the field now shows, from the button: it keeps focus while the bid is on its way.
    await tabTo(page, 'button', 'Place Bid', { key: 'Shift+Tab', max: 1 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('bid-feedback').innerText().catch(() => ''), SETTLE).toBe(
      `Your bid of ${usd(51_500)} was placed. We bid for you up to your maximum of ${usd(60_000)}.`,
    );
    await focusLandsOn(page, 'button', 'Place Bid', 'after a bid from the button');
    await expectNoViolations(page, 'second bid placed');
    expectNoUnexpectedErrors(tab);
  }, 60_000);

  it('asks the seller a question in the discussion, and the seller answers it', async () => {
    const buyer = await createUser(w.t, { name: 'Quinn Asker' });
    const car = await listCar(w.t, w.seller, { model: 'Cayman Questions', price: 90_000 });
    const b = await tabs.open(buyer);
    await b.page.goto(`${w.base}/car/${car.id}`);
    await b.page.getByTestId('asking-price').waitFor();
    await expectNoViolations(b.page, 'car page: buy-now');

    // The buyer: Question, then the text, then Enter.
    await skipToContent(b.page);
    await tabTo(b.page, 'button', 'Question', { max: 120 });
    await b.page.keyboard.press('Space');
    expect(await b.page.getByRole('button', { name: 'Question', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await tabTo(b.page, 'textbox', 'Your message', { max: 1 });
    const question = 'Has the clutch been replaced?';
    await b.page.keyboard.type(question);
    await b.page.keyboard.press('Enter');
    const asked = b.page.getByTestId('chat-message').filter({ hasText: question });
    await asked.waitFor();
    expect(await asked.getByText('Question', { exact: true }).count()).toBe(1);
    await b.page.getByTestId('qa-question').filter({ hasText: question }).waitFor();
    await focusLandsOn(b.page, 'textbox', 'Your message', 'after asking');
    expect(await b.page.getByLabel('Your message').inputValue()).toBe('');
    await expectNoViolations(b.page, 'question asked');

    // The seller: Answer, the answer, Enter; focus goes back to Answer.
    const s = await tabs.open(w.seller);
    await s.page.goto(`${w.base}/car/${car.id}`);
    await s.page.getByTestId('chat-message').filter({ hasText: question }).waitFor();
    await skipToContent(s.page);
    await tabTo(s.page, 'button', 'Answer', { max: 120 });
    await s.page.keyboard.press('Enter');
    await focusLandsOn(s.page, 'textbox', 'Answer to Quinn Asker', 'the answer field');
    await expectNoViolations(s.page, 'answering a question');
    const answer = 'Yes, at 30,000 miles, with the invoice in the dossier.';
    await s.page.keyboard.type(answer);
    await s.page.keyboard.press('Enter');
    await s.page.getByTestId('chat-reply').filter({ hasText: answer }).waitFor();
    await focusLandsOn(s.page, 'button', 'Answer', 'after answering');
    await expectNoViolations(s.page, 'question answered');

    // The buyer's page shows the answer live, under the question in Seller Q&A.
    await b.page.getByTestId('qa-answer').filter({ hasText: answer }).waitFor(SETTLE);
    expectNoUnexpectedErrors(b);
    expectNoUnexpectedErrors(s);
  }, 90_000);

  it('makes an offer, the seller counters it, and the buyer counters back', async () => {
    const buyer = await createUser(w.t, { name: 'Olive Offer' });
    const car = await listCar(w.t, w.seller, { model: 'M3 Offers', price: 100_000 });
    const b = await tabs.open(buyer);
    await b.page.goto(`${w.base}/car/${car.id}`);
    await b.page.getByTestId('make-offer').waitFor();

    await skipToContent(b.page);
    await tabTo(b.page, 'button', 'Make an offer', { max: 80 });
    await b.page.keyboard.press('Enter');
    const dialog = b.page.getByRole('dialog', { name: 'Make an offer' });
    await dialog.waitFor();
    await focusLandsOn(b.page, 'textbox', 'Your offer', 'the offer dialog');
    await expectNoViolations(b.page, 'dialog: make an offer');
    await b.page.keyboard.type('90000');
    await tabTo(b.page, 'textbox', /^Message to the seller/, { max: 1 });
    await b.page.keyboard.type('Cash buyer.');
    await tabTo(b.page, 'button', 'Send offer', { max: 3 });
    await b.page.keyboard.press('Enter');
    await expect.poll(() => pathOf(b.page), SETTLE).toMatch(/^\/offers\/\d+$/);
    const offerId = Number(pathOf(b.page).split('/').pop());
    await b.page.getByRole('heading', { level: 1, name: new RegExp(`^Offer #${offerId}`) }).waitFor();
    // The dialog and its car page are gone: focus continues at the start of the thread.
    await focusReaches(b.page, b.page.getByRole('main'), 'after sending the offer', { indicator: false });
    await expectNoViolations(b.page, 'offer thread (buyer)');

    // The seller counters from the thread.
    const s = await tabs.open(w.seller);
    await s.page.goto(`${w.base}/offers/${offerId}`);
    await s.page.getByTestId('offer-counter').waitFor();
    await skipToContent(s.page);
    await tabTo(s.page, 'button', 'Counter');
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('dialog', { name: 'Counter-offer' }).waitFor();
    await focusLandsOn(s.page, 'textbox', 'Your counter-offer', 'the counter dialog');
    await expectNoViolations(s.page, 'dialog: counter-offer (seller)');
    await s.page.keyboard.type('97000');
    await s.page.keyboard.press('Enter');
    await expect.poll(() => s.page.getByTestId('offer-amount').innerText(), SETTLE).toBe(usd(97_000));
    // The seller's buttons went with their turn: focus is on whose turn it is now.
    await focusReaches(s.page, s.page.getByTestId('offer-turn'), 'after the seller countered');
    expect(await s.page.getByTestId('offer-turn').innerText()).toContain('Waiting for Olive Offer');
    await expectNoViolations(s.page, 'offer thread after the counter (seller)');

    // The buyer's thread shows it live; the buyer counters back.
    await expect.poll(() => b.page.getByTestId('offer-amount').innerText(), SETTLE).toBe(usd(97_000));
    await tabTo(b.page, 'button', 'Counter', { max: 60 });
    await b.page.keyboard.press('Enter');
    await focusLandsOn(b.page, 'textbox', 'Your counter-offer', 'the counter dialog (buyer)');
    await b.page.keyboard.type('93500');
    await b.page.keyboard.press('Enter');
    await expect.poll(() => b.page.getByTestId('offer-amount').innerText(), SETTLE).toBe(usd(93_500));
    await focusReaches(b.page, b.page.getByTestId('offer-turn'), 'after the buyer countered');
    expect(await b.page.getByTestId('offer-turn').innerText()).toContain('Waiting for Sam Seller');
    await expectNoViolations(b.page, 'offer thread after the counter (buyer)');
    await expect.poll(() => s.page.getByTestId('offer-amount').innerText(), SETTLE).toBe(usd(93_500));
    expectNoUnexpectedErrors(b);
    expectNoUnexpectedErrors(s);
  }, 90_000);

  it('pays into escrow, then accepts the car', async () => {
    const buyer = await createUser(w.t, { name: 'Esme Escrow' });
    const order = await orderIn(w.t, 'awaiting_payment', buyer, w.seller);
    const { page, ...tab } = await tabs.open(buyer);
    await page.goto(`${w.base}/orders/${order.id}`);
    await page.getByRole('heading', { level: 1, name: `Order #${order.id}` }).waitFor();
    await expectNoViolations(page, 'order: awaiting payment');

    await skipToContent(page);
    await tabTo(page, 'button', 'Pay into Escrow');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Pay into Escrow' }).waitFor();
    await focusLandsOn(page, 'radio', /^Bank wire/, 'the pay dialog');
    await page.keyboard.press('ArrowDown');
    await expectFocusOn(page, 'radio', /^Card/, 'the arrow moves to the next way to pay');
    expect(await page.getByRole('radio', { name: /^Card/ }).isChecked()).toBe(true);
    await expectNoViolations(page, 'dialog: pay into escrow');
    await tabTo(page, 'button', /^Pay \$/, { max: 3 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('order-status').innerText(), SETTLE).toBe('Funded');
    // The order page's next step takes focus (styled without a ring: it is text, not a control).
    await focusReaches(page, page.getByTestId('order-next-step'), 'after paying', { indicator: false });
    expect(await page.getByTestId('order-next-step').innerText()).toBe('Waiting for the seller to ship the car');
    await expectNoViolations(page, 'order: funded');

    // The seller ships and the buyer confirms delivery (through the API); the page follows live.
    for (const [who, action, body] of [
      [w.seller, 'ship', { carrier: 'Reliable Carriers', trackingNumber: 'RC-1' }],
      [buyer, 'confirm-delivery', {}],
    ] as const) {
      const res = await orderApi(w.t).act(who, order.id, action, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    await expect.poll(() => page.getByTestId('order-status').innerText(), SETTLE).toBe('Inspection');
    await tabTo(page, 'button', 'Accept the Car');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Accept the Car' }).waitFor();
    await focusLandsOn(page, 'button', 'Keep Inspecting', 'the accept dialog starts on keeping');
    await expectNoViolations(page, 'dialog: accept the car');
    await tabTo(page, 'button', 'Accept and Release Funds', { max: 1 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('order-status').innerText(), SETTLE).toMatch(/^(Accepted|Released)$/);
    await focusReaches(page, page.getByTestId('order-next-step'), 'after accepting', { indicator: false });
    await expectNoViolations(page, 'order: accepted');
    expectNoUnexpectedErrors({ errors: tab.errors });
  }, 90_000);

  it('resolves a dispute in the console as an operator', async () => {
    const buyer = await createUser(w.t, { name: 'Dee Disputer' });
    const order = await orderIn(w.t, 'disputed', buyer, w.seller);
    const operator = await createStaff(w.t, 'operator', { name: 'Olga Operator' });
    const tab = await tabs.open(operator);
    const { page } = tab;
    await page.goto(`${w.base}/admin/disputes`);
    const card = page.locator(`[data-testid="dispute"][data-order-id="${order.id}"]`);
    await card.waitFor();
    await expectNoViolations(page, 'console: disputes');

    await skipToContent(page);
    await tabTo(page, 'button', 'Refund Buyer', { max: 60 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Refund the buyer?' });
    await dialog.waitFor();
    await focusLandsOn(page, 'textbox', /^Reason/, 'the refund dialog');
    // Escape keeps the order as it is and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), SETTLE).toBe(0);
    await focusLandsOn(page, 'button', 'Refund Buyer', 'after Escape');

    await page.keyboard.press('Enter');
    await focusLandsOn(page, 'textbox', /^Reason/, 'the refund dialog again');
    await page.keyboard.type('Inspector confirmed the paint damage.');
    await expectNoViolations(page, 'dialog: refund the buyer');
    await tabTo(page, 'button', 'Refund Buyer', { max: 3 });
    await page.keyboard.press('Enter');
    await expect.poll(() => card.count(), SETTLE).toBe(0);
    // The card and its buttons left the list: focus is on what was done.
    const resolved = page.getByTestId('dispute-resolved');
    await focusReaches(page, resolved, 'after the refund');
    expect(await resolved.innerText()).toBe(`Order #${order.id}: ${usd(order.amount + order.escrowFee)} refunded to the buyer.`);
    await expectNoViolations(page, 'console: dispute resolved');
    // The console's address answers 404 to every browser (the app opens it for staff), which the browser logs.
    expectNoUnexpectedErrors(tab, /status of 404/);
  }, 90_000);
});
