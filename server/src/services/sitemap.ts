import { Readable } from 'node:stream';
import { and, asc, count, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { cars } from '../../../db/schema/index.ts';
import { MAX_ID } from '@common/ids.ts';
import { carPath, PAGES } from '@common/paths.ts';
import { notFound } from '../lib/errors.ts';

/** The pages anyone may read that do not depend on a car, listed before the cars. */
export const SITEMAP_PAGES: readonly string[] = [PAGES.home, PAGES.escrow, PAGES.testimonials, PAGES.results];

/**
 * Cars read per query while a sitemap is written: small enough that a file of 50,000 URLs never
 * sits in memory (about 120 KB of XML per batch), large enough that it takes 50 queries, not
 * thousands.
 */
export const SITEMAP_BATCH_SIZE = 1_000;

/** Car ids are PostgreSQL integers; part ranges past this hold no car. */

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const robotsTxtPath = '/robots.txt';
export const sitemapPath = '/sitemap.xml';
export const sitemapPartPath = (part: number) => `/sitemaps/part-${part}.xml`;

/** The part number in a part's file name (`part-3.xml` → 3); null for anything else. */
export function parseSitemapPart(file: string): number | null {
  const match = /^part-([1-9]\d{0,9})\.xml$/.exec(file);
  return match ? Number(match[1]) : null;
}

export interface SitemapCar {
  id: number;
  /** The car's last change: what `<lastmod>` reports. */
  updatedAt: Date;
}

export interface SitemapOptions {
  /** The site's address without a trailing slash; every URL written is absolute from it. */
  appUrl: string;
  /** URLs in one file; more than this and /sitemap.xml becomes an index of parts. */
  urlsPerFile: number;
  batchSize?: number;
}

/**
 * robots.txt and the sitemap, written as the database is read.
 *
 * How URLs are split into parts: the pages come first and then the active cars by id, car `id`
 * taking slot `pages + id` whether or not the cars before it are still listed. Part k holds
 * slots ((k - 1)·n, k·n], so it never has more than n URLs, and a car stays in the same part
 * however other cars come and go: a crawler that reads the index and its parts minutes apart
 * neither misses a car nor finds it twice, which counting positions (OFFSET) would not give.
 * Each part is one range scan of the primary key; a part with no URL is left out of the index
 * and answers 404.
 *
 * Cars are read in keyset batches (`id > last` in id order) rather than through a cursor: a
 * cursor would hold a connection (the embedded database has just one) for as long as a slow
 * client takes to read, while batches let other queries through in between.
 */
export class SitemapService {
  private readonly batchSize: number;

  constructor(
    private readonly db: Database,
    private readonly options: SitemapOptions,
  ) {
    this.batchSize = options.batchSize ?? SITEMAP_BATCH_SIZE;
  }

  robotsTxt(): string {
    return [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      `Disallow: ${PAGES.admin}`,
      `Disallow: ${PAGES.dashboard}`,
      '',
      `Sitemap: ${this.absolute(sitemapPath)}`,
      '',
    ].join('\n');
  }

  /** /sitemap.xml: every URL in one file while they fit, an index of the parts past that. */
  async sitemap(): Promise<Readable> {
    const perFile = this.options.urlsPerFile;
    const [row] = await this.db.select({ cars: count() }).from(cars).where(eq(cars.status, 'active'));
    if (SITEMAP_PAGES.length + (row?.cars ?? 0) <= perFile) {
      // Cars published since the count are left for the next read rather than overfill the file.
      // Never null: the pages are always there.
      return (await this.urlset(SITEMAP_PAGES, { afterId: 0, throughId: MAX_ID, limit: perFile - SITEMAP_PAGES.length }))!;
    }
    return Readable.from(this.indexXml(await this.parts()));
  }

  /** One part of the index, by its file name; 404 when it has no URL (or is no part's name). */
  async part(file: string): Promise<Readable> {
    const part = parseSitemapPart(file);
    if (part === null) throw notFound('Sitemap not found');
    const perFile = this.options.urlsPerFile;
    const pages = SITEMAP_PAGES.slice((part - 1) * perFile, part * perFile);
    const afterId = Math.max(0, (part - 1) * perFile - SITEMAP_PAGES.length);
    const throughId = Math.min(MAX_ID, part * perFile - SITEMAP_PAGES.length);
    const stream = await this.urlset(pages, { afterId, throughId });
    if (!stream) throw notFound('Sitemap not found');
    return stream;
  }

  /** Active cars with ids in (afterId, throughId], in id order, one batch per query; no batch is empty. */
  async *activeCars(range: { afterId: number; throughId: number; limit?: number }): AsyncGenerator<SitemapCar[]> {
    let after = range.afterId;
    let remaining = range.limit ?? Number.POSITIVE_INFINITY;
    if (after >= range.throughId) return;
    while (remaining > 0) {
      const size = Math.min(this.batchSize, remaining);
      const batch = await this.db
        .select({ id: cars.id, updatedAt: cars.updatedAt })
        .from(cars)
        .where(and(eq(cars.status, 'active'), gt(cars.id, after), lte(cars.id, range.throughId)))
        .orderBy(asc(cars.id))
        .limit(size);
      if (batch.length > 0) yield batch;
      if (batch.length < size) return;
      after = batch[batch.length - 1]!.id;
      remaining -= batch.length;
    }
  }

  /** The parts that hold a URL, with the last change of their cars (none for pages alone). */
  private async parts(): Promise<{ part: number; lastmod: Date | null }[]> {
    const perFile = this.options.urlsPerFile;
    const parts = new Map<number, Date | null>();
    for (let part = 1; (part - 1) * perFile < SITEMAP_PAGES.length; part++) parts.set(part, null);
    // Whole numbers from the config, written into the statement so GROUP BY sees the same expression.
    const partOfCar = sql<number>`(${cars.id} + ${sql.raw(String(SITEMAP_PAGES.length - 1))}) / ${sql.raw(String(perFile))} + 1`.mapWith(Number);
    // One row per part (a few for a million cars), so this is read at once.
    const rows = await this.db
      .select({ part: partOfCar, lastmod: max(cars.updatedAt) })
      .from(cars)
      .where(eq(cars.status, 'active'))
      .groupBy(partOfCar)
      .orderBy(partOfCar);
    for (const { part, lastmod } of rows) parts.set(part, lastmod);
    return [...parts].sort(([a], [b]) => a - b).map(([part, lastmod]) => ({ part, lastmod }));
  }

  /**
   * A `<urlset>` of `pages` and the active cars in `range`, as a stream. The first batch is read
   * before the stream is handed over: a database that cannot be reached still gets the error
   * contract's 503 rather than a 200 cut short. Null when there is no URL at all.
   */
  private async urlset(pages: readonly string[], range: { afterId: number; throughId: number; limit?: number }): Promise<Readable | null> {
    const batches = this.activeCars(range);
    const first = await batches.next();
    if (pages.length === 0 && first.done) return null;
    return Readable.from(this.urlsetXml(pages, first, batches));
  }

  private async *urlsetXml(pages: readonly string[], first: IteratorResult<SitemapCar[]>, rest: AsyncGenerator<SitemapCar[]>): AsyncGenerator<string> {
    try {
      yield `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n${pages.map((page) => this.entry('url', page, null)).join('')}`;
      for (let batch = first; !batch.done; batch = await rest.next()) {
        yield batch.value.map((car) => this.entry('url', carPath(car.id), car.updatedAt)).join('');
      }
      yield '</urlset>\n';
    } finally {
      // A client that goes away ends the reads too.
      await rest.return(undefined);
    }
  }

  private *indexXml(parts: { part: number; lastmod: Date | null }[]): Generator<string> {
    yield `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n`;
    for (const { part, lastmod } of parts) yield this.entry('sitemap', sitemapPartPath(part), lastmod);
    yield '</sitemapindex>\n';
  }

  private entry(tag: 'url' | 'sitemap', path: string, lastmod: Date | null): string {
    const changed = lastmod ? `<lastmod>${w3cDateTime(lastmod)}</lastmod>` : '';
    return `<${tag}><loc>${escapeXml(this.absolute(path))}</loc>${changed}</${tag}>\n`;
  }

  private absolute(path: string): string {
    return `${this.options.appUrl}${path}`;
  }
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

/** W3C datetime to the second, in UTC (`2026-05-01T09:30:00Z`), as the sitemaps protocol asks. */
export function w3cDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
