/**
 * The pages drawn on the server (contract v3, "Pages for people, search engines and shared
 * links"), read as curl, a search engine or a link preview reads them: the HTML of `/`,
 * `/car/:id`, `/testimonials`, `/escrow` and `/results` before any script runs — content, head
 * tags, JSON-LD, the data handed to the app — their 404s, seller text that tries to break out of
 * the markup, the page after the car changes, many requests for one page, and the database gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CarDetail, CarListItem } from '@common/schemas/cars.ts';
import { DEFAULT_ESCROW_PLAN, ESCROW_PLANS, ESCROW_PLAN_IDS } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { cars } from '../../db/schema/index.ts';
import { requestsTo } from '../helpers/api.ts';
import { listCar as listCarAs, type ListingOverrides } from '../helpers/cars.ts';
import { jobsSettled, quietFor } from '../helpers/wait.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { orderApi } from '../helpers/escrow.ts';
import { syntheticPhoto } from '../helpers/photos.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Not the address the server listens on: canonical and share URLs must come from APP_URL, not the request. */
const APP_URL = 'https://cars.luxemotors.example';
/** Small, so a test can fill the render cache; the default is 500. */
const PAGE_CACHE_ENTRIES = 40;
/** How long a page as sent is served again (PAGE_FRESH_MS, left at its default). */
const PAGE_FRESH_MS = 1_000;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true', APP_URL, JOB_POLL_SECONDS: '0.5', PAGE_CACHE_ENTRIES: String(PAGE_CACHE_ENTRIES) });
  await t.listen();
});
afterAll(async () => {
  await t?.close();
});

// ── Reading HTML as a crawler does ─────────────────────────────────────────────────────────

const call = requestsTo(() => t);

async function getPage(url: string, app: TestApp = t) {
  const res = await app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  return { status: res.statusCode, headers: res.headers, html: res.body };
}

async function apiData<T>(url: string): Promise<T> {
  const res = await call('GET', url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json().data as T;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The markup inside `<div id="root">`: what the page shows before the app's script has run. */
function rootMarkup(html: string): string {
  const start = html.indexOf('<div id="root">');
  expect(start, 'the page has <div id="root">').toBeGreaterThan(-1);
  const end = html.indexOf('<script', start);
  return html.slice(start, end === -1 ? html.indexOf('</body>') : end);
}

/** The text a reader sees in `markup`: tags gone, entities decoded, whitespace collapsed. */
function visibleText(markup: string): string {
  return decodeEntities(markup.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function headOf(html: string): string {
  const end = html.indexOf('</head>');
  expect(end).toBeGreaterThan(-1);
  return html.slice(0, end);
}

function titleOf(html: string): string {
  const titles = [...headOf(html).matchAll(/<title>([^<]*)<\/title>/g)];
  expect(titles, 'exactly one <title>').toHaveLength(1);
  return decodeEntities(titles[0]![1]!);
}

/** The content of `<meta name|property="key">` in the head, or undefined. */
function metaOf(html: string, key: string): string | undefined {
  const escaped = key.replace(/[.:]/g, (c) => `\\${c}`);
  const found = [...headOf(html).matchAll(new RegExp(`<meta\\s+(?:name|property)="${escaped}"\\s+content="([^"]*)"\\s*/?>`, 'g'))];
  expect(found.length, `at most one ${key}`).toBeLessThanOrEqual(1);
  return found[0] ? decodeEntities(found[0][1]!) : undefined;
}

function canonicalOf(html: string): string | undefined {
  const found = /<link\s+rel="canonical"\s+href="([^"]*)"/.exec(headOf(html));
  return found ? decodeEntities(found[1]!) : undefined;
}

/** Every JSON-LD block, parsed (a block that does not parse fails the test). */
function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

type PageAnswers = Record<string, { status: number; data?: unknown }>;
/** The API answers the page hands to the app. */
function pageDataOf(html: string): PageAnswers {
  const found = [...html.matchAll(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/g)];
  expect(found, 'one page-data script').toHaveLength(1);
  return JSON.parse(found[0]![1]!) as PageAnswers;
}

/** `value` without the server clock, which differs on every read. */
/** An answer without the fields that differ between two reads of the same thing: the clocks. */
const withoutServerTime = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'serverTime' || key === 'computedAt' ? undefined : v)));

