/**
 * The one modal dialog (client/src/components/ui/modal-dialog.tsx) in a real browser, through
 * two of the screens that use it: Buy with Escrow on a car page and an order's Cancel. Each is
 * named by its title and described by its first paragraph, keeps focus inside while open,
 * closes on Escape and gives focus back to the button that opened it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { DESKTOP, Tabs, closeBrowserApp, expectNoUnexpectedErrors, startBrowserApp } from '../helpers/browser.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let browser: Browser;
let t: TestApp;
let base: string;
let buyer: SignedInUser;
let seller: SignedInUser;

const tabs = new Tabs(() => browser, { timeout: 15_000, viewport: DESKTOP });

beforeAll(async () => {
  ({ browser, t, base } = await startBrowserApp());
  buyer = await createUser(t, { name: 'Dana Buyer' });
  seller = await createUser(t, { name: 'Sid Seller' });
});

afterAll(() => closeBrowserApp({ tabs, browser, t }));

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);
const focusInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));
const textOf = (page: Page, id: string | null) => page.evaluate((i) => (i ? document.getElementById(i)?.textContent ?? null : null), id);

/** Opens `path` as `user` and presses the button that opens the dialog of the same name; gives the
 *  dialog once its button `ready` shows, after checking that it is modal. */
async function openDialog(user: SignedInUser, path: string, name: string, ready: string) {
  const { page, errors } = await tabs.open(user);
  await page.goto(`${base}${path}`);
  const trigger = page.getByRole('button', { name });
  await trigger.click();
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('button', { name: ready }).waitFor();
  expect(await dialog.getAttribute('aria-modal')).toBe('true');
  return { page, errors, trigger, dialog };
}

describe('modal dialog', () => {
  it('Buy with Escrow: labelled, modal, keeps focus inside, closes on Escape and returns focus to its button', async () => {
    const car = await createListing(t, seller, { make: 'Porsche', model: 'Cayman GTS' });
    const { page, errors, dialog } = await openDialog(buyer, `/car/${car.id}`, 'Buy with Escrow', 'Place Order');
    expect(await textOf(page, await dialog.getAttribute('aria-labelledby'))).toBe('Buy with Escrow');
    expect(await focusInside(dialog)).toBe(true);

    // Tabbing through every control, either way round, never leaves the dialog.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press(key);
        expect(await focusInside(dialog), `focus after ${i + 1} ${key}`).toBe(true);
      }
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toBe('Buy with Escrow');
    expectNoUnexpectedErrors({ errors });
  });

  it("an order's Cancel: described by its first paragraph, starts on its first field, and gives focus back on close", async () => {
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const { page, errors, trigger, dialog } = await openDialog(buyer, `/orders/${order.id}`, 'Cancel Order', 'Keep Order');
    expect(await textOf(page, await dialog.getAttribute('aria-describedby'))).toBe(
      'Nothing has been paid yet, so nothing is charged. The seller is told that you cancelled.',
    );
    expect(await dialog.getByLabel(/^Reason/).evaluate((el) => el === document.activeElement)).toBe(true);

    await dialog.getByRole('button', { name: 'Keep Order' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toBe('Cancel Order');

    // Reopened, it starts afresh; the close button closes it too.
    await trigger.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toBe('Cancel Order');
    expectNoUnexpectedErrors({ errors });
  });
});
