import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';

/**
 * Browser helpers for the end-to-end tests. They drive the system Chromium through
 * playwright-core; no browser is ever downloaded.
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface Viewport {
  width: number;
  height: number;
}
export const DESKTOP: Viewport = { width: 1280, height: 900 };
export const PHONE: Viewport = { width: 375, height: 812 };

/** localStorage keys of client/src/lib/session-store.ts. */
export const SESSION_KEYS = {
  accessToken: 'luxemotors.accessToken',
  refreshToken: 'luxemotors.refreshToken',
  user: 'luxemotors.user',
} as const;

const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/**
 * Launches a headless system Chromium. Throws (never skips) when it is not installed, so a
 * missing browser shows up as a failed run rather than as silently untested screens.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Browser tests need Chromium at ${CHROMIUM_PATH}, which is missing. Install it with \`apt-get install chromium\`.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where a screenshot called `name` goes: `test-results/screenshots/<name>.png` (its folder made). */
export function screenshotPath(name: string): string {
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/**
 * Screenshots are for people reviewing the screens; nothing reads them back. SCREENSHOTS=0 (CI,
 * where nobody looks at them) skips the full-page ones, which cost the browser a tenth of its work.
 */
const TAKE_SCREENSHOTS = process.env.SCREENSHOTS !== '0';

/** Saves a full-page PNG to `test-results/screenshots/<name>.png` (unless SCREENSHOTS=0) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = screenshotPath(name);
  if (!TAKE_SCREENSHOTS) return path;
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/**
 * Records every console error and uncaught page error from now on. The returned array fills
 * as they happen, so a test can end with `expect(errors).toEqual([])`.
 */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let axeSource: string | undefined;

/**
 * Loads axe-core (500 KB) into the page, only when a page is checked rather than into every page
 * a test opens. Evaluated through the DevTools protocol, it runs outside the page's
 * Content-Security-Policy, which (rightly) refuses scripts injected into the page.
 */
async function loadAxe(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate((axeSource ??= readFileSync(AXE_PATH, 'utf8')));
}

/** A signed-in account as a browser needs it (a `SignedInUser` fits). */
export interface SessionOwner {
  id: number;
  name: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export interface ContextOptions {
  /** DESKTOP unless told. */
  viewport?: Viewport;
  /** Milliseconds every action and wait on the context's pages may take. */
  timeout: number;
  /** Signed in as this account (see `storeSession`); a visitor without. */
  user?: SessionOwner | null;
  /** The stored user's `email_verified`; true unless told. */
  verified?: boolean;
  /** The device's clock runs this many milliseconds ahead of the real time. */
  skewMs?: number;
}

/**
 * Puts `user`'s session in localStorage before the app first starts in `context`. Only the first
 * load: later loads keep whatever the app stored since (rotated tokens, a sign-out).
 */
export async function storeSession(context: BrowserContext, user: SessionOwner, options: { verified?: boolean } = {}): Promise<void> {
  const storedUser = {
    id: user.id,
    name: user.name,
    email: user.email,
    email_verified: options.verified ?? true,
    avatar: null,
    bio: null,
    phone: null,
    location: null,
    created_at: new Date().toISOString(),
  };
  await context.addInitScript(
    ({ keys, session }) => {
      if (window.localStorage.getItem(keys.refreshToken)) return;
      window.localStorage.setItem(keys.accessToken, session.accessToken);
      window.localStorage.setItem(keys.refreshToken, session.refreshToken);
      window.localStorage.setItem(keys.user, session.user);
    },
    { keys: SESSION_KEYS, session: { accessToken: user.accessToken, refreshToken: user.refreshToken, user: JSON.stringify(storedUser) } },
  );
}

/** Makes every `Date` in the context's pages read `skewMs` ahead of the real time. */
async function skewClock(context: BrowserContext, skewMs: number): Promise<void> {
  await context.addInitScript((skew: number) => {
    const RealDate = Date;
    class SkewedDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(RealDate.now() + skew);
        else super(...(args as [string]));
      }
      static override now(): number {
        return RealDate.now() + skew;
      }
    }
    (window as unknown as { Date: DateConstructor }).Date = SkewedDate as unknown as DateConstructor;
  }, skewMs);
}

