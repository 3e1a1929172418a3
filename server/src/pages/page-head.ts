/**
 * Each server-rendered page's <head>: title, description, canonical link, Open Graph and Twitter
 * cards, and JSON-LD (contract §"Pages for people, search engines and shared links (v3)").
 *
 * Pure: the rendering pipeline loads the data and passes it in. Every field of a `PageHead` may
 * carry text a seller typed, so `headTags` is the one place that turns it into HTML, and it
 * escapes everything it writes.
 *
 * URLs: `path` and `image.url` stay site-relative (or absolute for off-site photos) and
 * `headTags` makes them absolute. JSON-LD cannot be resolved that way (its URLs sit anywhere in
 * an arbitrary object), so the builders that emit URLs in JSON-LD take `appUrl` and write them
 * absolute themselves.
 */
import type { CarDetail, CarListItem, Pagination } from '@common/schemas/cars.ts';
import type { CarQuestion } from '@common/schemas/chat.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';
import { BODY_STYLE_LABELS, CAR_CONDITIONS, type CarBodyStyle } from '@common/listing.ts';
import { PAGE_TITLES, SITE_NAME, carName, carPageName, documentTitle, listingPageName, plainText } from '@common/page-titles.ts';
import { PAGES, carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';

export { SITE_NAME };
export const DEFAULT_OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: 'LuxeMotors: premium and luxury cars, bought through escrow',
} as const;
/** Search results cut descriptions near here; longer ones are truncated by us, not mid-word by them. */
export const DESCRIPTION_MAX_LENGTH = 160;

export interface PageHead {
  /** The full <title> text. */
  title: string;
  /** Plain text, at most DESCRIPTION_MAX_LENGTH characters. */
  description: string;
  /** The canonical path (starting with '/'), made absolute by `headTags`. */
  path: string;
  /** `url` may be site-relative; `headTags` makes it absolute and drops anything not http(s). */
  image: { url: string; width?: number; height?: number; alt: string };
  ogType: 'website' | 'product';
  /** Structured data, with absolute URLs already. */
  jsonLd: object[];
  /** For pages that must stay out of search results (not found, unavailable). */
  noindex?: boolean;
}

// ── Text and URLs ──────────────────────────────────────────────────────────────────────────

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For both element text and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/**
 * JSON for a <script> element. Inside <script> the HTML parser knows nothing of JSON strings:
 * a literal `</script` ends the element and `<!--` changes how it ends, so `<` and `>` must not
 * appear at all. `&` is escaped too so the text means the same if ever put where entities are
 * decoded, and U+2028/U+2029 because older JavaScript parsers treat them as line ends. All are
 * \uXXXX escapes, which JSON.parse turns back into the same characters.
 */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * An absolute http(s) URL for `url`: site paths are joined to `appUrl`; absolute http(s) URLs are
 * kept. Anything else (javascript:, data:, protocol-relative `//host`, bare relative paths) is
 * null, since a shared-link preview or a search engine would otherwise follow it somewhere we
 * did not choose.
 */
export function absoluteUrl(url: string, appUrl: string): string | null {
  const trimmed = url.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.startsWith('/\\')) {
    return safeHttpUrl(appUrl + trimmed);
  }
  return /^https?:\/\//i.test(trimmed) ? safeHttpUrl(trimmed) : null;
}

function safeHttpUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Plain text of at most `max` characters, cut at a word boundary with an ellipsis when it is
 * longer, so the limit always holds.
 */
export function truncateText(text: string, max = DESCRIPTION_MAX_LENGTH): string {
  const clean = plainText(text);
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  // Never leave half of a surrogate pair (an emoji) before the ellipsis.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const lastSpace = cut.lastIndexOf(' ');
  // A boundary in the first half would throw away most of the text: cut the long word instead.
  if (lastSpace > max / 2 && clean[max - 1] !== ' ') cut = cut.slice(0, lastSpace);
  return `${cut.replace(/[\s,;:.\-–—]+$/, '')}…`;
}

