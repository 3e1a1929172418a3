/**
 * The car room's discussion (contract v4 "The discussion", issue 30) in real browsers against the
 * real server: a buyer asks and the seller answers from another browser, live in the thread and
 * in Seller Q&A; reports from three readers hide a message in another tab at once; an operator
 * removes a message from the console and it vanishes for a viewer; a disguised phone number is
 * held, shown to its author with the reason and to nobody else. Each test has a car of its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HELD_MESSAGE_NOTICE } from '@common/discussion.ts';
import { cars } from '../../db/schema/index.ts';
import { SAMPLE_CARS } from '../../db/seed/sample-data.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  DESKTOP,
  PHONE,
  Tabs,
  closeBrowserApp,
  expectNoHorizontalScroll,
  expectNoUnexpectedErrors,
  screenshot,
  screenshotFromTop,
  screenshotPath,
  wcagProblems,
  startBrowserApp,
  type Tab,
} from '../helpers/browser.ts';
import { auditEntries, createStaff, signIn, type StaffUser } from '../helpers/staff.ts';
import { createUser, makeSellerOf, type SignedInUser } from '../helpers/users.ts';

/** `expect.poll` gives up after 1 s by default; live updates on a loaded 2-core machine need longer. */
const SETTLE = { timeout: 15_000 };
/** Browsers log refused requests (the 409 of a second report) as console errors. */
const EXPECTED_HTTP_ERRORS = /Failed to load resource: the server responded with a status of (403|404|409)/;

const CAR_KEYS = {
  qa: 'porsche-911-gt3-2022',
  reports: 'lamborghini-huracan-evo-2021',
  console: 'mclaren-720s-2020',
  held: 'audi-r8-v10-performance-2020',
} as const;

let browser: Browser;
let t: TestApp;
let base: string;
const carIds = {} as Record<keyof typeof CAR_KEYS, number>;

const tabs = new Tabs(() => browser, { timeout: 15_000 });
const openTab = (user: SignedInUser | null, viewport = DESKTOP) => tabs.open(user, { viewport });

async function openCar(tab: Tab, carId: number): Promise<void> {
  await tab.page.goto(`${base}/car/${carId}`);
  await tab.page.getByRole('heading', { level: 1 }).waitFor();
  await expect.poll(() => tab.page.locator('[data-awaiting-session]').count(), SETTLE).toBe(0);
  // The history has been read (an empty discussion says so) before the test acts.
  await expect.poll(() => tab.page.getByTestId('chat-messages').innerText(), SETTLE).not.toContain('Loading messages...');
}

const chatLog = (p: Page) => p.getByRole('log', { name: 'Discussion messages' });
/** The top-level message (its thread) holding `text`. */
const threadWith = (p: Page, text: string) => p.getByTestId('chat-message').filter({ has: p.locator('.chat-msg__text', { hasText: text }) });
/** Every message text shown, replies included. */
const chatTexts = (p: Page) => chatLog(p).locator('.chat-msg__text').allInnerTexts();

async function post(user: SignedInUser, carId: number, message: string, extra: Record<string, unknown> = {}): Promise<{ id: number; status: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/chat', headers: user.auth, payload: { carId, message, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function report(user: SignedInUser, messageId: number, reason = 'spam'): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/chat/${messageId}/report`, headers: user.auth, payload: { reason } });
  expect(res.statusCode, res.body).toBe(201);
}