/** The page's handed-over answers are the API's answers to the same requests, signed out. */
async function expectPageDataMatchesApi(html: string): Promise<PageAnswers> {
  const answers = pageDataOf(html);
  for (const [path, answer] of Object.entries(answers)) {
    expect(path, 'keys are API requests').toMatch(/^\/api\//);
    const res = await call('GET', path);
    expect(answer.status, path).toBe(res.statusCode);
    expect(withoutServerTime(answer.data), path).toEqual(withoutServerTime(res.json().data));
  }
  return answers;
}

/** Script-src without 'unsafe-inline', and no script in the page that the browser would run inline. */
function expectStrictScripts(headers: Record<string, unknown>, html: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? /(?:^|;)\s*default-src ([^;]*)/.exec(csp)?.[1];
  expect(scriptSrc, `CSP: ${csp}`).toBeDefined();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  const tags = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  expect(tags.length).toBeGreaterThan(0);
  for (const [whole, attributes, body] of tags) {
    // The app is started from a file of the site's own once the page is painted (app-start.js,
    // naming the entry module), or loaded as a module (the pages drawn in the browser).
    const isModuleWithSrc = /\btype="module"/.test(attributes!) && /\bsrc="\/assets\/[^"]+\.js"/.test(attributes!) && body!.trim() === '';
    const isAppStart = /^\s*defer src="\/app-start\.js" data-app="\/assets\/[^"]+\.js"\s*$/.test(attributes!) && body!.trim() === '';
    const isData = /^\s*type="application\/(?:ld\+)?json"(?:\s+id="page-data")?\s*$/.test(attributes!);
    expect(isModuleWithSrc || isAppStart || isData, `an inline executable script: ${whole!.slice(0, 120)}`).toBe(true);
  }
  // Nothing that runs script from an attribute either (attribute values, escaped, may say anything).
  for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi)) expect(tag.replace(/"[^"]*"/g, '""'), tag.slice(0, 120)).not.toMatch(/\son[a-z]+\s*=/i);
}

const carName = (car: { year: number; make: string; model: string }) => `${car.year} ${car.make} ${car.model}`;

let listed = 0;
/** A car listed through the API by `seller` (published unless `draft`). */
function listCar(seller: SignedInUser, fields: ListingOverrides = {}): Promise<CarDetail> {
  listed += 1;
  return listCarAs(t, seller, {
    model: `911 GT3 Touring ${listed}`,
    year: 2022,
    price: 187_500,
    mileage: 6_200,
    description: 'Manual gearbox, PTS Shark Blue, one owner and full dealer history.',
    features: ['Front axle lift'],
    ...fields,
  });
}

// ── The five pages ─────────────────────────────────────────────────────────────────────────

const PAGES = [
  { path: '/', canonical: `${APP_URL}/` },
  { path: '/car/3', canonical: `${APP_URL}/car/3` },
  { path: '/testimonials', canonical: `${APP_URL}/testimonials` },
  { path: '/escrow', canonical: `${APP_URL}/escrow` },
  { path: '/results', canonical: `${APP_URL}/results` },
];

