/**
 * The car room (spec §2 Car detail, navigation bar bell; contract §Bids, §Chat, §Notifications,
 * §Real-time) in real browsers against the real server: several signed-in users on one car see
 * each other's messages, bids and presence live; the seller's bell counts the new bid; visitors
 * are asked to sign in; an unknown car says so. Expectations come from the sample data and the
 * shared bid rule, not from the client's own formatting code.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { bidIncrement, minimumBid } from '@common/bid-rules.ts';
import { cars, users } from '../../db/schema/index.ts';
import { SAMPLE_CARS, SAMPLE_REVIEWS, SAMPLE_SELLERS } from '../../db/seed/sample-data.ts';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, PHONE, Tabs, closeBrowserApp, expectNoUnexpectedErrors, startBrowserApp, screenshot, usd, type Tab, type Viewport } from '../helpers/browser.ts';
import { createUser, makeSellerOf, TEST_PASSWORD, type SignedInUser } from '../helpers/users.ts';
import { userConnected, quietFor } from '../helpers/wait.ts';

/** `expect.poll` gives up after 1 s by default; live updates on a loaded 2-core machine need longer. */
const SETTLE = { timeout: 10_000 };
/** Browsers log refused requests (the 403/409 this file provokes on purpose) as console errors. */
const EXPECTED_HTTP_ERRORS = /Failed to load resource: the server responded with a status of (401|403|409)/;

const MAIN_CAR = SAMPLE_CARS.find((c) => c.key === 'ferrari-sf90-stradale-2021')!;
const NO_REVIEWS_CAR = SAMPLE_CARS.find((c) => !SAMPLE_REVIEWS.some((r) => r.carKey === c.key))!;
const titleOf = (c: (typeof SAMPLE_CARS)[number]) => `${c.year} ${c.make} ${c.model}`;

let browser: Browser;
let t: TestApp;
let base: string;
let carId: number;
let noReviewsCarId: number;
let alice: SignedInUser;
let bob: SignedInUser;
let seller: SignedInUser;

const tabs = new Tabs(() => browser, { timeout: 10_000 });
/** A tab signed in as `user` (session put in localStorage before the app starts), or a visitor's. */
const openTab = (user: SignedInUser | null, viewport: Viewport = DESKTOP, options: { verified?: boolean } = {}) => tabs.open(user, { viewport, ...options });

async function openCar(tab: Tab, id = carId): Promise<void> {
  await tab.page.goto(`${base}/car/${id}`);
  await tab.page.getByRole('heading', { level: 1 }).waitFor();
  // The page arrives drawn by the server, signed out; the parts that depend on the session
  // show once the app has taken over.
  await expect.poll(() => tab.page.locator('[data-awaiting-session]').count(), SETTLE).toBe(0);
}

const viewers = (p: Page) => p.getByTestId('viewers').innerText();
const activeBids = (p: Page) => p.getByTestId('active-bids').innerText();
const highestBid = (p: Page) => p.getByTestId('highest-bid').innerText();
const chatLog = (p: Page) => p.getByRole('log', { name: 'Discussion messages' });
const chatTexts = (p: Page) => p.getByTestId('chat-message').locator('.chat-msg__text').allInnerTexts();
const bidInput = (p: Page) => p.getByLabel('Your bid');
const bell = (p: Page) => p.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Notifications/ });