/** The messages `user` (or a visitor) reads on the car, as the API answers them. */
async function readChat(carId: number, user?: SignedInUser): Promise<{ id: number; message: string; status: string }[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/chat/car/${carId}?limit=100`, headers: user ? user.auth : {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.messages;
}

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  const rows = await t.database.db.select({ id: cars.id, make: cars.make, model: cars.model }).from(cars);
  for (const [name, key] of Object.entries(CAR_KEYS) as [keyof typeof CAR_KEYS, string][]) {
    const sample = SAMPLE_CARS.find((c) => c.key === key)!;
    carIds[name] = rows.find((r) => r.make === sample.make && r.model === sample.model)!.id;
  }
});

afterEach(() => tabs.closeAll());
afterAll(() => closeBrowserApp({ tabs, browser, t }));

// ---------------------------------------------------------------------------------------------

describe('discussion', () => {
  it('a buyer asks, the seller answers from another browser: the answer shows under the question and in Seller Q&A, live', async () => {
    const carId = carIds.qa;
    const buyer = await createUser(t, { name: 'Quinn Asker' });
    const seller = await createUser(t, { name: 'Sal Seller' });
    await makeSellerOf(t, carId, seller.id);

    const asker = await openTab(buyer);
    await openCar(asker, carId);
    const qa = asker.page.getByTestId('seller-qa');
    expect(await qa.innerText()).toContain('No questions yet');

    const sellerTab = await openTab(seller);
    await openCar(sellerTab, carId);

    // The buyer asks: "Question", then Send.
    const questionText = 'Has the clutch been replaced, and is the PCCB option fitted?';
    await asker.page.getByRole('group', { name: 'Post as' }).getByRole('button', { name: 'Question' }).click();
    await asker.page.getByPlaceholder('Ask a question or share thoughts...').fill(questionText);
    await asker.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => qa.getByTestId('qa-question').allTextContents(), { ...SETTLE, message: 'the question joins Seller Q&A' }).toEqual([`Question: ${questionText}`]);
    expect(await qa.innerText()).toContain('Not answered yet');

    // The seller sees it live, upvotes it and answers it (their reply button says Answer).
    const sellerThread = threadWith(sellerTab.page, questionText);
    await sellerThread.waitFor();
    expect(await sellerThread.getByText('Question', { exact: true }).count()).toBe(1);
    const upvote = sellerThread.getByRole('button', { name: /^Upvote/ });
    expect(await upvote.getAttribute('aria-pressed')).toBe('false');
    await upvote.click();
    await expect.poll(() => upvote.getAttribute('aria-pressed'), SETTLE).toBe('true');
    expect(await upvote.getByTestId('upvote-count').innerText()).toBe('1');

    await sellerThread.getByRole('button', { name: 'Answer' }).click();
    const answerText = 'Clutch replaced at 9,800 mi by Porsche Beverly Hills; yes, PCCB is fitted.';
    const replyBox = sellerThread.getByRole('textbox', { name: /^Answer to Quinn Asker/ });
    await expect.poll(() => replyBox.evaluate((el) => el === document.activeElement), SETTLE).toBe(true);
    await replyBox.fill(answerText);
    await replyBox.press('Enter');
    await expect.poll(() => sellerThread.getByTestId('chat-reply').count(), SETTLE).toBe(1);

    // The buyer's tab: the answer under the question with the Seller tag, the counts, and the Q&A.
    const askerThread = threadWith(asker.page, questionText);
    const reply = askerThread.getByTestId('chat-reply');
    await expect.poll(() => reply.locator('.chat-msg__text').allInnerTexts(), { ...SETTLE, message: 'the answer shows under the question' }).toEqual([answerText]);
    expect(await reply.getByTestId('seller-badge').innerText()).toBe('Seller');
    await expect.poll(() => askerThread.getByTestId('reply-count').innerText(), { ...SETTLE, message: 'the reply count is live' }).toBe('1 reply');
    await expect.poll(() => askerThread.getByTestId('upvote-count').first().innerText(), { ...SETTLE, message: 'the upvote count is live' }).toBe('1');
    const item = qa.getByTestId('qa-item').filter({ hasText: questionText });
    await expect.poll(() => item.getByTestId('qa-answer').allInnerTexts(), { ...SETTLE, message: 'the answer shows in Seller Q&A' }).toEqual([
      expect.stringContaining(answerText),
    ]);
    expect(await qa.getByTestId('qa-count').innerText()).toBe('1 of 1 question answered');
    expect(await item.innerText()).not.toContain('Not answered yet');

    await screenshotFromTop(asker.page, 'discussion-qa-desktop');
    expect(await wcagProblems(asker.page), 'car page with a thread and Seller Q&A').toEqual([]);

    // The page drawn on the server holds the answered question, before any script runs.
    const html = await (await fetch(`${base}/car/${carId}`)).text();
    expect(html).toContain(questionText);
    expect(html).toContain('Clutch replaced at 9,800 mi');

    // A phone: the thread and the Q&A fit.
    await asker.page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(asker.page, 'car page on a phone');
    await screenshotFromTop(asker.page, 'discussion-qa-phone');

    expectNoUnexpectedErrors(asker);
    expectNoUnexpectedErrors(sellerTab);
  }, 90_000);

  it('a buyer reports a message; a second report is refused; the third reader’s report hides it in the other tab at once', async () => {
    const carId = carIds.reports;
    const author = await createUser(t, { name: 'Rick Spammer' });
    const buyer = await createUser(t, { name: 'Rita Reporter' });
    const second = await createUser(t, { name: 'Sid Second' });
    const third = await createUser(t, { name: 'Tess Third' });
    const text = 'Best price in town on detailing, visit my shop for a free quote this week';
    const { id } = await post(author, carId, text);

    const a = await openTab(buyer);
    await openCar(a, carId);
    const thread = threadWith(a.page, text);
    await thread.waitFor();

    // The dialog: focus moves in, Tab stays inside, a reason is required; once sent, focus is back on the button.
    const reportButton = thread.getByRole('button', { name: 'Report' });
    await reportButton.click();
    const dialog = a.page.getByRole('dialog', { name: 'Report this message' });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement)), SETTLE).toBe(true);
    for (let i = 0; i < 8; i++) {
      await a.page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), 'focus stays in the dialog').toBe(true);
    }
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    expect(await dialog.getByText('Choose why you are reporting it.').isVisible()).toBe(true);
    await dialog.getByRole('radio', { name: /^Spam/ }).check();
    await dialog.getByLabel(/^Note for the moderators/).fill('Advertising a business in every car room.');
    // The window as the reader sees it (a full-page shot would draw the modal out of place).
    if (process.env.SCREENSHOTS !== '0') await a.page.screenshot({ path: screenshotPath('discussion-report-dialog'), animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await expect.poll(() => dialog.count(), SETTLE).toBe(0);
    await expect.poll(() => a.page.evaluate(() => document.activeElement?.textContent), { ...SETTLE, message: 'focus returns to the button' }).toBe('Reported');
    expect(await a.page.getByTestId('report-done').innerText()).toContain('Our moderators will look at this message');

    // The same buyer in another tab reports again: the server's 409 is said plainly.
    const again = await openTab(await signIn(t, buyer));
    await openCar(again, carId);
    await threadWith(again.page, text).getByRole('button', { name: 'Report' }).click();
    const againDialog = again.page.getByRole('dialog', { name: 'Report this message' });
    await againDialog.getByRole('radio', { name: /^Abuse/ }).check();
    await againDialog.getByRole('button', { name: 'Send Report' }).click();
    await expect.poll(() => againDialog.getByTestId('report-error').innerText(), SETTLE).toContain('You have already reported this message');
    await againDialog.getByRole('button', { name: 'Cancel' }).click();
    expectNoUnexpectedErrors(again, EXPECTED_HTTP_ERRORS);
    await again.close();

    // A second reader reports through the API; the third in their own browser.
    await report(second, id);
    expect((await readChat(carId)).map((m) => m.id)).toContain(id);
    const c = await openTab(third);
    await openCar(c, carId);
    await threadWith(c.page, text).getByRole('button', { name: 'Report' }).click();
    const thirdDialog = c.page.getByRole('dialog', { name: 'Report this message' });
    await thirdDialog.getByRole('radio', { name: /^Deal outside escrow/ }).check();
    await thirdDialog.getByRole('button', { name: 'Send Report' }).click();

    // Held by reports: gone from the first tab at once, without a reload, and from everyone's reads.
    await expect.poll(() => threadWith(a.page, text).count(), { ...SETTLE, message: 'the message vanishes in the other tab' }).toBe(0);
    await expect.poll(() => threadWith(c.page, text).count(), SETTLE).toBe(0);
    expect((await readChat(carId)).map((m) => m.id)).not.toContain(id);
    expect((await readChat(carId, buyer)).map((m) => m.id)).not.toContain(id);

    expectNoUnexpectedErrors(a);
    expectNoUnexpectedErrors(c);
  }, 90_000);

  it('an operator removes a reported message from the console with a reason, and it vanishes for a viewer', async () => {
    const carId = carIds.console;
    const operator: StaffUser = await createStaff(t, 'operator', { name: 'Odile Operator' });
    const author = await createUser(t, { name: 'Rude Rudy' });
    const reporter = await createUser(t, { name: 'Penny Polite' });
    const viewerUser = await createUser(t, { name: 'Vic Viewer' });
    const text = 'Anyone who pays this much for a McLaren is an idiot and deserves to be robbed';
    const { id } = await post(author, carId, text);
    await report(reporter, id, 'abuse');

    const viewer = await openTab(viewerUser);
    await openCar(viewer, carId);
    await threadWith(viewer.page, text).waitFor();

    const desk = await openTab(operator);
    await desk.page.goto(`${base}/admin/moderation`);
    await desk.page.getByRole('heading', { level: 2, name: 'Moderation' }).waitFor();
    const card = desk.page.locator(`[data-testid="queued-message"][data-message-id="${id}"]`);
    await card.waitFor();
    expect(await card.getByTestId('queued-text').innerText()).toBe(text);
    expect(await card.getByTestId('queued-reports').innerText()).toContain('Abuse');
    expect(await card.innerText()).toContain('Reported, still shown');
    const car = (await t.app.inject({ method: 'GET', url: `/api/cars/${carId}` })).json().data as { year: number; make: string; model: string };
    expect(await card.getByRole('link', { name: `${car.year} ${car.make} ${car.model}` }).getAttribute('href')).toBe(`/car/${carId}`);
    // The author's record opens on demand.
    await card.getByText('Author’s history').click();
    await expect.poll(() => card.getByTestId('author-history').innerText(), SETTLE).toContain('On this car: 1 message');
    expect(await wcagProblems(desk.page), 'the moderation queue').toEqual([]);
    await screenshotFromTop(desk.page, 'discussion-console-queue');

    await card.getByRole('button', { name: 'Remove' }).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Remove this message?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Remove Message' }).click();
    expect(await dialog.getByText('Give a reason').isVisible(), 'a reason is required').toBe(true);
    const reason = 'Insults other buyers; removed under the discussion rules.';
    await dialog.getByLabel('Reason').fill(reason);
    await dialog.getByRole('button', { name: 'Remove Message' }).click();
    await expect.poll(() => dialog.count(), SETTLE).toBe(0);
    await expect.poll(() => card.count(), { ...SETTLE, message: 'the message leaves the queue' }).toBe(0);
    expect(await desk.page.getByTestId('moderation-done').innerText()).toContain(`Message #${id} is removed`);
    // Its card left with the button that opened the dialog: focus is on what was done, not lost.
    await expect.poll(() => desk.page.evaluate(() => document.activeElement?.getAttribute('data-testid')), SETTLE).toBe('moderation-done');

    // The viewer's tab: gone at once, and on a fresh read.
    await expect.poll(() => threadWith(viewer.page, text).count(), { ...SETTLE, message: 'the message vanishes for the viewer' }).toBe(0);
    expect(await chatTexts(viewer.page)).not.toContain(text);
    expect((await readChat(carId, viewerUser)).map((m) => m.id)).not.toContain(id);
    const entries = await auditEntries(t, operator, { action: 'chat.remove' });
    expect(entries.filter((e) => e.reason === reason)).toHaveLength(1);

    expectNoUnexpectedErrors(viewer);
    // The server answers console addresses 404 (to anyone it is not staff it does not exist); the app draws it.
    expectNoUnexpectedErrors(desk, EXPECTED_HTTP_ERRORS);
  }, 90_000);

  it('a disguised phone number is held: its author sees why, another viewer never sees it', async () => {
    const carId = carIds.held;
    const authorUser = await createUser(t, { name: 'Holden Author' });
    const viewerUser = await createUser(t, { name: 'Wanda Watcher' });
    const viewer = await openTab(viewerUser);
    await openCar(viewer, carId);
    const author = await openTab(authorUser);
    await openCar(author, carId);

    // Ordinary car talk first, so the viewer's list is known to be live.
    const plain = 'Lovely R8. Is the 2020 V10 Performance on the original exhaust?';
    const input = author.page.getByPlaceholder('Ask a question or share thoughts...');
    await input.fill(plain);
    await input.press('Enter');
    await expect.poll(() => chatTexts(viewer.page), SETTLE).toContain(plain);

    const disguised = 'Happy to talk it through, ring me on five five five, zero one three four, two two seven';
    await input.fill(disguised);
    await input.press('Enter');
    const held = threadWith(author.page, disguised);
    await held.waitFor();
    expect(await held.getByTestId('held-notice').innerText()).toBe(HELD_MESSAGE_NOTICE);
    expect(await held.getByTestId('held-badge').innerText()).toBe('Held for review');
    expect(await held.getByRole('button', { name: /^Upvote|^Reply|^Report/ }).count(), 'no controls on a held message').toBe(0);
    await screenshot(author.page, 'discussion-held-author');

    // The viewer: not shown live, not in the count, not after a reload; the API agrees.
    const another = 'Second owner here, happy to share my service invoices of the R8';
    await post(viewerUser, carId, another);
    await expect.poll(() => chatTexts(viewer.page), SETTLE).toContain(another);
    expect(await chatTexts(viewer.page)).not.toContain(disguised);
    expect(await viewer.page.getByTestId('held-notice').count()).toBe(0);
    await viewer.page.reload();
    await expect.poll(() => chatTexts(viewer.page), SETTLE).toContain(another);
    expect(await chatTexts(viewer.page)).not.toContain(disguised);
    expect(await viewer.page.getByTestId('message-count').innerText()).toBe('2 messages');
    expect((await readChat(carId, viewerUser)).map((m) => m.message)).not.toContain(disguised);
    expect((await readChat(carId, authorUser)).find((m) => m.message === disguised)?.status).toBe('held');

    // The author's own reload still shows it held, with the reason.
    await author.page.reload();
    await threadWith(author.page, disguised).getByTestId('held-notice').waitFor();

    expectNoUnexpectedErrors(viewer);
    expectNoUnexpectedErrors(author);
  }, 90_000);
});