/** A browser context as the tests use one: English, reduced motion, the given size, clock and session. */
export async function newAppContext(browser: Browser, options: ContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, reducedMotion: 'reduce', locale: 'en-US' });
  context.setDefaultTimeout(options.timeout);
  if (options.skewMs) await skewClock(context, options.skewMs);
  if (options.user) await storeSession(context, options.user, { verified: options.verified });
  context.on('page', waitForTheAppOnLoad);
  return context;
}

/**
 * After each load of one of the app's pages, waits until the app has taken over (layout.tsx
 * marks `<html data-app-ready>`). A page drawn on the server shows its content at once, but a
 * click before hydration would be lost and the parts that depend on the session are not shown
 * yet, as for a person on a slow phone; tests act once the app is live.
 */
function waitForTheAppOnLoad(page: Page): void {
  const appTookOver = async (response: Awaited<ReturnType<Page['goto']>>) => {
    const isAppPage = /^text\/html/.test(response?.headers()['content-type'] ?? '') && (await page.locator('#root').count()) > 0;
    if (isAppPage) await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'));
    return response;
  };
  const load = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => appTookOver(await load(...args));
  const reload = page.reload.bind(page);
  page.reload = async (...args: Parameters<Page['reload']>) => appTookOver(await reload(...args));
}

/** One page in a context of its own, recording its console errors. */
export interface Tab {
  context: BrowserContext;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/**
 * The tabs a test file opens, each in a context of its own with the file's defaults, so that
 * `closeAll` can close whatever a failed test left open.
 */
export class Tabs {
  private readonly opened: Tab[] = [];

  constructor(
    private readonly browser: () => Browser,
    private readonly defaults: Omit<ContextOptions, 'user'>,
  ) {}

  async open(user: SessionOwner | null, options: Partial<Omit<ContextOptions, 'user'>> = {}): Promise<Tab> {
    const context = await newAppContext(this.browser(), { ...this.defaults, ...options, user });
    const page = await context.newPage();
    const tab: Tab = { context, page, errors: collectConsoleErrors(page), close: () => context.close() };
    this.opened.push(tab);
    return tab;
  }

  async closeAll(): Promise<void> {
    for (const tab of this.opened.splice(0)) await tab.context.close().catch(() => undefined);
  }
}

/** Fails on any console or page error the tab recorded, but those `allowed` matches. */
export function expectNoUnexpectedErrors(tab: { errors: string[] }, allowed: RegExp | null = null): void {
  const unexpected = tab.errors.filter((e) => !(allowed && allowed.test(e)));
  expect(unexpected, 'console or page errors').toEqual([]);
}

/** A full-page screenshot from the top, so the sticky navigation bar sits where a visitor sees it. */
export async function screenshotFromTop(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** No part of the page is wider than the window (no sideways scrolling). */
export async function expectNoHorizontalScroll(page: Page, label = 'no horizontal scroll'): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(width);
}

/** Lazy images below the fold only load when scrolled to; loads them all (before a screenshot). */
export async function loadAllImages(page: Page, settle: { timeout: number }): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
    window.scrollTo(0, 0);
  });
  await expect.poll(() => page.evaluate(() => Array.from(document.images).every((img) => img.complete)), settle).toBe(true);
}

/** Formats dollars as the tests expect them on screen: `$129,500`. */
export const usd = (n: number) => `$${n.toLocaleString('en-US')}`;

/**
 * What a browser test file drives: the system Chromium, and the app serving its web client (with
 * `env`) on a port of its own. Whatever started is closed again when a later step fails.
 */
export async function startBrowserApp(env: Record<string, string> = {}): Promise<{ browser: Browser; t: TestApp; base: string }> {
  const browser = await launchBrowser();
  let t: TestApp | undefined;
  try {
    t = await startTestApp({ SERVE_CLIENT: 'true', ...env });
    return { browser, t, base: await t.listen() };
  } catch (error) {
    await t?.close();
    await browser.close();
    throw error;
  }
}

/** Closes, in this order, the tabs, the browser and the app of `startBrowserApp`, skipping what never started. */
export async function closeBrowserApp(parts: { tabs?: Tabs; browser?: Browser; t?: TestApp }): Promise<void> {
  await parts.tabs?.closeAll();
  await parts.browser?.close();
  await parts.t?.close();
}

