import { describe, expect, it } from 'vitest';
import { EMPTY_DOSSIER } from '@common/schemas/dossier.ts';
import type { CarDetail, CarListItem } from '@common/schemas/cars.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';
import {
  DEFAULT_OG_IMAGE,
  absoluteUrl,
  carPageHead,
  escrowPageHead,
  headTags,
  listingPageHead,
  notFoundPageHead,
  resultsPageHead,
  serializeJsonForScript,
  testimonialsPageHead,
  truncateText,
  unavailablePageHead,
  type PageHead,
} from './page-head.ts';

const APP = 'https://luxe.example';

function car(overrides: Partial<CarDetail> = {}): CarDetail {
  return {
    status: 'active',
    auction: null,
    serverTime: '2026-11-26T12:00:00.000Z',
    id: 12,
    make: 'Porsche',
    model: '911 Turbo S',
    year: 2021,
    price: 189_000,
    marketValue: 195_000,
    marketValueBasis: 'comparables',
    mileage: 8_400,
    condition: 'Excellent',
    images: ['/media/cars/sports/c0121c/side.svg', '/media/cars/sports/c0121c/front.svg'],
    photos: [],
    dossier: EMPTY_DOSSIER,
    description: 'One owner, full service history.',
    seller: { id: 3, name: 'Beverly Hills Exotics', rating: 4.8, verified: true, userId: 7 },
    currentBids: 0,
    highestBid: null,
    viewingCount: 2,
    location: 'Beverly Hills, CA',
    features: [],
    bodyStyle: 'sports',
    reviews: [],
    ...overrides,
  };
}