async function serverCar(): Promise<{ currentBids: number; highestBid: number | null }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/cars/${carId}` });
  return res.json().data;
}

async function postChat(user: SignedInUser, message: string): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/chat', headers: user.auth, payload: { carId, message } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function placeBidAs(user: SignedInUser, amount: number): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/bids', headers: user.auth, payload: { carId, amount } });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  const rows = await t.database.db.select({ id: cars.id, make: cars.make, model: cars.model }).from(cars);
  const idOf = (c: (typeof SAMPLE_CARS)[number]) => rows.find((r) => r.make === c.make && r.model === c.model)!.id;
  carId = idOf(MAIN_CAR);
  noReviewsCarId = idOf(NO_REVIEWS_CAR);
  alice = await createUser(t, { name: 'Alice Buyer' });
  bob = await createUser(t, { name: 'Bob Bidder' });
  seller = await createUser(t, { name: 'Sam Seller' });
  await makeSellerOf(t, carId, seller.id);
});

// A failed test's tabs would stay on the car and count as viewers in the next test.
afterEach(() => tabs.closeAll());
afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('car room', () => {
  it('shows the car as the spec lists it, with reviews, and a keyboard-usable gallery', async () => {
    const tab = await openTab(alice);
    const { page } = tab;
    await openCar(tab);
    const title = titleOf(MAIN_CAR);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(title);
    expect(await page.title()).toContain(title);

    const sellerSample = SAMPLE_SELLERS.find((s) => s.key === MAIN_CAR.sellerKey)!;
    const text = await page.locator('main').innerText();
    for (const expected of [
      MAIN_CAR.condition,
      MAIN_CAR.location,
      `${MAIN_CAR.mileage.toLocaleString('en-US')} mi`,
      sellerSample.name,
      `${sellerSample.rating.toFixed(1)} seller rating`,
      MAIN_CAR.description,
      ...MAIN_CAR.features,
      usd(MAIN_CAR.price),
      `Market value: ${usd(MAIN_CAR.marketValue)}`,
      `${usd(Math.abs(MAIN_CAR.price - MAIN_CAR.marketValue))} ${MAIN_CAR.price > MAIN_CAR.marketValue ? 'above' : 'below'} market`,
      'Price vs Market',
      'Active bids',
      'Currently viewing',
      'Messages are live and visible to all interested buyers',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(await page.getByText('Verified Seller', { exact: true }).isVisible()).toBe(sellerSample.verified);
    const order = page.getByRole('link', { name: 'Place Order - Contact Sales' });
    expect(await order.getAttribute('href')).toBe('/support');
    expect(text).toMatch(/escrow/i);
    expect(await page.getByText(/^Bidding opens at half the asking price/).isVisible()).toBe(true);

    // Reviews: one per sample review, stars with a text alternative, the verified flag and the date.
    const reviews = SAMPLE_REVIEWS.filter((r) => r.carKey === MAIN_CAR.key);
    const items = page.getByTestId('review');
    expect(await items.count()).toBe(reviews.length);
    for (const review of reviews) {
      const item = items.filter({ hasText: review.comment });
      expect(await item.count(), review.reviewerName).toBe(1);
      expect(await item.getByRole('img', { name: `${review.rating} out of 5 stars` }).count()).toBe(1);
      expect(await item.getByText('Verified', { exact: true }).count()).toBe(review.verified ? 1 : 0);
      expect(await item.locator('time').getAttribute('datetime')).toBe(review.date);
    }

    // Gallery: a photo per view with alt text; thumbnails are buttons; arrow keys move through them.
    const photo = page.getByRole('region', { name: `Photos of the ${title}` }).getByRole('img', { name: new RegExp(`^${title}`) });
    expect(await photo.getAttribute('alt')).toBe(`${title}, ${MAIN_CAR.views[0]} view (1 of ${MAIN_CAR.views.length})`);
    const thumbs = page.getByRole('button', { name: /^Show photo \d+ of \d+/ });
    expect(await thumbs.count()).toBe(MAIN_CAR.views.length);
    await thumbs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => photo.getAttribute('alt'), SETTLE).toBe(`${title}, ${MAIN_CAR.views[1]} view (2 of ${MAIN_CAR.views.length})`);
    expect(await thumbs.nth(1).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Next photo' }).click();
    await expect.poll(() => photo.getAttribute('alt'), SETTLE).toMatch(/\(3 of \d\)$/);
    expect(await page.evaluate(() => Array.from(document.images).every((img) => img.alt !== undefined))).toBe(true);

    await tab.close();
    expectNoUnexpectedErrors(tab);
  });

  it('a car without reviews says so', async () => {
    const tab = await openTab(null);
    await openCar(tab, noReviewsCarId);
    expect(await tab.page.getByText('No reviews yet for this vehicle.').isVisible()).toBe(true);
    expect(await tab.page.getByTestId('review').count()).toBe(0);
    await tab.close();
    expectNoUnexpectedErrors(tab);
  });

  it('an unknown car shows Car Not Found with a way back to the listings', async () => {
    const tab = await openTab(null);
    const { page } = tab;
    for (const path of ['/car/999999', '/car/not-a-number']) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { name: 'Car Not Found' }).waitFor();
    }
    await page.getByRole('link', { name: 'Back to Listings' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/');
    await page.getByTestId('car-card').first().waitFor();
    await tab.close();
    expectNoUnexpectedErrors(tab, /status of 404/);
  });

  it('a visitor can read everything and is asked to sign in to bid or chat, and comes back after signing in', async () => {
    const tab = await openTab(null);
    const { page } = tab;
    await openCar(tab);
    const reason = page.getByTestId('bid-blocked-reason');
    expect(await reason.innerText()).toBe('Sign in to place a bid.');
    expect(await bidInput(page).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Place Bid' }).isDisabled()).toBe(true);
    const prompt = page.getByTestId('chat-sign-in-prompt');
    expect(await prompt.innerText()).toBe('Sign in to join the discussion.');
    expect(await page.getByPlaceholder('Ask a question or share thoughts...').count()).toBe(0);

    // The bell: no badge, and its panel says to sign in.
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');
    expect(await page.getByTestId('unread-badge').count()).toBe(0);
    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    expect(await panel.innerText()).toContain('Sign in to see your notifications');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count(), SETTLE).toBe(0);

    await prompt.getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/login');
    await page.getByLabel('Email').fill(alice.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe(`/car/${carId}`);
    await page.getByPlaceholder('Ask a question or share thoughts...').waitFor();
    expect(await page.getByTestId('bid-blocked-reason').count()).toBe(0);
    expect(await bidInput(page).isEnabled()).toBe(true);

    // Logging out here goes to / (spec), even though the server also tells this tab's socket the session ended.
    await userConnected(t, alice.id);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SETTLE).toBe('/');
    await quietFor(500, 'the session ends on the socket after the logout: the page must NOT move on to /login then');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('link', { name: 'Sign In', exact: true }).count()).toBe(1);
    await tab.close();
    expectNoUnexpectedErrors(tab);
  });

  it('an unverified user is asked to verify before bidding or chatting', async () => {
    const carol = await createUser(t, { name: 'Carol Unverified' });
    const tab = await openTab(carol, DESKTOP, { verified: false });
    // The server agrees: the account is unverified (re-read by the screen).
    await t.database.db.update(users).set({ emailVerified: false }).where(eq(users.id, carol.id));
    await openCar(tab);
    expect(await tab.page.getByTestId('bid-blocked-reason').innerText()).toMatch(/^Verify your email address to place bids/);
    expect(await bidInput(tab.page).isDisabled()).toBe(true);
    expect(await tab.page.getByTestId('chat-verify-prompt').innerText()).toMatch(/^Verify your email address to join the discussion/);
    await tab.close();
    expectNoUnexpectedErrors(tab);
  });

  it('two buyers: viewers, messages and bids show up live in the other tab', async () => {
    const a = await openTab(alice);
    await openCar(a);
    await expect.poll(() => viewers(a.page), SETTLE).toBe('1');
    expect(await activeBids(a.page)).toBe('0');
    expect(await highestBid(a.page)).toBe('No bids yet');

    const b = await openTab(bob);
    await openCar(b);
    await expect.poll(() => viewers(a.page), { ...SETTLE, message: 'viewer count rises when a second tab opens' }).toBe('2');
    await expect.poll(() => viewers(b.page), SETTLE).toBe('2');

    // Chat: Enter sends; the other tab gets it live, as text (never HTML).
    const risky = 'Is the <b>service history</b> complete?';
    const bobInput = b.page.getByPlaceholder('Ask a question or share thoughts...');
    await bobInput.fill(risky);
    await bobInput.press('Enter');
    await expect.poll(() => chatTexts(a.page), { ...SETTLE, message: 'message appears live' }).toContain(risky);
    expect(await chatLog(a.page).locator('b').count()).toBe(0);
    // The other tab may show the message before this one has read the answer that clears the box.
    await expect.poll(() => bobInput.inputValue(), SETTLE).toBe('');
    expect(await a.page.getByTestId('message-count').innerText()).toBe('1 message');

    // The Send button, as a question.
    const aliceInput = a.page.getByPlaceholder('Ask a question or share thoughts...');
    await a.page.getByRole('group', { name: 'Post as' }).getByRole('button', { name: 'Question' }).click();
    await aliceInput.fill('Yes, full Ferrari dealer records?');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => chatTexts(b.page), SETTLE).toContain('Yes, full Ferrari dealer records?');
    const question = b.page.getByTestId('chat-message').filter({ hasText: 'Yes, full Ferrari dealer records?' });
    expect(await question.getByText('Question', { exact: true }).count()).toBe(1);

    // Whitespace only is ignored.
    await bobInput.fill('    ');
    await bobInput.press('Enter');
    await quietFor(500, 'nothing is sent: a moment in which a message would appear');
    expect(await b.page.getByTestId('message-count').innerText()).toBe('2 messages');

    // Bid: the field holds the minimum; a double click places one bid.
    const opening = minimumBid(MAIN_CAR.price, null);
    expect(await bidInput(a.page).inputValue()).toBe(opening.toLocaleString('en-US'));
    await a.page.getByRole('button', { name: 'Place Bid' }).dblclick();
    await expect.poll(() => a.page.getByTestId('bid-feedback').innerText(), SETTLE).toBe(`Your bid of ${usd(opening)} was placed.`);
    await expect.poll(() => activeBids(b.page), { ...SETTLE, message: 'active bids update live' }).toBe('1');
    await expect.poll(() => highestBid(b.page), SETTLE).toBe(usd(opening));
    const bidMessage = b.page.getByTestId('chat-message').filter({ has: b.page.getByText('BID', { exact: true }) });
    await expect.poll(() => bidMessage.count(), { ...SETTLE, message: 'a BID message appears' }).toBe(1);
    expect(await bidMessage.innerText()).toContain(usd(opening));
    expect(await serverCar()).toMatchObject({ currentBids: 1, highestBid: opening });
    expect(await a.page.getByTestId('recent-bids').innerText()).toContain(usd(opening));

    // The other tab's field follows the new minimum.
    const next = minimumBid(MAIN_CAR.price, opening);
    await expect.poll(() => bidInput(b.page).inputValue(), SETTLE).toBe(next.toLocaleString('en-US'));
    expect(await b.page.getByTestId('minimum-bid').innerText()).toBe(`Minimum bid: ${usd(next)}`);

    // Too low: the server's sentence, and the field shows the minimum it named.
    await bidInput(b.page).fill(String(opening + 1));
    await b.page.getByRole('button', { name: 'Place Bid' }).click();
    await expect.poll(() => b.page.getByTestId('bid-feedback').innerText(), SETTLE).toBe(`Your bid must be at least ${usd(next)}`);
    expect(await bidInput(b.page).inputValue()).toBe(next.toLocaleString('en-US'));
    expect((await serverCar()).currentBids).toBe(1);

    // Someone else outbids while Bob's field shows the minimum: it moves up.
    await placeBidAs(alice, next);
    const after = minimumBid(MAIN_CAR.price, next);
    await expect.poll(() => bidInput(b.page).inputValue(), SETTLE).toBe(after.toLocaleString('en-US'));
    await expect.poll(() => activeBids(b.page), SETTLE).toBe('2');
    expect(await b.page.getByTestId('bid-feedback').count(), 'the "at least" sentence is stale now').toBe(0);

    await screenshot(b.page, 'car-room-desktop');

    await b.close();
    await expect.poll(() => viewers(a.page), { ...SETTLE, message: 'viewer count falls when the tab closes' }).toBe('1');
    await a.close();
    expectNoUnexpectedErrors(a);
    expectNoUnexpectedErrors(b, EXPECTED_HTTP_ERRORS);
  }, 90_000);

  it("the seller's bell counts a new bid live, the listing card updates, and Mark all as read clears it", async () => {
    const s = await openTab(seller);
    const { page } = s;
    await page.goto(`${base}/`);
    const card = page.getByTestId('car-card').filter({ has: page.getByRole('heading', { name: titleOf(MAIN_CAR), exact: true }) });
    await card.waitFor();
    const before = (await serverCar()).currentBids;
    await expect.poll(() => card.innerText(), SETTLE).toContain(`${before} bid`);

    // Earlier messages and bids on the car already notified the seller.
    const unreadOf = async () => {
      const label = (await bell(page).getAttribute('aria-label')) ?? '';
      const match = /^Notifications, (\d+) unread$/.exec(label);
      return match ? Number(match[1]) : label === 'Notifications' ? 0 : NaN;
    };
    await expect.poll(unreadOf, SETTLE).toBeGreaterThan(0);
    const initial = await unreadOf();
    expect(await page.getByTestId('unread-badge').innerText()).toBe(String(initial));

    // A viewer on the car page shows on the card; the card itself is not a viewer.
    await expect.poll(() => card.innerText(), SETTLE).toContain('0 viewing');
    const viewer = await openTab(bob);
    await openCar(viewer);
    await expect.poll(() => card.innerText(), { ...SETTLE, message: 'card viewing count is live' }).toContain('1 viewing');

    const amount = minimumBid(MAIN_CAR.price, (await serverCar()).highestBid);
    await placeBidAs(bob, amount);
    await expect.poll(unreadOf, { ...SETTLE, message: 'badge rises on a new bid' }).toBe(initial + 1);
    await expect.poll(() => card.innerText(), { ...SETTLE, message: 'card bid count is live' }).toMatch(new RegExp(`\\b${before + 1} bids?\\b`));

    await viewer.close();
    await expect.poll(() => card.innerText(), SETTLE).toContain('0 viewing');

    // The panel: newest first, unread styling, a link to the car; Escape closes and returns focus.
    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.waitFor();
    const first = panel.getByTestId('notification-item').first();
    expect(await first.innerText()).toContain('New bid on your car');
    expect(await first.innerText()).toContain(`Bob Bidder bid ${usd(amount)}`);
    expect(await first.getAttribute('class')).toContain('bell-item--unread');
    expect(await first.getByRole('link', { name: 'View car' }).getAttribute('href')).toBe(`/car/${carId}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count(), SETTLE).toBe(0);
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await panel.waitFor();
    await screenshot(page, 'notifications-panel');
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(unreadOf, { ...SETTLE, message: 'badge clears' }).toBe(0);
    expect(await page.getByTestId('unread-badge').count()).toBe(0);
    expect(await panel.locator('.bell-item--unread').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);

    // It was saved: a reload shows no badge.
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByTestId('car-card').first().waitFor();
    expect(await unreadOf()).toBe(0);

    // On the car page the seller's own car offers editing instead of bidding or buying.
    await openCar(s);
    await page.getByTestId('own-listing').waitFor();
    expect(await page.getByTestId('own-listing').innerText()).toContain('This is your listing');
    expect(await page.getByRole('link', { name: 'Edit Listing' }).getAttribute('href')).toBe(`/sell/${carId}/edit`);
    expect(await page.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Buy with Escrow' }).count()).toBe(0);

    await s.close();
    expectNoUnexpectedErrors(s, EXPECTED_HTTP_ERRORS);
  }, 90_000);

  it('while the connection is down it says Reconnecting…, then catches up on what it missed', async () => {
    const a = await openTab(alice);
    await openCar(a);
    await expect.poll(() => viewers(a.page), SETTLE).toBe('1');
    const banner = a.page.getByTestId('reconnecting-banner');
    expect(await banner.count()).toBe(0);

    const lastSeen = await postChat(bob, 'Posted before the connection dropped');
    await expect.poll(() => chatTexts(a.page), SETTLE).toContain('Posted before the connection dropped');
    const chatReads: string[] = [];
    a.page.on('request', (request) => {
      if (request.url().includes('/api/chat/car/')) chatReads.push(request.url());
    });
    await a.context.setOffline(true);
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Reconnecting…');
    expect(await a.page.getByRole('status').filter({ hasText: 'Reconnecting…' }).count()).toBe(1);
    await postChat(bob, 'Posted while you were offline');

    await a.context.setOffline(false);
    await expect.poll(() => banner.count(), { ...SETTLE, message: 'banner goes away' }).toBe(0);
    await expect.poll(() => chatTexts(a.page), { ...SETTLE, message: 'missed message arrives' }).toContain('Posted while you were offline');
    const texts = await chatTexts(a.page);
    expect(texts.filter((m) => m === 'Posted while you were offline')).toHaveLength(1);
    await expect.poll(() => viewers(a.page), SETTLE).toBe('1');
    // It re-read the discussion from the last message it held, not from scratch.
    const afterOf = (url: string) => Number(new URL(url).searchParams.get('after'));
    expect(chatReads.some((url) => afterOf(url) >= lastSeen), chatReads.join(' ')).toBe(true);
    await a.close();
    // Going offline makes the browser log failed connection attempts.
    expectNoUnexpectedErrors(a, /WebSocket|ERR_INTERNET_DISCONNECTED|net::/);
  }, 60_000);

  it('a session ended elsewhere signs this tab out and goes to /login', async () => {
    const dave = await createUser(t, { name: 'Dave Revoked' });
    const tab = await openTab(dave);
    await openCar(tab);
    await tab.page.getByPlaceholder('Ask a question or share thoughts...').waitFor();
    await userConnected(t, dave.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: dave.refreshToken } });
    expect(res.statusCode).toBe(200);
    await expect.poll(() => new URL(tab.page.url()).pathname, SETTLE).toBe('/login');
    expect(await tab.page.evaluate(() => window.localStorage.getItem('luxemotors.accessToken'))).toBeNull();
    await tab.close();
    expectNoUnexpectedErrors(tab, EXPECTED_HTTP_ERRORS);
  });

  it('a buyer orders the car through escrow and sees the order on the dashboard', async () => {
    const buyer = await createUser(t, { name: 'Erin Escrow' });
    const tab = await openTab(buyer);
    const { page } = tab;
    await openCar(tab);
    await page.getByRole('button', { name: 'Buy with Escrow' }).click();
    const dialog = page.getByTestId('buy-with-escrow-dialog');
    await dialog.getByText('Escrow fee').first().waitFor();
    await dialog.getByRole('button', { name: 'Place Order' }).click();
    await dialog.getByText(/awaiting payment/i).first().waitFor();
    const orders = (await t.app.inject({ method: 'GET', url: '/api/orders', headers: buyer.auth })).json().data.orders;
    expect(orders).toEqual([expect.objectContaining({ carId, buyerId: buyer.id, status: 'awaiting_payment' })]);
    await page.goto(`${base}/dashboard?tab=orders`);
    await page.getByRole('tabpanel').getByText(/awaiting payment/i).first().waitFor();
    await tab.close();
    expectNoUnexpectedErrors(tab);
  });

  it('a buyer sets a maximum and leads through a lower bid until another buyer sets a higher one, watched live', async () => {
    const proxyCar = SAMPLE_CARS.find((c) => c.key === 'mclaren-720s-2020')!;
    const [row] = await t.database.db.select({ id: cars.id }).from(cars).where(eq(cars.model, proxyCar.model));
    const id = row!.id;
    const state = async () => (await t.app.inject({ method: 'GET', url: `/api/cars/${id}` })).json().data as { price: number; highestBid: number | null; auction: object | null };
    const carol = await createUser(t, { name: 'Carol Proxy' });
    const dave = await createUser(t, { name: 'Dave Direct' });
    const c = await openTab(carol);
    const d = await openTab(dave);
    await openCar(c, id);
    await openCar(d, id);

    // Carol: the minimum as her bid, and a maximum the form explains in one sentence.
    // A sample auction (it opens at its starting price).
    const { price, highestBid: before, auction } = await state();
    const opening = minimumBid(price, before, { auction: auction !== null });
    const carolMax = opening + 20_150;
    await expect.poll(() => bidInput(c.page).inputValue(), SETTLE).toBe(opening.toLocaleString('en-US'));
    await c.page.getByLabel('Set a maximum').check();
    await c.page.getByText('We bid for you, one step at a time, up to your maximum. Nobody sees it.').waitFor();
    await c.page.getByLabel('Your maximum').fill(String(carolMax));
    await c.page.getByRole('button', { name: 'Place Bid' }).click();
    await expect
      .poll(() => c.page.getByTestId('bid-feedback').innerText(), SETTLE)
      .toBe(`Your bid of ${usd(opening)} was placed. We bid for you up to your maximum of ${usd(carolMax)}.`);
    await expect.poll(() => c.page.getByTestId('my-maximum').innerText(), SETTLE).toBe(`Your maximum: ${usd(carolMax)}. You are leading.`);

    // Dave bids the minimum by hand: Carol's maximum answers at once, and she still leads.
    const daveBid = minimumBid(price, opening);
    const answer = daveBid + bidIncrement(daveBid);
    await expect.poll(() => bidInput(d.page).inputValue(), SETTLE).toBe(daveBid.toLocaleString('en-US'));
    await d.page.getByRole('button', { name: 'Place Bid' }).click();
    await expect
      .poll(() => d.page.getByTestId('bid-feedback').innerText(), SETTLE)
      .toBe(`Your bid of ${usd(daveBid)} was placed, but another bidder's maximum is higher: the highest bid is now ${usd(answer)}.`);
    await expect.poll(() => highestBid(c.page), { ...SETTLE, message: "Carol's tab shows the automatic bid" }).toBe(usd(answer));
    expect(await c.page.getByTestId('my-maximum').innerText()).toBe(`Your maximum: ${usd(carolMax)}. You are leading.`);
    expect(await c.page.getByTestId('bid-feedback').innerText(), 'not outbid by her own automatic bid').toContain('was placed');
    // The automatic bid is marked as one in the recent bids.
    expect(await c.page.getByTestId('recent-bids').locator('li').first().innerText()).toMatch(/^Carol Proxy\s+Leading\s+auto/);
    // Nobody else sees Carol's maximum.
    expect(await d.page.locator('body').innerText()).not.toContain(usd(carolMax));
    expect(await d.page.getByTestId('my-maximum').innerText()).toBe(`Your maximum: ${usd(daveBid)}. Another bidder leads.`);

    // Dave sets a higher maximum: Carol's is spent, Dave leads one increment past it, and
    // Carol's tab says she was outbid.
    const daveMax = carolMax + 10_000;
    const daveLead = carolMax + bidIncrement(carolMax);
    await d.page.getByLabel('Set a maximum').check();
    await d.page.getByLabel('Your maximum').fill(String(daveMax));
    await d.page.getByRole('button', { name: 'Place Bid' }).click();
    await expect
      .poll(() => d.page.getByTestId('bid-feedback').innerText(), SETTLE)
      .toBe(`Your bid of ${usd(daveLead)} was placed. We bid for you up to your maximum of ${usd(daveMax)}.`);
    await expect.poll(() => highestBid(c.page), SETTLE).toBe(usd(daveLead));
    await expect.poll(() => c.page.getByTestId('my-maximum').innerText(), SETTLE).toBe(`Your maximum: ${usd(carolMax)}. Another bidder leads.`);
    await expect.poll(() => c.page.getByTestId('bid-feedback').innerText(), SETTLE).toBe(`You have been outbid: the highest bid is now ${usd(daveLead)}.`);
    expect(await c.page.locator('body').innerText()).not.toContain(usd(daveMax));
    expect(await state()).toMatchObject({ highestBid: daveLead });
    await screenshot(d.page, 'car-room-proxy-bid');

    await c.close();
    await d.close();
    expectNoUnexpectedErrors(c);
    expectNoUnexpectedErrors(d);
  }, 90_000);

  it('on a phone (375 wide) the pricing card and the discussion stack below the gallery', async () => {
    const tab = await openTab(alice, PHONE);
    const { page } = tab;
    await openCar(tab);
    await expect.poll(() => page.getByTestId('chat-message').count(), SETTLE).toBeGreaterThan(0);
    const box = async (selector: string) => {
      const b = await page.locator(selector).first().boundingBox();
      if (!b) throw new Error(`${selector} is not laid out`);
      return b;
    };
    const gallery = await box('.gallery__stage');
    const pricing = await box('.pricing-card');
    const chat = await box('.chat');
    expect(pricing.y).toBeGreaterThanOrEqual(gallery.y + gallery.height);
    expect(chat.y).toBeGreaterThanOrEqual(pricing.y + pricing.height);
    expect(Math.abs(pricing.x - gallery.x)).toBeLessThan(2);
    expect(pricing.width).toBeGreaterThan(PHONE.width * 0.8);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no horizontal scroll').toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'car-room-phone');
    await tab.close();
    expectNoUnexpectedErrors(tab);
  });
});