describe('each page drawn on the server', () => {
  it('answers 200 HTML with its own title, description, canonical, Open Graph and Twitter tags, from APP_URL', async () => {
    const seen: { title: string; description: string }[] = [];
    for (const { path, canonical } of PAGES) {
      const page = await getPage(path);
      expect(page.status, path).toBe(200);
      expect(page.headers['content-type'], path).toBe('text/html; charset=utf-8');
      const title = titleOf(page.html);
      const description = metaOf(page.html, 'description');
      expect(title, path).toMatch(/\S.* — LuxeMotors$/);
      expect(description, path).toBeTruthy();
      expect(description!.length, path).toBeLessThanOrEqual(160);
      expect(canonicalOf(page.html), path).toBe(canonical);
      expect(metaOf(page.html, 'robots'), `${path} is indexable`).toBeUndefined();
      expect(metaOf(page.html, 'og:title'), path).toBe(title);
      expect(metaOf(page.html, 'og:description'), path).toBe(description);
      expect(metaOf(page.html, 'og:url'), path).toBe(canonical);
      expect(metaOf(page.html, 'og:image'), path).toMatch(new RegExp(`^${APP_URL.replace(/\./g, '\\.')}/\\S+$`));
      expect(metaOf(page.html, 'twitter:card'), path).toBe('summary_large_image');
      // The share image a preview fetches exists.
      const image = new URL(metaOf(page.html, 'og:image')!);
      expect((await t.app.inject({ method: 'GET', url: image.pathname })).statusCode, image.href).toBe(200);
      expectStrictScripts(page.headers, page.html);
      // The page does not still carry the shell's "needs JavaScript" notice.
      expect(page.html, path).not.toContain('<noscript>');
      seen.push({ title, description: description! });
    }
    expect(new Set(seen.map((s) => s.title)).size, 'distinct titles').toBe(PAGES.length);
    expect(new Set(seen.map((s) => s.description)).size, 'distinct descriptions').toBe(PAGES.length);
  });

  it("shows a car's name, price, first photo with its size and description before any script, with a Car and Offer in JSON-LD", async () => {
    const first = (await apiData<{ cars: CarListItem[] }>('/api/cars')).cars[0]!;
    const car = await apiData<CarDetail>(`/api/cars/${first.id}`);
    const page = await getPage(`/car/${car.id}`);
    expect(page.status).toBe(200);
    const root = rootMarkup(page.html);
    const h1 = [...root.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => visibleText(m[1]!));
    expect(h1).toEqual([carName(car)]);
    const text = visibleText(root);
    expect(text).toContain(formatUsd(car.price));
    expect(text).toContain(car.description);
    expect(text).toContain(car.location);
    const img = new RegExp(`<img\\b[^>]*\\bsrc="${car.images[0]!.replace(/[.?]/g, (c) => `\\${c}`)}"[^>]*>`).exec(root)?.[0];
    expect(img, 'the first photo as an <img>').toBeDefined();
    expect(Number(/\bwidth="(\d+)"/.exec(img!)?.[1])).toBeGreaterThan(0);
    expect(Number(/\bheight="(\d+)"/.exec(img!)?.[1])).toBeGreaterThan(0);
    expect(img).not.toContain('loading="lazy"');

    expect(titleOf(page.html)).toContain(carName(car));
    expect(titleOf(page.html)).toContain(formatUsd(car.price));
    expect(metaOf(page.html, 'og:image')).toBe(`${APP_URL}${car.images[0]}`);
    const [ld, ...others] = jsonLdOf(page.html);
    expect(others).toEqual([]);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: carName(car),
      brand: { '@type': 'Brand', name: car.make },
      model: car.model,
      vehicleModelDate: String(car.year),
      mileageFromOdometer: { '@type': 'QuantitativeValue', value: car.mileage },
      image: car.images.map((url) => `${APP_URL}${url}`),
      offers: { '@type': 'Offer', price: car.price, priceCurrency: 'USD', availability: 'https://schema.org/InStock', url: `${APP_URL}/car/${car.id}` },
    });
    const answers = await expectPageDataMatchesApi(page.html);
    expect(answers[`/api/cars/${car.id}`]?.status).toBe(200);
  });

  it("shows a seller's uploaded photo first, at its own size, and shares it as the page's image", async () => {
    const seller = await createUser(t, { name: 'Photo Seller' });
    const car = await listCar(seller);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await syntheticPhoto({ width: 1200, height: 900 }))], { type: 'image/jpeg' }), 'front.jpg');
    const upload = await fetch(`${t.url}/api/cars/${car.id}/images`, { method: 'POST', headers: seller.auth, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const photo = (await apiData<CarDetail>(`/api/cars/${car.id}`)).photos[0]!;

    const page = await getPage(`/car/${car.id}`);
    const root = rootMarkup(page.html);
    const firstImg = /<img\b[^>]*>/.exec(root.slice(root.indexOf('<main')))?.[0] ?? '';
    expect(firstImg).toMatch(new RegExp(`\\bwidth="${photo.width}"`));
    expect(firstImg).toMatch(new RegExp(`\\bheight="${photo.height}"`));
    expect(firstImg).toContain(photo.gallery.webp.replace(/\.webp$/, ''));
    expect(metaOf(page.html, 'og:image')).toBe(`${APP_URL}${photo.gallery.jpeg}`);
    expect(metaOf(page.html, 'og:image:width')).toBe(String(photo.width));
    expect(metaOf(page.html, 'og:image:height')).toBe(String(photo.height));
    expect(jsonLdOf(page.html)[0]).toMatchObject({ image: [`${APP_URL}${photo.gallery.jpeg}`] });
  });

  it('shows the first page of cards of the listing, in order, and lists the same cars in an ItemList', async () => {
    const listing = await apiData<{ cars: CarListItem[]; pagination: { total: number } }>('/api/cars');
    expect(listing.cars.length).toBeGreaterThan(1);
    const page = await getPage('/');
    expect(page.status).toBe(200);
    const root = rootMarkup(page.html);
    const cards = root.split('data-testid="car-card"').slice(1);
    expect(cards).toHaveLength(listing.cars.length);
    cards.forEach((card, i) => {
      const car = listing.cars[i]!;
      const text = visibleText(`<x ${card}`);
      expect(text, `card ${i + 1}`).toContain(carName(car));
      expect(text, `card ${i + 1}`).toContain(formatUsd(car.price));
      expect(card, `card ${i + 1}`).toContain(`href="/car/${car.id}"`);
    });
    const [list, ...others] = jsonLdOf(page.html);
    expect(others).toEqual([]);
    expect(list).toMatchObject({ '@context': 'https://schema.org', '@type': 'ItemList', numberOfItems: listing.cars.length });
    expect(list!.itemListElement).toEqual(
      listing.cars.map((car, i) => ({ '@type': 'ListItem', position: i + 1, url: `${APP_URL}/car/${car.id}`, name: carName(car) })),
    );
    const answers = await expectPageDataMatchesApi(page.html);
    const [only] = Object.values(answers);
    expect(Object.keys(answers)).toHaveLength(1);
    expect((only!.data as { cars: CarListItem[] }).cars.map((c) => c.id)).toEqual(listing.cars.map((c) => c.id));
  });

  it("shows page 2 of the listing with that page's cards and a canonical of its own", async () => {
    const second = await apiData<{ cars: CarListItem[] }>('/api/cars?page=2');
    const page = await getPage('/?page=2');
    expect(page.status).toBe(200);
    expect(canonicalOf(page.html)).toBe(`${APP_URL}/?page=2`);
    const ld = jsonLdOf(page.html)[0]!;
    expect((ld.itemListElement as { url: string }[]).map((item) => item.url)).toEqual(second.cars.map((car) => `${APP_URL}/car/${car.id}`));
    for (const car of second.cars) expect(rootMarkup(page.html)).toContain(`href="/car/${car.id}"`);
    await expectPageDataMatchesApi(page.html);
  });

  it("shows the buyers' testimonials and their figures", async () => {
    const { testimonials } = await apiData<{ testimonials: { customerName: string; comment: string; rating: number }[] }>('/api/testimonials');
    expect(testimonials.length).toBeGreaterThan(0);
    const page = await getPage('/testimonials');
    const root = rootMarkup(page.html);
    expect(root).toMatch(/<h1\b[^>]*>Testimonials<\/h1>/);
    const text = visibleText(root);
    expect(text).toContain('What our customers say');
    expect(text).toContain(`${testimonials.length} Reviews`);
    for (const item of testimonials) {
      expect(text).toContain(item.customerName);
      expect(text).toContain(item.comment);
    }
    expect(jsonLdOf(page.html)[0]).toMatchObject({ '@type': 'WebPage', url: `${APP_URL}/testimonials` });
    await expectPageDataMatchesApi(page.html);
  });

  it('shows how escrow works and every plan with its fee and limit, the default plan chosen', async () => {
    const page = await getPage('/escrow');
    const root = rootMarkup(page.html);
    const text = visibleText(root);
    expect(root).toMatch(/<h1\b[^>]*>[^<]+<\/h1>/);
    expect(text).toContain('How Escrow Works');
    expect(text).toContain('Choose Your Protection Plan');
    for (const id of ESCROW_PLAN_IDS) {
      const card = root.slice(root.indexOf(`data-plan="${id}"`)).split('data-testid="plan-card"')[0]!;
      const plan = ESCROW_PLANS[id];
      expect(visibleText(`<x ${card}`), id).toContain(plan.name);
      expect(visibleText(`<x ${card}`), id).toContain(formatUsd(plan.price));
      expect(visibleText(`<x ${card}`), id).toContain(`up to ${formatUsd(plan.maxValue)}`);
      expect(card, id).toContain(`aria-pressed="${id === DEFAULT_ESCROW_PLAN}"`);
    }
    expect(pageDataOf(page.html)).toEqual({});
  });

  it('shows a sold car on the results page once its sale is complete', async () => {
    const [buyer, seller] = await Promise.all([createUser(t, { name: 'Results Buyer' }), createUser(t, { name: 'Results Seller' })]);
    const car = await listCar(seller, { make: 'Ferrari', model: 'Roma Spider', year: 2023, price: 245_000 });
    const orders = orderApi(t);
    const order = (await orders.place(buyer, car)).json().data as { id: number };
    for (const [who, action, body] of [
      [buyer, 'pay', {}],
      [seller, 'ship', { carrier: 'Reliable Carriers', trackingNumber: 'RC-7' }],
      [buyer, 'confirm-delivery', {}],
      [buyer, 'accept', {}],
    ] as const) {
      expect((await orders.act(who, order.id, action, body)).statusCode, action).toBe(200);
    }
    await waitUntil(async () => (await orders.get(buyer, order.id)).json().data.status === 'released', 15_000, 'the sale to complete');

    const page = await getPage('/results');
    expect(page.status).toBe(200);
    const root = rootMarkup(page.html);
    expect(root).toMatch(/<h1\b[^>]*>Sold results<\/h1>/);
    const text = visibleText(root);
    expect(text).toContain('2023 Ferrari Roma Spider');
    expect(text).toContain(formatUsd(245_000));
    expect(text).not.toContain('Results Buyer');
    expect(page.html).not.toContain('Results Buyer');
    expect(jsonLdOf(page.html)[0]).toMatchObject({ '@type': 'WebPage', url: `${APP_URL}/results` });
    await expectPageDataMatchesApi(page.html);
  }, 40_000);
});