function listItem(id: number, overrides: Partial<CarListItem> = {}): CarListItem {
  return {
    id,
    year: 2020 + (id % 5),
    make: 'Ferrari',
    model: `F8 ${id}`,
    price: 250_000,
    market_value: null,
    condition: 'Excellent',
    location: 'Miami, FL',
    primary_image: null,
    seller_name: 'Miami Prestige Motors',
    seller_verified: true,
    mileage: 1_000,
    current_bids: 0,
    highest_bid: null,
    viewing_count: 0,
    auction: null,
    ...overrides,
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

interface Element {
  tag: string;
  attrs: Record<string, string>;
  text: string;
}

/**
 * Reads the head the way an HTML parser would for the only elements it may hold: <title>
 * (text up to `</title`), <script> (raw text up to `</script`, as the HTML parser ends it),
 * <meta> and <link>. Anything else, including stray text or a tag smuggled in by car text,
 * throws, so a test that parses has also shown nothing was injected.
 */
function tokenize(html: string): Element[] {
  const elements: Element[] = [];
  let rest = html;
  while (rest.length > 0) {
    const gap = /^\s*/.exec(rest)![0];
    rest = rest.slice(gap.length);
    if (rest.length === 0) break;
    const open = /^<(title|meta|link|script)((?:\s+[a-z:-]+="[^"<>]*")*)>/i.exec(rest);
    if (!open) throw new Error(`Unexpected content in head: ${rest.slice(0, 80)}`);
    const tag = open[1]!.toLowerCase();
    const attrs: Record<string, string> = {};
    for (const [, name, value] of open[2]!.matchAll(/([a-z:-]+)="([^"]*)"/gi)) attrs[name!] = decode(value!);
    rest = rest.slice(open[0].length);
    let text = '';
    if (tag === 'title' || tag === 'script') {
      const close = rest.toLowerCase().indexOf(`</${tag}`);
      if (close < 0) throw new Error(`Unclosed <${tag}>`);
      text = rest.slice(0, close);
      if (tag === 'title') {
        if (text.includes('<')) throw new Error('Markup inside <title>');
        text = decode(text);
      }
      rest = rest.slice(close);
      const end = new RegExp(`^</${tag}>`, 'i').exec(rest);
      if (!end) throw new Error(`Malformed </${tag}>`);
      rest = rest.slice(end[0].length);
    }
    elements.push({ tag, attrs, text });
  }
  return elements;
}

function parseHead(html: string) {
  const elements = tokenize(html);
  const meta = (key: string) => {
    const found = elements.filter((el) => el.tag === 'meta' && (el.attrs.property === key || el.attrs.name === key));
    if (found.length > 1) throw new Error(`${key} twice`);
    return found[0]?.attrs.content ?? null;
  };
  return {
    elements,
    title: elements.find((el) => el.tag === 'title')?.text ?? null,
    canonical: elements.find((el) => el.tag === 'link' && el.attrs.rel === 'canonical')?.attrs.href ?? null,
    meta,
    jsonLd: elements
      .filter((el) => el.tag === 'script')
      .map((el) => {
        expect(el.attrs.type).toBe('application/ld+json');
        return JSON.parse(el.text) as Record<string, unknown>;
      }),
    tagNames: elements.map((el) => el.tag),
  };
}

describe('headTags', () => {
  it('writes every required tag, with absolute URLs', () => {
    const head = carPageHead(car(), APP);
    const parsed = parseHead(headTags(head, APP));

    expect(parsed.title).toBe('2021 Porsche 911 Turbo S — $189,000 — LuxeMotors');
    expect(parsed.meta('description')).toBe('One owner, full service history.');
    expect(parsed.canonical).toBe(`${APP}/car/12`);
    expect(parsed.meta('og:title')).toBe(parsed.title);
    expect(parsed.meta('og:description')).toBe('One owner, full service history.');
    expect(parsed.meta('og:url')).toBe(`${APP}/car/12`);
    expect(parsed.meta('og:image')).toBe(`${APP}/media/cars/sports/c0121c/side.svg`);
    expect(parsed.meta('og:image:alt')).toBe('2021 Porsche 911 Turbo S');
    expect(parsed.meta('og:type')).toBe('product');
    expect(parsed.meta('og:site_name')).toBe('LuxeMotors');
    expect(parsed.meta('twitter:card')).toBe('summary_large_image');
    expect(parsed.meta('twitter:title')).toBe(parsed.title);
    expect(parsed.meta('twitter:description')).toBe('One owner, full service history.');
    expect(parsed.meta('twitter:image')).toBe(`${APP}/media/cars/sports/c0121c/side.svg`);
    expect(parsed.meta('robots')).toBeNull();
    expect(parsed.jsonLd).toHaveLength(1);
    expect(parsed.tagNames).toEqual(expect.arrayContaining(['title', 'meta', 'link', 'script']));
  });

  it('uses the first photo’s gallery JPEG with its size when the car has photos', () => {
    const photo = (n: number) => ({
      width: 1600,
      height: 1067,
      card: { webp: `/media/photos/${n}/card.webp`, jpeg: `/media/photos/${n}/card.jpg` },
      gallery: { webp: `/media/photos/${n}/gallery.webp`, jpeg: `/media/photos/${n}/gallery.jpg` },
    });
    const head = carPageHead(car({ photos: [photo(1), photo(2)] }), APP);
    const parsed = parseHead(headTags(head, APP));
    expect(parsed.meta('og:image')).toBe(`${APP}/media/photos/1/gallery.jpg`);
    expect(parsed.meta('og:image:width')).toBe('1600');
    expect(parsed.meta('og:image:height')).toBe('1067');
    expect(parsed.jsonLd[0]!.image).toEqual([`${APP}/media/photos/1/gallery.jpg`, `${APP}/media/photos/2/gallery.jpg`]);
  });

  it('keeps absolute http(s) image URLs and replaces any other scheme by the default image', () => {
    const base = notFoundPageHead();
    const withImage = (url: string): PageHead => ({ ...base, image: { url, alt: 'x' } });

    expect(parseHead(headTags(withImage('https://cdn.example/a.jpg?x=1&y=2'), APP)).meta('og:image')).toBe('https://cdn.example/a.jpg?x=1&y=2');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:image/png;base64,AAAA', '//evil.example/a.png', 'relative.png', 'vbscript:x']) {
      const parsed = parseHead(headTags(withImage(bad), APP));
      expect(parsed.meta('og:image'), bad).toBe(`${APP}/og-image.png`);
      expect(parsed.meta('twitter:image'), bad).toBe(`${APP}/og-image.png`);
      expect(parsed.meta('og:image:width')).toBe(String(DEFAULT_OG_IMAGE.width));
    }
    expect(absoluteUrl('/car/1', APP)).toBe(`${APP}/car/1`);
    expect(absoluteUrl('http://x.example/p', APP)).toBe('http://x.example/p');
    expect(absoluteUrl('javascript:alert(1)', APP)).toBeNull();
  });

  it('gives pages without a photo the site image and its size', () => {
    const parsed = parseHead(headTags(carPageHead(car({ images: [] }), APP), APP));
    expect(parsed.meta('og:image')).toBe(`${APP}/og-image.png`);
    expect(parsed.meta('og:image:width')).toBe('1200');
    expect(parsed.meta('og:image:height')).toBe('630');
    expect(parsed.jsonLd[0]!.image).toEqual([`${APP}/og-image.png`]);
  });
});

describe('escaping', () => {
  const SCRIPT = '</script><script>alert(1)</script>';
  const IMG = '"><img src=x onerror=alert(1)>';
  const AMP = 'Rolls &amp; Royce\u2028<!--';
  const hostile = car({ make: SCRIPT, model: IMG, description: `${AMP} ${SCRIPT} ${IMG} 'quoted'` });

  it('never lets car text open or close an element', () => {
    const html = headTags(carPageHead(hostile, APP), APP);

    // The only <script> and </script> are the JSON-LD element's own.
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('\u2028');

    const parsed = parseHead(html);
    expect(parsed.tagNames.filter((t) => t === 'script')).toHaveLength(1);
    expect(parsed.tagNames.filter((t) => t === 'title')).toHaveLength(1);
  });

  it('shows the original text in the title and meta tags', () => {
    const parsed = parseHead(headTags(carPageHead(hostile, APP), APP));
    expect(parsed.title).toBe(`2021 ${SCRIPT} ${IMG} — $189,000 — LuxeMotors`);
    expect(parsed.meta('og:title')).toBe(parsed.title);
    expect(parsed.meta('description')).toBe(`Rolls &amp; Royce <!-- ${SCRIPT} ${IMG} 'quoted'`);
    expect(parsed.meta('og:image:alt')).toBe(`2021 ${SCRIPT} ${IMG}`);

    const html = headTags(carPageHead(hostile, APP), APP);
    expect(html).toContain('Rolls &amp;amp; Royce');
    expect(html).toContain('&quot;&gt;&lt;img');
    expect(html).toContain('&#39;quoted&#39;');
  });

  it('keeps the JSON-LD round-tripping to the original text', () => {
    const parsed = parseHead(headTags(carPageHead(hostile, APP), APP));
    const data = parsed.jsonLd[0]!;
    expect(data.name).toBe(`2021 ${SCRIPT} ${IMG}`);
    expect(data.brand).toEqual({ '@type': 'Brand', name: SCRIPT });
    expect(data.model).toBe(IMG);
    expect(data.description).toBe(`${AMP} ${SCRIPT} ${IMG} 'quoted'`);
  });

  it('serialises JSON for a script element without <, >, &, U+2028 or U+2029', () => {
    const value = { text: `${SCRIPT}&\u2028\u2029<!--` };
    const json = serializeJsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('carPageHead', () => {
  it('describes the car in JSON-LD', () => {
    const [data] = carPageHead(car(), APP).jsonLd as Record<string, unknown>[];
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: '2021 Porsche 911 Turbo S',
      brand: { '@type': 'Brand', name: 'Porsche' },
      model: '911 Turbo S',
      vehicleModelDate: '2021',
      mileageFromOdometer: { '@type': 'QuantitativeValue', value: 8400, unitCode: 'SMI' },
      bodyType: 'Sports',
      itemCondition: 'https://schema.org/UsedCondition',
      description: 'One owner, full service history.',
      image: [`${APP}/media/cars/sports/c0121c/side.svg`, `${APP}/media/cars/sports/c0121c/front.svg`],
      url: `${APP}/car/12`,
      offers: {
        '@type': 'Offer',
        price: 189000,
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url: `${APP}/car/12`,
        seller: { '@type': 'Organization', name: 'Beverly Hills Exotics' },
      },
    });
  });

  it("names the dossier's VIN and known flaws in JSON-LD", () => {
    const dossier = { ...EMPTY_DOSSIER, vin: 'WP0AC2A94NS270123', vinCheck: 'not_applicable' as const, knownFlaws: [{ id: 1, text: 'Stone chips on the bumper' }, { id: 2, text: 'Curb rash' }] };
    const [data] = carPageHead(car({ dossier }), APP).jsonLd as Record<string, unknown>[];
    expect(data).toMatchObject({ vehicleIdentificationNumber: 'WP0AC2A94NS270123', knownVehicleDamages: 'Stone chips on the bumper; Curb rash' });
  });

  it.each<[CarStatus, string]>([
    ['active', 'InStock'],
    ['pending', 'Reserved'],
    ['sold', 'SoldOut'],
    ['ended', 'OutOfStock'],
    ['withdrawn', 'OutOfStock'],
  ])('a %s car is %s', (status, availability) => {
    const [data] = carPageHead(car({ status }), APP).jsonLd as { offers: { availability: string } }[];
    expect(data!.offers.availability).toBe(`https://schema.org/${availability}`);
  });

  it('shows a live auction’s current bid in the title', () => {
    const auction = { endsAt: '2026-11-27T12:00:00.000Z', reserveMet: false, ended: false, hasReserve: true, extensions: 0, outcome: null, acceptUntil: null };
    expect(carPageHead(car({ auction, highestBid: 201_500, currentBids: 4 }), APP).title).toBe('2021 Porsche 911 Turbo S — current bid $201,500 — LuxeMotors');
    expect(carPageHead(car({ auction, highestBid: null }), APP).title).toBe('2021 Porsche 911 Turbo S — $189,000 — LuxeMotors');
    expect(carPageHead(car({ auction: { ...auction, ended: true }, status: 'sold', highestBid: 201_500 }), APP).title).toBe('2021 Porsche 911 Turbo S — $189,000 — LuxeMotors');
  });

  it('truncates a long description at a word boundary with an ellipsis', () => {
    const long = 'Finished in  Guards Red\nwith a black leather interior. '.repeat(10);
    const { description } = carPageHead(car({ description: long }), APP);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.endsWith('…')).toBe(true);
    expect(description).not.toMatch(/\s{2}|\n/);
    const words = description.slice(0, -1).split(' ');
    const source = long.replace(/\s+/g, ' ').split(' ');
    expect(words).toEqual(source.slice(0, words.length).map((w, i) => (i === words.length - 1 ? w.replace(/[.,]$/, '') : w)));
  });

  it('writes a description when the seller gave none', () => {
    const { description } = carPageHead(car({ description: '  \n ' }), APP);
    expect(description).toBe('2021 Porsche 911 Turbo S for sale on LuxeMotors: $189,000, 8,400 miles, Beverly Hills, CA. Buy through escrow.');
  });
});

describe('truncateText', () => {
  it('leaves short text alone, collapsing whitespace', () => {
    expect(truncateText('  a \t b\n\nc ')).toBe('a b c');
    expect(truncateText('x'.repeat(160))).toBe('x'.repeat(160));
  });

  it('always holds the limit', () => {
    expect(truncateText('x'.repeat(400))).toBe(`${'x'.repeat(159)}…`);
    const words = truncateText('word '.repeat(100));
    expect(words.length).toBeLessThanOrEqual(160);
    expect(words).toMatch(/word…$/);
    expect(truncateText('😀'.repeat(100)).length).toBeLessThanOrEqual(160);
    expect(truncateText('😀'.repeat(100))).not.toMatch(/[\uD800-\uDBFF]…$/);
  });
});

describe('listingPageHead', () => {
  const cars = [listItem(5), listItem(9), listItem(2)];

  it('lists the page’s cars in an ItemList with absolute URLs', () => {
    const head = listingPageHead(cars, { page: 1, limit: 12, total: 3, pages: 1 }, APP);
    const parsed = parseHead(headTags(head, APP));
    expect(parsed.title).toBe('Cars — LuxeMotors');
    expect(parsed.canonical).toBe(`${APP}/`);
    expect(parsed.meta('og:url')).toBe(`${APP}/`);
    expect(parsed.meta('og:type')).toBe('website');
    expect(parsed.meta('og:image')).toBe(`${APP}/og-image.png`);
    expect(parsed.meta('description')).toMatch(/market value/);
    expect(parsed.meta('description')).toMatch(/escrow/);
    const [list] = parsed.jsonLd;
    expect(list).toMatchObject({ '@context': 'https://schema.org', '@type': 'ItemList', numberOfItems: 3 });
    expect(list!.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, url: `${APP}/car/5`, name: '2020 Ferrari F8 5' },
      { '@type': 'ListItem', position: 2, url: `${APP}/car/9`, name: '2024 Ferrari F8 9' },
      { '@type': 'ListItem', position: 3, url: `${APP}/car/2`, name: '2022 Ferrari F8 2' },
    ]);
  });

  it('numbers later pages on from the earlier ones and keeps the page in the canonical', () => {
    const head = listingPageHead(cars, { page: 3, limit: 12, total: 27, pages: 3 }, APP);
    expect(head.title).toBe('Cars — Page 3 — LuxeMotors');
    expect(parseHead(headTags(head, APP)).canonical).toBe(`${APP}/?page=3`);
    const positions = (head.jsonLd[0] as { itemListElement: { position: number }[] }).itemListElement.map((e) => e.position);
    expect(positions).toEqual([25, 26, 27]);
  });

  it('points a filtered view at the plain listing', () => {
    const head = listingPageHead(cars, { page: 2, limit: 12, total: 15, pages: 2 }, APP, 'Porsche <below market>');
    expect(head.path).toBe('/');
    expect(head.title).toBe('Porsche <below market> — Cars — Page 2 — LuxeMotors');
    expect(headTags(head, APP)).toContain('<title>Porsche &lt;below market&gt; — Cars — Page 2 — LuxeMotors</title>');
  });

  it('has an empty list when the page has no cars', () => {
    const head = listingPageHead([], { page: 1, limit: 12, total: 0, pages: 0 }, APP);
    expect(head.jsonLd[0]).toMatchObject({ numberOfItems: 0, itemListElement: [] });
  });
});

describe('site pages', () => {
  it.each([
    ['testimonials', testimonialsPageHead(APP), 'Testimonials — LuxeMotors', '/testimonials'],
    ['escrow', escrowPageHead(APP), 'Escrow Service — LuxeMotors', '/escrow'],
    ['results', resultsPageHead(APP), 'Sold Results — LuxeMotors', '/results'],
  ])('%s has its own title, canonical and valid JSON-LD', (_name, head, title, path) => {
    const parsed = parseHead(headTags(head, APP));
    expect(parsed.title).toBe(title);
    expect(parsed.canonical).toBe(`${APP}${path}`);
    expect(parsed.meta('og:url')).toBe(`${APP}${path}`);
    expect(parsed.meta('og:type')).toBe('website');
    expect(parsed.meta('og:image')).toBe(`${APP}/og-image.png`);
    expect(parsed.meta('twitter:card')).toBe('summary_large_image');
    expect(parsed.meta('robots')).toBeNull();
    expect(parsed.meta('description')!.length).toBeLessThanOrEqual(160);
    expect(parsed.jsonLd[0]).toMatchObject({ '@context': 'https://schema.org', '@type': 'WebPage', url: `${APP}${path}` });
  });

  it('counts the sold cars when told how many', () => {
    expect(resultsPageHead(APP, 1234).description).toMatch(/^1,234 premium and luxury cars sold/);
    expect(resultsPageHead(APP, 1_234_567).description.length).toBeLessThanOrEqual(160);
  });

  it.each([
    ['not found', notFoundPageHead(), 'Page Not Found — LuxeMotors'],
    ['a car not found', notFoundPageHead('Car Not Found'), 'Car Not Found — LuxeMotors'],
    ['unavailable', unavailablePageHead(), 'Temporarily Unavailable — LuxeMotors'],
  ])('the %s page is kept out of search results', (_name, head, title) => {
    const parsed = parseHead(headTags(head, APP));
    expect(parsed.title).toBe(title);
    expect(parsed.meta('robots')).toBe('noindex');
    expect(parsed.jsonLd).toEqual([]);
  });
});
