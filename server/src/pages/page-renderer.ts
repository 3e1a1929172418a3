import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { PassThrough, type Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { CarDetail, CarListItem, Pagination } from '@common/schemas/cars.ts';
import type { CarQuestion } from '@common/schemas/chat.ts';
import { PAGE_TITLES } from '@common/page-titles.ts';
import { PAGES, carPath } from '@common/paths.ts';
import { cachedLoad, loadingCache, type LoadingCache } from '../lib/loading-cache.ts';
import {
  carPageHead,
  escrowPageHead,
  headTags,
  listingPageHead,
  notFoundPageHead,
  resultsPageHead,
  serializeJsonForScript,
  testimonialsPageHead,
  unavailablePageHead,
  type PageHead,
} from './page-head.ts';

/**
 * Pages drawn on the server: the listing, a car, testimonials, escrow and sold results arrive
 * with their first screen in the HTML, their own head (title, description, canonical, Open
 * Graph, JSON-LD) and a real status (404 for a car that is not there, 503 while the database is
 * away). The screens are the web app's own (client/src/entry-server.tsx, built to
 * client/dist-ssr): the server reads the API answers they would read, renders them with React's
 * streaming renderer, and hands the answers to the app in the page, which hydrates the markup.
 */

/** What the web app's server entry offers (client/src/entry-server.tsx). */
export interface ServerEntry {
  planServerPage(url: URL): ServerPagePlan | null;
  renderPage(url: URL, data: PageData, callbacks: { onAllReady(): void; onShellError(error: unknown): void; onError(error: unknown): void }): Promise<{ pipe(destination: Writable): Writable; abort(reason?: unknown): void }>;
  PAGE_DATA_ELEMENT_ID: string;
}
type ServerPageName = 'home' | 'car' | 'testimonials' | 'escrow' | 'results' | 'not-found';
interface ServerPagePlan {
  page: ServerPageName;
  needs: string[];
  primary: string | null;
  notFound: boolean;
}
interface PageAnswer {
  status: number;
  data?: unknown;
}
type PageData = Record<string, PageAnswer>;

/** Reads one API answer as the signed-out web app would (GET, no credentials). */
export type ReadApi = (path: string) => Promise<PageAnswer>;

export interface RenderedPage {
  status: number;
  html: string;
}

/** How long a drawn page is reused while its answers stay the same (PAGE_CACHE_ENTRIES says how many). */
const RENDER_CACHE_MS = 60_000;
/** A page whose screens take longer than this is given up (503) rather than held open. */
const RENDER_TIMEOUT_MS = 5_000;

/** The built server entry, or null when there is none (the web app was not built with it). */
export function loadServerEntry(file: string): Promise<ServerEntry> | null {
  if (!existsSync(file)) return null;
  return import(pathToFileURL(file).href) as Promise<ServerEntry>;
}

/**
 * Answer fields that change on every read without changing the page: the server's clock
 * (sent fresh in every page's data, and only read by the app's countdowns, which the browser
 * redraws at once anyway) and when a valuation was worked out (never shown).
 */
function withoutVolatileFields(key: string, value: unknown): unknown {
  return key === 'serverTime' || key === 'computedAt' ? undefined : value;
}

export class PageRenderer {
  private readonly rendered: LoadingCache<string>;
  private readonly recent: LoadingCache<RenderedPage> | null;
  /**
   * Addresses of pages being drawn for `recent`, each with its number of draws under way:
   * lru-cache lists only the pages it holds, and `forgetCar` must also stop a draw begun before
   * the change from being kept.
   */
  private readonly drawing = new Map<string, number>();
  private drawn = 0;
  private readonly template: { headStart: string; headRest: string; beforeRoot: string; afterRoot: string };
  /** Set once the entry has loaded; every draw waits for `entryLoaded` first. */
  private loadedEntry: ServerEntry | null = null;
  private readonly entryLoaded: Promise<ServerEntry>;

  constructor(
    /** The web app's server entry, or its import still under way (the start does not wait for it). */
    entry: ServerEntry | Promise<ServerEntry>,
    template: string,
    private readonly readApi: ReadApi,
    private readonly appUrl: string,
    /** Extra head tags for a page (its screen's code and styles, a car's first photo). */
    private readonly assetTags: (page: ServerPageName, data: PageData) => string,
    cacheEntries: number,
    /** How long a page as sent is served again without reading its data (0: never). */
    freshMs: number,
  ) {
    this.template = splitTemplate(template);
    this.entryLoaded = Promise.resolve(entry).then((loaded) => (this.loadedEntry = loaded));
    // A failed import fails each draw (a 503 page, logged) instead of ending the process.
    this.entryLoaded.catch(() => undefined);
    this.rendered = loadingCache<string>(RENDER_CACHE_MS, cacheEntries)!;
    this.recent = loadingCache<RenderedPage>(freshMs, cacheEntries);
  }

  /** Drawn pages held for reuse now: never more than the cache's bound. */
  get cachedPages(): number {
    return this.rendered.size;
  }

  /** Pages as sent held for the moment they are served again: never more than the cache's bound. */
  get pagesSent(): number {
    return this.recent?.size ?? 0;
  }

  /** Pages drawn since start (cache misses and the warm-up). */
  get pagesDrawn(): number {
    return this.drawn;
  }

  /** Draws every page once so their screens' code is loaded before the first visitor. */
  async warm(): Promise<void> {
    await this.entryLoaded;
    for (const path of [PAGES.home, carPath(0), PAGES.testimonials, PAGES.escrow, PAGES.results, '/not-found']) {
      await this.renderBody(new URL(path, 'http://warm.invalid'), {}).catch(() => undefined);
    }
  }

  /**
   * The page for `url` (path and query), or null for pages drawn in the browser only.
   *
   * A page as sent is served again for a moment (`freshMs`, a second by default) without
   * reading its data: a car page asked for a thousand times a second then costs a lookup, not a
   * thousand API reads. A change this process makes to a car (a bid, a price, its status) drops
   * that car's pages and the lists at once (`forgetCar`); a change made by another process shows
   * within the moment. Either way the app re-reads the car as it joins its room, so a visitor
   * sees every change; a 503 is never reused.
   */
  async render(url: URL): Promise<RenderedPage | null> {
    const plan = (this.loadedEntry ?? (await this.entryLoaded)).planServerPage(url);
    if (!plan) return null;
    const key = `${url.pathname}${url.search}`;
    const page = await cachedLoad(this.recent, key, () => this.drawCounted(key, url, plan));
    // A 503 goes to the requests that waited for it and is then dropped, never served again.
    if (page.status >= 500 && this.recent?.peek(key) === page) this.recent.delete(key);
    return page;
  }

  private async drawCounted(key: string, url: URL, plan: ServerPagePlan): Promise<RenderedPage> {
    this.drawing.set(key, (this.drawing.get(key) ?? 0) + 1);
    try {
      return await this.draw(url, plan);
    } finally {
      const left = (this.drawing.get(key) ?? 1) - 1;
      if (left > 0) this.drawing.set(key, left);
      else this.drawing.delete(key);
    }
  }

  /** Drops the pages a change to car `carId` makes stale: its own and every list of cars. */
  forgetCar(carId: number): void {
    if (!this.recent) return;
    const own = carPath(carId);
    const stale = (key: string) => !key.startsWith(carPath('')) || key === own || key.startsWith(`${own}?`);
    // Deleting a key whose page is being drawn lets that draw finish for its requests unkept.
    for (const key of [...this.recent.keys(), ...this.drawing.keys()]) if (stale(key)) this.recent.delete(key);
  }

  private async draw(url: URL, plan: ServerPagePlan): Promise<RenderedPage> {
    if (plan.notFound) return this.notFound(url, plan.page);

    const answers = await Promise.all(plan.needs.map(async (path) => [path, await this.readApi(path)] as const));
    if (answers.some(([, answer]) => answer.status >= 500)) return this.unavailable();
    const data: PageData = Object.fromEntries(answers);
    const primary = plan.primary === null ? undefined : data[plan.primary];
    if (primary && (primary.status === 404 || primary.status === 400)) return this.notFound(url, plan.page, data);

    // The Seller Q&A is read for the head's FAQPage only: the screen reads it itself once running.
    const carId = plan.page === 'car' ? Number(url.pathname.split('/').filter(Boolean)[1]) : NaN;
    const questions = Number.isInteger(carId) ? await this.readApi(`/api/cars/${carId}/questions`) : null;
    const head = this.headFor(plan.page, data, questions?.status === 200 ? (questions.data as { questions: CarQuestion[] }).questions : []);
    const body = await this.cachedBody(url, data);
    return { status: 200, html: this.document(head + codeAfterFirstPaint(this.assetTags(plan.page, data)), body, data) };
  }

  /** The friendly page for when the database cannot be reached: static, no React, no data. */
  unavailable(): RenderedPage {
    const body =
      '<main class="container page unavailable" id="main"><h1>We will be right back</h1>' +
      '<p>LuxeMotors cannot reach its records for a moment. Please try again in a few seconds: nothing you did was lost.</p>' +
      '<p><a class="btn btn--gold" href="">Try again</a></p></main>';
    return { status: 503, html: this.document(headTags(unavailablePageHead(), this.appUrl), body, null) };
  }

  private async notFound(url: URL, page: ServerPageName, data: PageData = {}): Promise<RenderedPage> {
    const body = await this.cachedBody(url, data);
    const head = notFoundPageHead(page === 'car' ? PAGE_TITLES.carNotFound : PAGE_TITLES.notFound);
    return { status: 404, html: this.document(headTags(head, this.appUrl) + codeAfterFirstPaint(this.assetTags(page, data)), body, data) };
  }

  private headFor(page: ServerPageName, data: PageData, questions: CarQuestion[] = []): string {
    const head = ((): PageHead => {
      const first = Object.values(data)[0]?.data;
      switch (page) {
        case 'car':
          return carPageHead(first as CarDetail, this.appUrl, questions);
        case 'home': {
          const listing = first as { cars: CarListItem[]; pagination: Pagination };
          return listingPageHead(listing.cars, listing.pagination, this.appUrl);
        }
        case 'testimonials':
          return testimonialsPageHead(this.appUrl);
        case 'escrow':
          return escrowPageHead(this.appUrl);
        case 'results':
          return resultsPageHead(this.appUrl, (first as { pagination?: Pagination } | undefined)?.pagination?.total);
        default:
          return notFoundPageHead();
      }
    })();
    return headTags(head, this.appUrl);
  }

  /**
   * The markup of the app at `url` drawn from `data`, reused while the answers are the same:
   * a car page read a thousand times a second costs its API reads, not a thousand renders, and
   * any change to the car (a bid, a new price, a viewer) draws it afresh. Bounded in count.
   */
  private cachedBody(url: URL, data: PageData): Promise<string> {
    const digest = createHash('sha256').update(JSON.stringify(data, withoutVolatileFields)).digest('base64url');
    return cachedLoad(this.rendered, `${url.pathname}${url.search}#${digest}`, () => this.renderBody(url, data));
  }

  private renderBody(url: URL, data: PageData): Promise<string> {
    this.drawn += 1;
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (chunk: Buffer) => chunks.push(chunk));
      sink.on('end', () => {
        settled = true;
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      const stream = this.entry.renderPage(url, data, {
        // Only once everything is drawn: the HTML then holds the whole first screen and React
        // needs no inline script to reveal parts of it (the CSP allows none).
        onAllReady: () => void stream.then((s) => s.pipe(sink)),
        onShellError: (error) => {
          settled = true;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError: () => undefined,
      });
      stream.catch((error: unknown) => {
        settled = true;
        reject(error instanceof Error ? error : new Error(String(error)));
      });
      setTimeout(() => {
        if (settled) return;
        void stream.then((s) => s.abort(new Error('render timed out')));
        reject(new Error(`Rendering ${url.pathname} took longer than ${RENDER_TIMEOUT_MS} ms`));
      }, RENDER_TIMEOUT_MS).unref();
    });
  }

  /** Only drawing reads it, and every draw starts after `entryLoaded`. */
  private get entry(): ServerEntry {
    if (!this.loadedEntry) throw new Error('the web app\'s server entry has not loaded yet');
    return this.loadedEntry;
  }

  /** The whole page: the web app's HTML with this page's head, markup and data. */
  private document(head: string, body: string, data: PageData | null): string {
    const handOff =
      data === null ? '' : `<script type="application/json" id="${this.entry.PAGE_DATA_ELEMENT_ID}">${serializeJsonForScript(data)}</script>`;
    return `${this.template.headStart}${head}${this.template.headRest}${this.template.beforeRoot}${body}${this.template.afterRoot.replace('</body>', `${handOff}</body>`)}`;
  }
}

/**
 * The built index.html cut where a drawn page differs: its generic title and description go
 * (each page has its own), and so does the "needs JavaScript" notice, since the content is there.
 */
function splitTemplate(html: string): { headStart: string; headRest: string; beforeRoot: string; afterRoot: string } {
  const cleaned = html
    .replace(/<title>[^<]*<\/title>\s*/, '')
    .replace(/<meta\s+name="description"[^>]*\/?>\s*/, '')
    .replace(/<noscript>[\s\S]*?<\/noscript>\s*/, '');
  return splitAt(codeAfterFirstPaint(cleaned));
}

/**
 * A drawn page is readable before the app's code runs, so the code waits until the page has
 * been painted (client/public/app-start.js) instead of sharing a slow connection with what the
 * first paint needs (the stylesheet, the first photo): the entry script is started from there,
 * and its chunks are not announced ahead.
 */
function codeAfterFirstPaint(html: string): string {
  return html
    .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/g, '<script defer src="/app-start.js" data-app="$1"></script>')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
}

function splitAt(cleaned: string): { headStart: string; headRest: string; beforeRoot: string; afterRoot: string } {
  const headEnd = cleaned.indexOf('</head>');
  const rootOpen = '<div id="root">';
  const rootAt = cleaned.indexOf(rootOpen, headEnd);
  const rootClose = cleaned.indexOf('</div>', rootAt);
  if (headEnd === -1 || rootAt === -1 || rootClose === -1) throw new Error('The web app\'s index.html has no </head> or <div id="root"></div>');
  // The page's own tags go before the app's scripts: the browser then asks for the page's first
  // photo ahead of the code, which the first screen does not need to be seen.
  const firstAsset = cleaned.slice(0, headEnd).search(/<script|<link rel="modulepreload"|<link rel="stylesheet"/);
  const split = firstAsset === -1 ? headEnd : firstAsset;
  return {
    headStart: cleaned.slice(0, split),
    headRest: cleaned.slice(split, headEnd),
    beforeRoot: cleaned.slice(headEnd, rootAt + rootOpen.length),
    afterRoot: cleaned.slice(rootClose),
  };
}

