/**
 * What other features use of market data: the dashboard's saved searches tab, the car page's
 * price history and links to sold results, and for the listing screen the criteria in its URL
 * and in words, the alert settings and saving a search.
 */
export { SavedSearchesPanel } from './components/saved-searches-panel.tsx';
export { PriceHistory, SoldResultNote } from './components/price-history.tsx';
export { createSavedSearch } from './api/market-api.ts';
export { ALERT_CHOICES } from './lib/alerts.ts';
export {
  FILTER_KEYS,
  filtersFromParams,
  hasFilters,
  pickFilters,
  suggestedSearchName,
  writeFilterParams,
  type FilterCriteria,
  type FilterKey,
} from './lib/criteria.ts';

import { priceHistoryPath, resultsPagePath, saleOfPath } from './api/market-api.ts';
import { parseResultsQuery } from './lib/results-query.ts';

export { modelResultsPath, soldResultPath } from './lib/results-query.ts';

export { priceHistoryPath, saleOfPath };
/** The request the sold results' first screen is drawn from, for the page's search parameters. */
export const resultsPageRequest = (params: URLSearchParams): string => resultsPagePath(parseResultsQuery(params));