// ── Tags ───────────────────────────────────────────────────────────────────────────────────

/** The HTML for the page's <head>: every value escaped, every URL absolute. */
export function headTags(head: PageHead, appUrl: string): string {
  const canonical = absoluteUrl(head.path, appUrl) ?? `${appUrl}/`;
  const pageImage = absoluteUrl(head.image.url, appUrl);
  const image = pageImage
    ? { ...head.image, url: pageImage }
    : { url: `${appUrl}${DEFAULT_OG_IMAGE.path}`, width: DEFAULT_OG_IMAGE.width, height: DEFAULT_OG_IMAGE.height, alt: DEFAULT_OG_IMAGE.alt };
  const meta = (attr: 'name' | 'property', key: string, content: string) => `<meta ${attr}="${key}" content="${escapeHtml(content)}">`;
  const dimension = (n: number | undefined) => (n !== undefined && Number.isInteger(n) && n > 0 ? String(n) : null);
  const width = dimension(image.width);
  const height = dimension(image.height);

  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    head.noindex ? meta('name', 'robots', 'noindex') : null,
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', head.ogType),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', canonical),
    meta('property', 'og:image', image.url),
    width && height ? meta('property', 'og:image:width', width) : null,
    width && height ? meta('property', 'og:image:height', height) : null,
    image.alt ? meta('property', 'og:image:alt', image.alt) : null,
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', image.url),
    image.alt ? meta('name', 'twitter:image:alt', image.alt) : null,
    ...head.jsonLd.map((data) => `<script type="application/ld+json">${serializeJsonForScript(data)}</script>`),
  ];
  return tags.filter((tag) => tag !== null).join('\n');
}

// ── Builders ───────────────────────────────────────────────────────────────────────────────

const SCHEMA = 'https://schema.org';

const defaultImage = (): PageHead['image'] => ({
  url: DEFAULT_OG_IMAGE.path,
  width: DEFAULT_OG_IMAGE.width,
  height: DEFAULT_OG_IMAGE.height,
  alt: DEFAULT_OG_IMAGE.alt,
});

/**
 * What a car's status means to a shopper. `pending` is Reserved: an escrow order holds a buyer's
 * money, and the car returns to sale if that order is cancelled. `ended` (auction closed unsold)
 * and `withdrawn` are OutOfStock rather than SoldOut, since nobody bought them. Drafts and
 * hidden cars never get a public page, but are not on offer either.
 */
export const CAR_AVAILABILITY: Record<CarStatus, string> = {
  active: `${SCHEMA}/InStock`,
  pending: `${SCHEMA}/Reserved`,
  sold: `${SCHEMA}/SoldOut`,
  ended: `${SCHEMA}/OutOfStock`,
  withdrawn: `${SCHEMA}/OutOfStock`,
  draft: `${SCHEMA}/OutOfStock`,
  hidden: `${SCHEMA}/OutOfStock`,
};

