import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { asc, eq, inArray } from 'drizzle-orm';
import { cars } from '../../db/schema/index.ts';
import { SitemapService } from '../../server/src/services/sitemap.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const PAGES = ['/', '/escrow', '/testimonials', '/results'];
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const KNOWN_CHANGE = new Date('2026-03-04T05:06:07.890Z');

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(text)) throw new Error(`bare & in ${JSON.stringify(text)}`);
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (_, ref: string) =>
    ref.startsWith('#x') ? String.fromCodePoint(parseInt(ref.slice(2), 16)) : ref.startsWith('#') ? String.fromCodePoint(Number(ref.slice(1))) : ENTITIES[ref]!,
  );
}

/**
 * A strict reader for the XML a sitemap uses (a declaration, elements, attributes, text): it
 * throws on anything that is not well-formed (unclosed or crossed tags, a bare `&` or `<`, text
 * after the root), which is what a crawler's parser would refuse.
 */
function parseXml(xml: string): XmlElement {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) throw new Error('no XML declaration');
  const token = /<\/([A-Za-z][\w:.-]*)\s*>|<([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  token.lastIndex = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (token.lastIndex < xml.length) {
    const at = token.lastIndex;
    const match = token.exec(xml);
    if (!match) throw new Error(`not well-formed at ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
    const [, closing, opening, attributeText, selfClosing, text] = match;
    if (text !== undefined) {
      if (stack.length === 0) {
        if (text.trim() !== '') throw new Error('text outside the root element');
        continue;
      }
      stack[stack.length - 1]!.text += decode(text);
    } else if (closing !== undefined) {
      const open = stack.pop();
      if (open?.name !== closing) throw new Error(`</${closing}> closes <${open?.name}>`);
    } else {
      if (root && stack.length === 0) throw new Error('a second root element');
      const attributes: Record<string, string> = {};
      for (const [, name, value] of attributeText!.matchAll(/([A-Za-z][\w:.-]*)="([^"]*)"/g)) attributes[name!] = decode(value!);
      const element: XmlElement = { name: opening!, attributes, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (!root || stack.length > 0) throw new Error('unclosed elements');
  return root;
}

/** Each `<url>` or `<sitemap>` entry: its location and its lastmod, if any. */
function entries(root: XmlElement): { loc: string; lastmod: string | undefined }[] {
  return root.children.map((entry) => ({
    loc: entry.children.find((c) => c.name === 'loc')!.text,
    lastmod: entry.children.find((c) => c.name === 'lastmod')?.text,
  }));
}

async function getXml(app: TestApp, url: string) {
  const res = await app.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
  return parseXml(res.body);
}

let t: TestApp;
let activeIds: number[];
let removedIds: number[];
let knownCarId: number;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const seeded = await db.select({ id: cars.id }).from(cars).where(eq(cars.status, 'active')).orderBy(asc(cars.id));
  expect(seeded.length).toBeGreaterThan(8);
  // Cars in every state a page must not be offered in: a draft, withdrawn, sold, hidden by an
  // operator, each reached as the car lifecycle allows (a listed car never becomes a draft again,
  // so the draft is a new listing like the first car).
  const [template, withdrawn, sold, hidden, known] = seeded.map((c) => c.id);
  const { id: _templateId, ...templateValues } = (await db.select().from(cars).where(eq(cars.id, template!)))[0]!;
  const [drafted] = await db.insert(cars).values({ ...templateValues, status: 'draft' }).returning({ id: cars.id });
  const draft = drafted!.id;
  await db.update(cars).set({ status: 'withdrawn' }).where(eq(cars.id, withdrawn!));
  await db.update(cars).set({ status: 'pending' }).where(eq(cars.id, sold!));
  await db.update(cars).set({ status: 'sold' }).where(eq(cars.id, sold!));
  await db.update(cars).set({ status: 'hidden', hiddenFromStatus: 'active', hiddenBy: 'operator' }).where(eq(cars.id, hidden!));
  await db.update(cars).set({ updatedAt: KNOWN_CHANGE }).where(eq(cars.id, known!));
  removedIds = [draft, withdrawn!, sold!, hidden!];
  knownCarId = known!;
  activeIds = (await db.select({ id: cars.id }).from(cars).where(eq(cars.status, 'active')).orderBy(asc(cars.id))).map((c) => c.id);
});
afterAll(async () => {
  await t?.close();
});

const expectedUrls = (appUrl: string) => [...PAGES.map((p) => `${appUrl}${p}`), ...activeIds.map((id) => `${appUrl}/car/${id}`)].sort();

describe('GET /robots.txt', () => {
  it('lets crawlers read the pages but not the API, the console or dashboards, and names the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const lines = res.body.split('\n').map((line) => line.trim());
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    expect(lines).toContain('Disallow: /api/');
    expect(lines).toContain('Disallow: /admin');
    expect(lines).toContain('Disallow: /dashboard');
    expect(lines).toContain(`Sitemap: ${t.config.appUrl}/sitemap.xml`);
    expect(t.config.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('GET /sitemap.xml', () => {
  it('lists the four pages and every active car once, as absolute URLs from APP_URL', async () => {
    const root = await getXml(t, '/sitemap.xml');
    expect(root.name).toBe('urlset');
    expect(root.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = entries(root).map((e) => e.loc);
    expect([...locs].sort()).toEqual(expectedUrls(t.config.appUrl));
    for (const id of removedIds) expect(locs).not.toContain(`${t.config.appUrl}/car/${id}`);
  });

  it("gives each car its last change as a W3C datetime lastmod", async () => {
    const rows = await t.database.db.select({ id: cars.id, updatedAt: cars.updatedAt }).from(cars).where(inArray(cars.id, activeIds));
    const changed = new Map(rows.map((r) => [`${t.config.appUrl}/car/${r.id}`, r.updatedAt]));
    const carEntries = entries(await getXml(t, '/sitemap.xml')).filter((e) => e.loc.includes('/car/'));
    expect(carEntries).toHaveLength(activeIds.length);
    for (const { loc, lastmod } of carEntries) {
      expect(lastmod, loc).toMatch(W3C_DATETIME);
      // To the second: what the file says is the stored change time.
      expect(Math.floor(Date.parse(lastmod!) / 1000), loc).toBe(Math.floor(changed.get(loc)!.getTime() / 1000));
    }
    expect(carEntries.find((e) => e.loc === `${t.config.appUrl}/car/${knownCarId}`)?.lastmod).toBe('2026-03-04T05:06:07Z');
  });

  it('is cacheable for an hour', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('escapes what XML reserves in the URLs', async () => {
    const appUrl = "https://cars.example.com/shop&o'neil";
    const other = await startTestApp({ APP_URL: appUrl }, t.database);
    try {
      const res = await other.app.inject({ method: 'GET', url: '/sitemap.xml' });
      expect(res.body).toContain('<loc>https://cars.example.com/shop&amp;o&apos;neil/escrow</loc>');
      expect(res.body).not.toContain("shop&o'neil");
      const locs = entries(parseXml(res.body)).map((e) => e.loc);
      expect([...locs].sort()).toEqual(expectedUrls(appUrl));
      const robots = await other.app.inject({ method: 'GET', url: '/robots.txt' });
      expect(robots.body).toContain(`Sitemap: ${appUrl}/sitemap.xml`);
    } finally {
      await other.close();
    }
  });

  it('is sent as it is written (chunked, no length given) by a listening server', async () => {
    const base = await t.listen();
    const res = await fetch(`${base}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const locs = entries(parseXml(await res.text())).map((e) => e.loc);
    expect([...locs].sort()).toEqual(expectedUrls(t.config.appUrl));
    expect(await t.app.services.sitemap.sitemap()).toBeInstanceOf(Readable);
  });
});

