import { carDetailPath, questionsPath, valuationPath } from '../features/car-room/index.ts';
import { listingPagePath } from '../features/cars/index.ts';
import { priceHistoryPath, resultsPageRequest, saleOfPath } from '../features/market/index.ts';
import { TESTIMONIALS_PATH } from '../features/testimonials/index.ts';
import { parseId } from '@common/ids.ts';
import { matchPage, type PageName } from '@common/paths.ts';

/** The pages the server renders for people, search engines and link previews (contract v3). */
export type ServerPage = Extract<PageName, 'home' | 'car' | 'testimonials' | 'escrow' | 'results'> | 'not-found';

export interface ServerPagePlan {
  page: ServerPage;
  /** Signed-out GET requests the first screen is drawn from, answered before rendering. */
  needs: string[];
  /** The request whose 400 or 404 makes the page a 404 (the car of a car page). */
  primary: string | null;
  /** Known to be a 404 before asking anything (a malformed car id, a path no route takes). */
  notFound: boolean;
}

/**
 * What the server renders for `url`: the page and the requests its first screen reads, as the
 * screens themselves would make them (the same functions build both). Null for the pages drawn
 * only in the browser: those for a signed-in user, the sign-in screens, forms.
 */
export function planServerPage(url: URL): ServerPagePlan | null {
  const match = matchPage(url.pathname);
  if (!match) return { page: 'not-found', needs: [], primary: null, notFound: true };
  switch (match.page) {
    case 'home': {
      const listing = listingPagePath(url.searchParams);
      return { page: 'home', needs: [listing], primary: null, notFound: false };
    }
    case 'car': {
      const carId = parseId(match.params[0]);
      if (carId === null) return { page: 'car', needs: [], primary: null, notFound: true };
      const car = carDetailPath(carId);
      // The price chart, the market value's sales, a sold car's result and the Seller Q&A are on its first screen.
      return { page: 'car', needs: [car, priceHistoryPath(carId), valuationPath(carId), saleOfPath(carId), questionsPath(carId)], primary: car, notFound: false };
    }
    case 'testimonials':
      return { page: 'testimonials', needs: [TESTIMONIALS_PATH], primary: null, notFound: false };
    case 'escrow':
      return { page: 'escrow', needs: [], primary: null, notFound: false };
    case 'results':
      return { page: 'results', needs: [resultsPageRequest(url.searchParams)], primary: null, notFound: false };
    default:
      return null;
  }
}
