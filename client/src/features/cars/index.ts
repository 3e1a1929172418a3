/**
 * What other features use of the cars feature: the look of a car card, whose parts the sell
 * preview and the car page's gallery draw too.
 */
import './components/car-card.css';

import { carsPagePath } from './api/get-cars.ts';
import { parseListingQuery } from './lib/listing-query.ts';

/** The request the listing's first screen is drawn from, for the page's search parameters. */
export const listingPagePath = (params: URLSearchParams): string => carsPagePath(parseListingQuery(params));