describe('reading the cars for a sitemap', () => {
  it('reads active cars in keyset batches of the given size, in id order, each once', async () => {
    const service = new SitemapService(t.database.db, { appUrl: 'https://example.com', urlsPerFile: 50_000, batchSize: 2 });
    const batches: number[][] = [];
    for await (const batch of service.activeCars({ afterId: 0, throughId: 2_147_483_647 })) batches.push(batch.map((c) => c.id));
    expect(batches.length).toBe(Math.ceil(activeIds.length / 2));
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(2);
    expect(batches.flat()).toEqual(activeIds);
  });

  it('stops at the limit and within the id range', async () => {
    const service = new SitemapService(t.database.db, { appUrl: 'https://example.com', urlsPerFile: 50_000, batchSize: 2 });
    const read = async (range: { afterId: number; throughId: number; limit?: number }) => {
      const ids: number[] = [];
      for await (const batch of service.activeCars(range)) ids.push(...batch.map((c) => c.id));
      return ids;
    };
    expect(await read({ afterId: 0, throughId: 2_147_483_647, limit: 5 })).toEqual(activeIds.slice(0, 5));
    const [low, high] = [activeIds[2]!, activeIds[6]!];
    expect(await read({ afterId: low, throughId: high })).toEqual(activeIds.filter((id) => id > low && id <= high));
  });
});