/** The WCAG rule sets axe-core checks for issue 34: 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/** One failed WCAG rule on a page: the rule, its impact and the elements (CSS targets) that fail it. */
export interface WcagViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Every axe-core violation of the WCAG 2.0/2.1/2.2 A and AA rules on the page as it is now,
 * whatever its impact, with the selector of each failing element. Measured once every animation
 * and transition has finished, so a contrast is never read mid-fade.
 */
export async function wcagViolations(page: Page): Promise<WcagViolation[]> {
  await loadAxe(page);
  return page.evaluate(async (tags) => {
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  }, [...WCAG_TAGS]);
}

/** `wcagViolations` as one line per failing element (`rule: target`), for readable test failures. */
export async function wcagProblems(page: Page): Promise<string[]> {
  return (await wcagViolations(page)).flatMap((v) => v.targets.map((target) => `${v.id} (${v.impact}): ${target}`));
}

/** The control that has focus, as assistive technology reads it: its role and accessible name. */
export interface FocusedControl {
  role: string;
  name: string;
  /** `role "name"`, for failure messages. */
  label: string;
}

/** `role "name"` of an aria snapshot's first line (`- button "Place Bid"`, `- textbox "Email": text`). */
function controlOfSnapshot(snapshot: string): { role: string; name: string } | null {
  const first = snapshot.split('\n', 1)[0] ?? '';
  const match = /^- ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(first);
  if (!match) return null;
  return { role: match[1]!, name: match[2] ? (JSON.parse(match[2]) as string) : '' };
}

/**
 * The focused element's role and accessible name (as `getByRole` computes them), or null when
 * nothing has focus (the document's body). An element without a role is named by its tag.
 */
export async function focusedControl(page: Page): Promise<FocusedControl | null> {
  const focused = page.locator(':focus');
  if ((await focused.count()) === 0) return null;
  const snapshot = await focused.first().ariaSnapshot({ timeout: 2_000 }).catch(() => '');
  const control = controlOfSnapshot(snapshot) ?? { role: await focused.first().evaluate((el) => el.tagName.toLowerCase()), name: '' };
  return { ...control, label: `${control.role} "${control.name}"` };
}

/** What keeps focus from being seen: its indicator, and anything stuck on screen lying over it. */
export interface FocusSight {
  /** Where focus is (`tag.class "text"`), for messages. */
  where: string;
  /** The focused element shows an indicator: an outline or a ring of its own, or on the part that stands for it. */
  indicated: boolean;
  /** Sticky or fixed elements (the header, a bar) that overlap it, by `tag.class`. */
  coveredBy: string[];
  /** The part of it outside the window (it was not brought into view). */
  offscreen: boolean;
}

/**
 * Whether the focused element can be seen (WCAG 2.4.7 and 2.4.11): it draws a focus indicator
 * (an outline or box-shadow on itself, or, for an input drawn by its label or a sibling, on that
 * part), it lies within the window, and no sticky or fixed element (the sticky header, a sticky
 * bid bar, a banner; inside an open modal dialog, the dialog's own sticky parts) is drawn over
 * it. A region larger than half the window (the main content) needs only to be partly in view.
 * Null when nothing has focus.
 */