/** `questions`: the car's Seller Q&A; its answered questions become an FAQPage beside the Car. */
export function carPageHead(car: CarDetail, appUrl: string, questions: readonly CarQuestion[] = []): PageHead {
  const name = carName(car);
  const title = documentTitle(carPageName(car));
  const description = plainText(car.description)
    ? truncateText(car.description)
    : truncateText(`${name} for sale on ${SITE_NAME}: ${formatUsd(car.price)}, ${car.mileage.toLocaleString('en-US')} miles, ${car.location}. Buy through escrow.`);

  const firstPhoto = car.photos[0];
  const firstImage = car.images.find((url) => absoluteUrl(url, appUrl) !== null);
  // A photo's width and height are its gallery size's; JPEG because not every link preview reads WebP.
  const image: PageHead['image'] = firstPhoto
    ? { url: firstPhoto.gallery.jpeg, width: firstPhoto.width, height: firstPhoto.height, alt: name }
    : firstImage
      ? { url: firstImage, alt: name }
      : defaultImage();

  const pageUrl = `${appUrl}${carPath(car.id)}`;
  const photoUrls = car.photos.length > 0 ? car.photos.map((p) => p.gallery.jpeg) : car.images;
  const images = photoUrls.map((url) => absoluteUrl(url, appUrl)).filter((url) => url !== null);
  const bodyStyle = car.bodyStyle in BODY_STYLE_LABELS ? BODY_STYLE_LABELS[car.bodyStyle as CarBodyStyle] : car.bodyStyle;

  const jsonLd = {
    '@context': SCHEMA,
    '@type': 'Car',
    name,
    brand: { '@type': 'Brand', name: car.make },
    model: car.model,
    vehicleModelDate: String(car.year),
    mileageFromOdometer: { '@type': 'QuantitativeValue', value: car.mileage, unitCode: 'SMI' },
    ...(bodyStyle ? { bodyType: bodyStyle } : {}),
    // Every listing has been driven: "Like New" is a grade of used, not a new car.
    ...((CAR_CONDITIONS as readonly string[]).includes(car.condition) ? { itemCondition: `${SCHEMA}/UsedCondition` } : {}),
    ...(car.description.trim() ? { description: car.description.trim() } : {}),
    // The dossier: the VIN, and the flaws the seller declared (schema.org reads them as text).
    ...(car.dossier.vin ? { vehicleIdentificationNumber: car.dossier.vin } : {}),
    ...(car.dossier.knownFlaws.length > 0 ? { knownVehicleDamages: car.dossier.knownFlaws.map((flaw) => flaw.text).join('; ') } : {}),
    image: images.length > 0 ? images : [`${appUrl}${DEFAULT_OG_IMAGE.path}`],
    url: pageUrl,
    offers: {
      '@type': 'Offer',
      price: car.price,
      priceCurrency: 'USD',
      availability: CAR_AVAILABILITY[car.status] ?? `${SCHEMA}/OutOfStock`,
      url: pageUrl,
      // Sellers are mostly dealers, and nothing on a listing says which are private; Organization
      // is the looser claim.
      seller: { '@type': 'Organization', name: car.seller.name },
    },
  };

  const answered = questions.filter((q) => q.answers.length > 0 && q.question.status === 'visible');
  const faq =
    answered.length === 0
      ? []
      : [
          {
            '@context': SCHEMA,
            '@type': 'FAQPage',
            url: pageUrl,
            mainEntity: answered.map((q) => ({
              '@type': 'Question',
              name: q.question.message,
              dateCreated: q.question.timestamp,
              author: { '@type': 'Person', name: q.question.userName },
              answerCount: q.answers.length,
              acceptedAnswer: { '@type': 'Answer', text: q.answers.map((a) => a.message).join('\n\n'), dateCreated: q.answers[0]!.timestamp, author: { '@type': 'Organization', name: car.seller.name } },
            })),
          },
        ];

  return { title, description, path: carPath(car.id), image, ogType: 'product', jsonLd: [jsonLd, ...faq] };
}

const LISTING_TITLE = 'Premium & Luxury Cars for Sale';
const LISTING_DESCRIPTION =
  'Buy premium and luxury cars from verified sellers. Compare every price with its market value, bid live, and pay safely through escrow.';

/**
 * The listing's head. `filters` is a short human description of any search, filter or sort in
 * force (e.g. "Porsche, below market"); leave it out for the plain listing.
 *
 * Canonical: the plain listing's page 1 is `/`, and its later pages keep `?page=N`, since each
 * lists different cars and pointing them all at page 1 would hide the cars only they link to.
 * Any filtered, searched or sorted view points at `/`: those combinations are unbounded
 * near-copies of the listing, and giving each its own canonical would split the listing's
 * ranking and the crawl among them.
 */