describe('past the URLs one file may hold (SITEMAP_URLS_PER_FILE=3)', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ SITEMAP_URLS_PER_FILE: '3' }, t.database);
  });
  afterAll(async () => {
    await small?.close();
  });

  const partsOf = async () => entries(await getXml(small, '/sitemap.xml'));
  const pathOf = (loc: string) => loc.slice(small.config.appUrl.length);

  it('answers a sitemap index whose parts list every URL exactly once, at most 3 each', async () => {
    const root = await getXml(small, '/sitemap.xml');
    expect(root.name).toBe('sitemapindex');
    expect(root.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const parts = entries(root);
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil((PAGES.length + activeIds.length) / 3));
    const listed: string[] = [];
    for (const part of parts) {
      expect(part.loc.startsWith(`${small.config.appUrl}/sitemaps/`), part.loc).toBe(true);
      if (part.lastmod !== undefined) expect(part.lastmod).toMatch(W3C_DATETIME);
      const urlset = await getXml(small, pathOf(part.loc));
      expect(urlset.name).toBe('urlset');
      const urls = entries(urlset);
      expect(urls.length, part.loc).toBeGreaterThan(0);
      expect(urls.length, part.loc).toBeLessThanOrEqual(3);
      for (const url of urls) if (url.loc.includes('/car/')) expect(url.lastmod).toMatch(W3C_DATETIME);
      listed.push(...urls.map((u) => u.loc));
    }
    expect(listed.sort()).toEqual(expectedUrls(small.config.appUrl));
  });

  it('answers 404 in the error shape for a part past the end, or a name that is no part', async () => {
    const parts = await partsOf();
    const last = pathOf(parts[parts.length - 1]!.loc);
    const number = Number(/(\d+)\.xml$/.exec(last)![1]);
    const pastTheEnd = last.replace(/\d+\.xml$/, `${number + 1}.xml`);
    for (const url of [pastTheEnd, last.replace(/\d+\.xml$/, '0.xml'), last.replace(/\d+\.xml$/, '99999999999.xml'), last.replace(/\d+\.xml$/, 'x.xml'), last.replace(/\.xml$/, '.json'), '/sitemaps/']) {
      const res = await small.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
    }
  });
});

describe('when the database cannot be reached', () => {
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  /** The app's queries fail from the `from`-th one on (1 = the first). */
  function failQueries(app: TestApp, from = 1) {
    const select = app.app.db.select.bind(app.app.db);
    let calls = 0;
    return vi.spyOn(app.app.db, 'select').mockImplementation(((...args: Parameters<typeof select>) => {
      calls += 1;
      if (calls >= from) throw unreachable();
      return select(...args);
    }) as typeof select);
  }

  it.each([
    ['the sitemap', '/sitemap.xml', 1],
    ['a part (its first batch)', '/sitemaps/part-1.xml', 1],
  ])('answers 503 in the error shape for %s, never a 200 cut short', async (_name, url, from) => {
    const spy = failQueries(t, from);
    try {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE' });
    } finally {
      spy.mockRestore();
    }
  });

  it('answers 503 for the index when the parts cannot be read after the count', async () => {
    const small = await startTestApp({ SITEMAP_URLS_PER_FILE: '3' }, t.database);
    const spy = failQueries(small, 2);
    try {
      const res = await small.app.inject({ method: 'GET', url: '/sitemap.xml' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      spy.mockRestore();
      await small.close();
    }
  });
});
