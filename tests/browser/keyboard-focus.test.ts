/**
 * Keyboard focus on long pages (issue 34, WCAG 2.4.1 and 2.4.11): the skip link is the first
 * stop and lands in the content; focus moved by Tab never sits under the sticky header; and
 * bringing a header link into focus does not move the page the user is reading, so Back returns
 * to where they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { Tabs, closeBrowserApp, startBrowserApp } from '../helpers/browser.ts';

const SETTLE = { timeout: 20_000 };
const w = {} as { browser: Browser; t: TestApp; base: string };
const tabs = new Tabs(() => w.browser, { timeout: 20_000 });

beforeAll(async () => {
  Object.assign(w, await startBrowserApp());
});
afterAll(() => closeBrowserApp({ tabs, browser: w.browser, t: w.t }));

async function openHome(): Promise<Page> {
  const { page } = await tabs.open(null);
  await page.goto(`${w.base}/`);
  await page.getByTestId('car-card').first().waitFor();
  await page.waitForSelector('html[data-app-ready]');
  return page;
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

describe('keyboard focus', () => {
  it('stops first on "Skip to content", which puts focus in the main content', async () => {
    const page = await openHome();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('main') !== null), SETTLE).toBe(true);
  });

  it('never leaves a focused control of the content under the sticky header, Tab down the listings and Shift+Tab back up', async () => {
    const page = await openHome();
    await page.locator('main').focus();
    const checked = { down: 0, up: 0 };
    // Going down, the browser brings each control in at the bottom of the window; coming back
    // up, at the top, where the header would cover it without the offset.
    for (const [key, direction] of [['Tab', 'down'], ['Shift+Tab', 'up']] as const) {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key);
        const where = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused || !focused.closest('main') || focused.tagName === 'MAIN') return null;
          const box = focused.getBoundingClientRect();
          const header = document.querySelector('.site-header')!.getBoundingClientRect();
          return { name: `${focused.tagName} ${focused.textContent?.trim().slice(0, 40)}`, top: box.top, bottom: box.bottom, headerBottom: header.bottom, viewport: window.innerHeight };
        });
        if (!where) continue;
        checked[direction] += 1;
        expect(where.top, `${direction}: ${where.name}: its top below the header`).toBeGreaterThanOrEqual(where.headerBottom);
        expect(where.bottom, `${direction}: ${where.name}: within the window`).toBeLessThanOrEqual(where.viewport);
      }
      // The page is long enough that Tab had to scroll it: the check met controls far down.
      if (direction === 'down') expect(await scrollY(page)).toBeGreaterThan(500);
    }
    expect(checked.down).toBeGreaterThan(20);
    expect(checked.up).toBeGreaterThan(20);
  });

  it('does not move the page when a link in the sticky header takes focus, so Back returns to the same place', async () => {
    const page = await openHome();
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(() => scrollY(page)).toBe(900);
    const link = page.locator('.site-header').getByRole('link', { name: 'Testimonials' });
    await link.focus();
    expect(await scrollY(page)).toBe(900);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe('/testimonials');
    await page.goBack();
    await page.getByTestId('car-card').first().waitFor();
    await expect.poll(() => scrollY(page), SETTLE).toBe(900);
  });
});