export function listingPageHead(cars: CarListItem[], pagination: Pagination, appUrl: string, filters?: string): PageHead {
  const filterText = filters ? plainText(filters) : '';
  const page = Number.isInteger(pagination.page) && pagination.page > 1 ? pagination.page : 1;
  const title = documentTitle(listingPageName(page, filterText));
  const path = filterText || page === 1 ? PAGES.home : `${PAGES.home}?page=${page}`;
  const firstOnPage = (page - 1) * (pagination.limit > 0 ? pagination.limit : cars.length);

  const itemList = {
    '@context': SCHEMA,
    '@type': 'ItemList',
    name: filterText ? `${LISTING_TITLE}: ${filterText}` : LISTING_TITLE,
    url: `${appUrl}${path}`,
    numberOfItems: cars.length,
    itemListElement: cars.map((car, i) => ({
      '@type': 'ListItem',
      position: firstOnPage + i + 1,
      url: `${appUrl}${carPath(car.id)}`,
      name: carName(car),
    })),
  };

  return { title, description: LISTING_DESCRIPTION, path, image: defaultImage(), ogType: 'website', jsonLd: [itemList] };
}

/** A plain page of the site: a WebPage with a breadcrumb back home. */
function infoPage(path: string, name: string, text: string, appUrl: string): PageHead {
  const description = truncateText(text);
  const url = `${appUrl}${path}`;
  const webPage = {
    '@context': SCHEMA,
    '@type': 'WebPage',
    name,
    description,
    url,
    isPartOf: { '@type': 'WebSite', name: SITE_NAME, url: `${appUrl}/` },
    breadcrumb: {
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: SITE_NAME, item: `${appUrl}/` },
        { '@type': 'ListItem', position: 2, name, item: url },
      ],
    },
  };
  return { title: documentTitle(name), description, path, image: defaultImage(), ogType: 'website', jsonLd: [webPage] };
}

export function testimonialsPageHead(appUrl: string): PageHead {
  return infoPage(
    PAGES.testimonials,
    PAGE_TITLES.testimonials,
    'What buyers say about their premium and luxury cars bought on LuxeMotors: ratings, verified purchases and their experience with escrow.',
    appUrl,
  );
}

export function escrowPageHead(appUrl: string): PageHead {
  return infoPage(
    PAGES.escrow,
    PAGE_TITLES.escrow,
    'How LuxeMotors escrow protects both sides: secure payment, vehicle inspection, approval, then payment release. Compare the Basic, Premium and Platinum plans.',
    appUrl,
  );
}

export function resultsPageHead(appUrl: string, count?: number): PageHead {
  const sold = count !== undefined && Number.isInteger(count) && count > 0 ? `${count.toLocaleString('en-US')} premium and luxury cars` : 'Premium and luxury cars';
  return infoPage(
    PAGES.results,
    PAGE_TITLES.results,
    `${sold} sold on LuxeMotors: what each fetched, by auction, offer or buy now. Real prices to check before you buy or sell.`,
    appUrl,
  );
}

/**
 * The canonical is home: a missing page has no address of its own worth indexing. `name` is
 * what the app calls it (a car that is not there is "Car Not Found").
 */
export function notFoundPageHead(name: string = PAGE_TITLES.notFound): PageHead {
  return {
    title: documentTitle(name),
    description: 'The page you are looking for does not exist or has moved. Browse premium and luxury cars on LuxeMotors.',
    path: PAGES.home,
    image: defaultImage(),
    ogType: 'website',
    jsonLd: [],
    noindex: true,
  };
}

export function unavailablePageHead(): PageHead {
  return {
    title: documentTitle(PAGE_TITLES.unavailable),
    description: 'LuxeMotors is briefly unavailable. Please try again in a few moments.',
    path: PAGES.home,
    image: defaultImage(),
    ogType: 'website',
    jsonLd: [],
    noindex: true,
  };
}