export async function focusSight(page: Page): Promise<FocusSight | null> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const describe = (node: Element) =>
      `${node.tagName.toLowerCase()}${node.classList.length ? `.${Array.from(node.classList).join('.')}` : ''}${
        node.textContent?.trim() ? ` "${node.textContent.trim().replace(/\s+/g, ' ').slice(0, 40)}"` : ''
      }`;
    const draws = (node: Element | null) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    // A visually hidden input (a styled radio, a photo picker) is shown by its label or the element after it.
    const stands = [el, el.nextElementSibling, el.parentElement, el.parentElement?.parentElement ?? null];
    const indicated = stands.some((node) => draws(node));
    const box = el.getBoundingClientRect();
    const scope = el.closest('dialog[open]') ?? document.body;
    const coveredBy: string[] = [];
    for (const node of Array.from(scope.querySelectorAll('*'))) {
      if (node === el || node.contains(el) || el.contains(node)) continue;
      const style = getComputedStyle(node);
      if (style.position !== 'sticky' && style.position !== 'fixed') continue;
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // Outside a modal dialog, nothing in a closed dialog counts (it is not drawn).
      if (scope === document.body && node.closest('dialog') && !node.closest('dialog[open]')) continue;
      const over = node.getBoundingClientRect();
      if (over.width === 0 || over.height === 0) continue;
      const left = Math.max(over.left, box.left, 0);
      const right = Math.min(over.right, box.right, window.innerWidth);
      const top = Math.max(over.top, box.top, 0);
      const bottom = Math.min(over.bottom, box.bottom, window.innerHeight);
      if (left >= right || top >= bottom) continue;
      // It lies over the focused element where it is drawn on top of it (a skip link drawn above the header is not under it).
      const points = [0.1, 0.5, 0.9].flatMap((fx) => [0.1, 0.5, 0.9].map((fy) => [left + (right - left) * fx, top + (bottom - top) * fy] as const));
      if (points.some(([x, y]) => node.contains(document.elementFromPoint(x, y)))) coveredBy.push(describe(node).split(' "')[0]!);
    }
    // A control must be seen whole; a region given focus (the main content, a log) larger than
    // half the window needs only part of it in view, and a bar across a part of it does not hide it.
    const region = box.height > window.innerHeight / 2;
    if (region) coveredBy.length = 0;
    const offscreen = region
      ? box.bottom <= 0 || box.top >= window.innerHeight
      : box.top < 0 || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth;
    return { where: describe(el), indicated, coveredBy, offscreen };
  });
}

/** Fails unless the focused element can be seen (`focusSight`): an indicator, in the window, under nothing sticky. */
export async function expectFocusVisible(page: Page, label: string): Promise<void> {
  const sight = await focusSight(page);
  expect(sight, `${label}: something has focus`).not.toBeNull();
  expect(sight!.indicated, `${label}: ${sight!.where} shows a focus indicator`).toBe(true);
  expect(sight!.coveredBy, `${label}: ${sight!.where} is under nothing sticky`).toEqual([]);
  expect(sight!.offscreen, `${label}: ${sight!.where} is within the window`).toBe(false);
}

/** Matches a control's accessible name: a string exactly, a RegExp by search. */
function nameMatches(name: string, wanted: string | RegExp): boolean {
  return typeof wanted === 'string' ? name === wanted : wanted.test(name);
}

/** Fails unless the focused control has `role` and a name matching `name`; answers it. */
export async function expectFocusOn(page: Page, role: string, name: string | RegExp, label = 'focus'): Promise<FocusedControl> {
  const control = await focusedControl(page);
  if (!control || control.role !== role || !nameMatches(control.name, name)) {
    throw new Error(`${label}: focus should be on ${role} "${String(name)}", but it is on ${control?.label ?? 'nothing (the page body)'}`);
  }
  return control;
}

/**
 * Presses `key` (Tab unless told; Shift+Tab goes back) until the control with `role` and a name
 * matching `name` has focus, at most `max` times (40 unless told), and answers it. At every stop
 * on the way focus must be visible and not under anything sticky (`focusSight`). It fails with
 * the stops it passed, in order, when the control is not reached, or when focus is lost to the
 * page's body on the way.
 */
export async function tabTo(page: Page, role: string, name: string | RegExp, options: { key?: string; max?: number } = {}): Promise<FocusedControl> {
  const key = options.key ?? 'Tab';
  const max = options.max ?? 40;
  const passed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const control = await focusedControl(page);
    const stop = control?.label ?? 'nothing (the page body)';
    passed.push(stop);
    const trail = `${key} ×${i + 1} towards ${role} "${String(name)}" (passed: ${passed.join(' → ')})`;
    expect(control, `${trail}: focus was lost`).not.toBeNull();
    const sight = await focusSight(page);
    if (sight) {
      expect(sight.indicated, `${trail}: ${sight.where} shows no focus indicator`).toBe(true);
      expect(sight.coveredBy, `${trail}: ${sight.where} is under sticky elements`).toEqual([]);
      expect(sight.offscreen, `${trail}: ${sight.where} is outside the window`).toBe(false);
    }
    if (control && control.role === role && nameMatches(control.name, name)) return control;
  }
  throw new Error(`${role} "${String(name)}" not reached in ${max} presses of ${key}; passed: ${passed.join(' → ')}`);
}
