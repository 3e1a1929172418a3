import { formatUsd } from './pricing.ts';

/**
 * Each page's title, one for the page drawn on the server and for the app that takes it over, so
 * a tab's title does not change once the app runs. Pages are named as the spec and the
 * navigation bar name them.
 */

export const SITE_NAME = 'LuxeMotors';

export const PAGE_TITLES = {
  home: 'Cars',
  testimonials: 'Testimonials',
  escrow: 'Escrow Service',
  results: 'Sold Results',
  notFound: 'Page Not Found',
  carNotFound: 'Car Not Found',
  unavailable: 'Temporarily Unavailable',
} as const;

/** What the tab shows: "Cars" → "Cars — LuxeMotors"; no name gives the site's name alone. */
export function documentTitle(name: string): string {
  const trimmed = name.trim();
  return trimmed ? `${trimmed} — ${SITE_NAME}` : SITE_NAME;
}

/** Whitespace and control characters, which a seller may type, collapsed to single spaces. */
export function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** "2021 Porsche 911 Turbo S". */
export const carName = (car: { year: number; make: string; model: string }) => plainText(`${car.year} ${car.make} ${car.model}`);

/** What a car's page is called: its name and price, or the current bid while its auction takes bids. */
export function carPageName(car: {
  year: number;
  make: string;
  model: string;
  price: number;
  status: string;
  highestBid: number | null;
  auction: { ended: boolean } | null;
}): string {
  const liveBid = car.auction && !car.auction.ended && car.status === 'active' && car.highestBid !== null ? car.highestBid : null;
  return `${carName(car)} — ${liveBid !== null ? `current bid ${formatUsd(liveBid)}` : formatUsd(car.price)}`;
}

/** The listing: "Cars", a later page "Cars — Page 3", with any search or filter named first. */
export function listingPageName(page: number, filters = ''): string {
  const filterText = plainText(filters);
  const pageSuffix = Number.isInteger(page) && page > 1 ? ` — Page ${page}` : '';
  return `${filterText ? `${filterText} — ` : ''}${PAGE_TITLES.home}${pageSuffix}`;
}