// ── Not found ──────────────────────────────────────────────────────────────────────────────

describe('a page that is not there', () => {
  let draft: CarDetail;
  let draftName = '';
  beforeAll(async () => {
    const seller = await createUser(t, { name: 'Draft Seller' });
    draft = await listCar(seller, { model: 'Secret Prototype Draft', draft: true });
    draftName = carName(draft);
  });

  const CASES: [string, () => string, RegExp, string][] = [
    ['an unknown car', () => '/car/999999', /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ['a car id of letters', () => '/car/abc', /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ['car id 0', () => '/car/0', /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ['a car id in exponent notation', () => '/car/1e3', /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ['a car id past the largest', () => '/car/2147483648', /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ["someone's unpublished draft", () => `/car/${draft.id}`, /<h1\b[^>]*>Car Not Found<\/h1>/, 'Car Not Found — LuxeMotors'],
    ['a path no page takes', () => '/cars/for-sale/cheap', /<h1\b[^>]*>Page not found<\/h1>/, 'Page Not Found — LuxeMotors'],
  ];

  it.each(CASES)('answers %s with 404, the not-found screen and noindex', async (_label, url, heading, title) => {
    const page = await getPage(url());
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(rootMarkup(page.html)).toMatch(heading);
    expect(metaOf(page.html, 'robots')).toBe('noindex');
    expect(titleOf(page.html)).toBe(title);
    expect(jsonLdOf(page.html)).toEqual([]);
    expectStrictScripts(page.headers, page.html);
    // A draft's details never reach a stranger, in the markup or in the data.
    expect(page.html).not.toContain(draftName);
    expect(page.html).not.toContain('Secret Prototype');
  });
});

// ── Seller text that tries to become markup ────────────────────────────────────────────────

describe('seller text with markup in it', () => {
  const DESCRIPTION = '</script><script>alert(1)</script><img src=x onerror=alert(1)> & <!-- "quoted" \'single\' \u2028 line';
  const MODEL = '"><b>Bold</b> GT <script>alert(2)</script>';
  let car: CarDetail;

  beforeAll(async () => {
    const seller = await createUser(t, { name: 'Sly <i>Seller</i>' });
    car = await listCar(seller, { make: 'Porsche', model: MODEL, description: DESCRIPTION });
    expect(car.model).toBe(MODEL);
    expect(car.description).toBe(DESCRIPTION);
  });

  it('is shown as text, never as markup, on the car page', async () => {
    const page = await getPage(`/car/${car.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<script>alert/i);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).not.toContain('<b>Bold</b>');
    expect(page.html).not.toContain('<i>Seller</i>');
    // Only the app's own three scripts: its module, the JSON-LD and the page's data.
    expect([...page.html.matchAll(/<script\b/gi)]).toHaveLength(3);
    expectStrictScripts(page.headers, page.html);

    const root = rootMarkup(page.html);
    expect(root).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    const text = visibleText(root);
    expect(text).toContain('</script><script>alert(1)</script><img src=x onerror=alert(1)> & <!-- "quoted" \'single\'');
    const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1] ?? '';
    expect(visibleText(h1)).toBe(`2022 Porsche ${MODEL}`);
    expect(titleOf(page.html)).toContain(`2022 Porsche ${MODEL}`);
    expect(metaOf(page.html, 'og:title')).toContain(MODEL);
  });

  it('round-trips unchanged through the JSON-LD and the page data', async () => {
    const page = await getPage(`/car/${car.id}`);
    const [ld] = jsonLdOf(page.html);
    expect(ld).toMatchObject({ '@type': 'Car', model: MODEL, name: `2022 Porsche ${MODEL}`, description: DESCRIPTION, offers: { seller: { name: 'Sly <i>Seller</i>' } } });
    const data = pageDataOf(page.html)[`/api/cars/${car.id}`]!.data as CarDetail;
    expect(data.description).toBe(DESCRIPTION);
    expect(data.model).toBe(MODEL);
    // The script elements hold no character that could end them early.
    for (const m of page.html.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>([\s\S]*?)<\/script>/g)) {
      expect(m[1]).not.toMatch(/[<>\u2028\u2029]/);
    }
  });

  it('is escaped on the listing too', async () => {
    const page = await getPage(`/?search=${encodeURIComponent('Bold')}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<b>Bold</b>');
    expect(page.html).not.toMatch(/<script>alert/i);
    const ld = jsonLdOf(page.html)[0]!;
    expect((ld.itemListElement as { name: string }[]).map((item) => item.name)).toContain(`2022 Porsche ${MODEL}`);
    expect(visibleText(rootMarkup(page.html))).toContain(`2022 Porsche ${MODEL}`);
    expectStrictScripts(page.headers, page.html);
  });
});

// ── A page after its car changes ───────────────────────────────────────────────────────────

describe('a car page after the car changes', () => {
  it("shows the seller's new price at once, in the page, its title and its Offer", async () => {
    const seller = await createUser(t);
    const car = await listCar(seller, { price: 150_000 });
    const asking = (html: string) => /data-testid="asking-price">([^<]*)</.exec(html)?.[1];
    const before = await getPage(`/car/${car.id}`);
    expect(asking(before.html)).toBe('$150,000');
    // Read twice: the second answer may come from the page cache.
    await getPage(`/car/${car.id}`);
    expect((await call('PATCH', `/api/cars/${car.id}`, seller, { price: 139_500 })).statusCode).toBe(200);
    const after = await getPage(`/car/${car.id}`);
    expect(asking(after.html)).toBe('$139,500');
    expect(titleOf(after.html)).toContain('$139,500');
    expect(jsonLdOf(after.html)[0]).toMatchObject({ offers: { price: 139_500 } });
    expect((pageDataOf(after.html)[`/api/cars/${car.id}`]!.data as CarDetail).price).toBe(139_500);
  });

  it('shows a new bid on a running auction at once', async () => {
    const [seller, bidder] = await Promise.all([createUser(t), createUser(t, { name: 'Eager Bidder' })]);
    const car = await listCar(seller, { price: 100_000, auction: { endsAt: new Date(Date.now() + 2 * 86_400_000).toISOString() } });
    const before = await getPage(`/car/${car.id}`);
    expect(before.status).toBe(200);
    expect(titleOf(before.html)).toContain('$100,000');
    await getPage(`/car/${car.id}`);
    const bid = await call('POST', '/api/bids', bidder, { carId: car.id, amount: 104_500 });
    expect(bid.statusCode, bid.body).toBe(201);
    const after = await getPage(`/car/${car.id}`);
    expect(titleOf(after.html)).toContain('current bid $104,500');
    expect(visibleText(rootMarkup(after.html))).toContain('$104,500');
    expect(visibleText(rootMarkup(before.html))).not.toContain('$104,500');
    const data = pageDataOf(after.html)[`/api/cars/${car.id}`]!.data as CarDetail;
    expect([data.highestBid, data.currentBids]).toEqual([104_500, 1]);
  });
});

// ── Many requests ──────────────────────────────────────────────────────────────────────────

/** Requests `urls` 20 at a time; every answer must be the car page. */
async function requestAll(urls: string[], name: string): Promise<void> {
  for (let i = 0; i < urls.length; i += 20) {
    const batch = await Promise.all(urls.slice(i, i + 20).map((url) => getPage(url)));
    for (const page of batch) {
      expect(page.status).toBe(200);
      expect(page.html).toContain(`>${name}</h1>`);
    }
  }
}

const pageCache = () => t.app.appShell.pageCache!();

describe('a car page requested again and again', () => {
  it('is drawn once while its data is unchanged, however often it is asked for', async () => {
    const car = await apiData<CarDetail>('/api/cars/3');
    await requestAll(['/car/3'], carName(car));
    const before = pageCache().drawn;
    await requestAll(Array.from({ length: 200 }, () => '/car/3'), carName(car));
    expect(pageCache().drawn).toBe(before);
  });

  it('keeps a bounded number of drawn pages however many addresses are asked for', async () => {
    // Every query string is a page of its own in the render cache: a crawler or an attacker can
    // ask for any number of them. Past the bound (PAGE_CACHE_ENTRIES, 40 here) old ones go.
    const car = await apiData<CarDetail>('/api/cars/3');
    await requestAll(Array.from({ length: 60 }, (_, i) => `/car/3?ref=${i}`), carName(car));
    expect(pageCache()).toMatchObject({ held: PAGE_CACHE_ENTRIES, sent: PAGE_CACHE_ENTRIES });
    await requestAll(Array.from({ length: 30 }, (_, i) => `/car/3?ref=${100 + i}`), carName(car));
    expect(pageCache()).toMatchObject({ held: PAGE_CACHE_ENTRIES, sent: PAGE_CACHE_ENTRIES });
  });

  it('is served as sent for a moment without reading the car, so a change made elsewhere shows within PAGE_FRESH_MS', async () => {
    // A change written by another process publishes nothing here: written straight to the
    // database, it stands for one. This process's own changes drop the page at once (above).
    const seller = await createUser(t);
    const car = await listCar(seller, { price: 181_000 });
    // A new listing refreshes the market values around it in a job, which drops its page when
    // done: let that happen first, or it lands in the moment and the page is drawn afresh.
    await jobsSettled(t, 'valuation.refresh');
    const asking = async () => /data-testid="asking-price">([^<]*)</.exec((await getPage(`/car/${car.id}`)).html)?.[1];
    const firstAskedAt = Date.now();
    expect(await asking()).toBe('$181,000');
    await t.database.db.update(cars).set({ price: 176_000 }).where(eq(cars.id, car.id));
    const soonAfter = await asking();
    // The copy was made after the first request began, so it is certainly fresh until then.
    if (Date.now() < firstAskedAt + PAGE_FRESH_MS) expect(soonAfter, 'within the moment: the page as sent').toBe('$181,000');
    else console.log(`[server-pages] the second read came ${Date.now() - firstAskedAt} ms after the first, past PAGE_FRESH_MS: only the change's arrival is checked`);
    await waitUntil(async () => (await asking()) === '$176,000', PAGE_FRESH_MS + 2_000, 'the change shown');
  });

  it("stamps every page with the server's clock as it leaves, even a copy served as sent, so countdowns start right on a wrong device clock", async () => {
    const stampOf = (headers: Record<string, unknown>) => Number(/(?:^|,)\s*clock;desc="(\d+)"/.exec(String(headers['server-timing']))?.[1]);
    let firstCarStamp = 0;
    for (const path of ['/car/3', '/', '/sell']) {
      const before = Date.now();
      const page = await t.app.inject({ method: 'GET', url: path });
      expect(page.statusCode, path).toBe(200);
      const stamp = stampOf(page.headers);
      if (path === '/car/3') firstCarStamp = stamp;
      expect(stamp, `${path}: ${String(page.headers['server-timing'])}`).toBeGreaterThanOrEqual(before);
      expect(stamp, path).toBeLessThanOrEqual(Date.now());
    }
    // The same car page again within the moment is the copy as sent, with a new stamp (the clock
    // has moved past the first one, so the copy's old stamp would show).
    await waitUntil(() => Date.now() > firstCarStamp, 1_000, 'the clock past the first stamp');
    const before = Date.now();
    const again = await t.app.inject({ method: 'GET', url: '/car/3' });
    expect(stampOf(again.headers)).toBeGreaterThanOrEqual(before);
  });
});

// ── The database gone ──────────────────────────────────────────────────────────────────────

describe('when the database cannot be reached', () => {
  it('answers a car page and the listing with 503 and a friendly page, fast, never a copy older than a moment', async () => {
    const down = await startTestApp({ SERVE_CLIENT: 'true', APP_URL });
    try {
      const car = (await down.app.inject({ method: 'GET', url: '/api/cars/3' })).json().data as CarDetail;
      const up = await getPage('/car/3', down);
      expect(up.status).toBe(200);
      await down.database.close();
      for (const path of ['/', '/testimonials', '/results', '/car/999999', '/car/3']) {
        // The car page was sent a moment ago: served as sent for that moment, never past it.
        if (path === '/car/3') await quietFor(PAGE_FRESH_MS, 'the page\'s moment of freshness running out is what is tested');
        const started = Date.now();
        const page = await getPage(path, down);
        expect(Date.now() - started, path).toBeLessThan(2_000);
        expect(page.status, path).toBe(503);
        expect(page.headers['content-type'], path).toBe('text/html; charset=utf-8');
        expect(rootMarkup(page.html), path).toMatch(/<h1\b[^>]*>We will be right back<\/h1>/);
        expect(metaOf(page.html, 'robots'), path).toBe('noindex');
        expect(page.html, path).not.toContain(carName(car));
        expect(page.html, path).not.toMatch(/ECONN|stack|at [A-Za-z]+ \(|postgres|pglite/i);
        expectStrictScripts(page.headers, page.html);
      }
    } finally {
      await down.app.close();
    }
  }, 60_000);
});

describe("the car page's dossier", () => {
  it('names the VIN and the known flaws in the JSON-LD, and hands the dossier to the app', async () => {
    const seller = await createUser(t);
    const car = await listCar(seller);
    const knownFlaws = [{ text: 'Stone chips on the front bumper' }, { text: 'Curb rash on the left rear wheel' }];
    const put = await t.app.inject({ method: 'PUT', url: `/api/cars/${car.id}/dossier`, headers: seller.auth, payload: { vin: 'WP0AC2A94NS270123', knownFlaws } });
    expect(put.statusCode, put.body).toBe(200);
    const page = await getPage(`/car/${car.id}`);
    expect(page.status).toBe(200);
    expect(jsonLdOf(page.html)[0]).toMatchObject({ vehicleIdentificationNumber: 'WP0AC2A94NS270123', knownVehicleDamages: 'Stone chips on the front bumper; Curb rash on the left rear wheel' });
    const data = pageDataOf(page.html)[`/api/cars/${car.id}`]!.data as CarDetail;
    expect(data.dossier).toMatchObject({ vin: 'WP0AC2A94NS270123', vinCheck: 'not_applicable', knownFlaws: knownFlaws.map((f) => ({ ...f, id: expect.any(Number) })) });
  });
});
