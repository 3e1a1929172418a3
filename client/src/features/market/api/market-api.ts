import { api } from '../../../lib/api-client.ts';
import { apiPath } from '../../../lib/page-data.tsx';
import type { SavedSearchAlerts } from '@common/market-data.ts';
import type {
  NewSavedSearch,
  PriceHistory,
  ResultsPage,
  SavedSearch,
  SavedSearchDeleted,
  SavedSearches,
  Unsubscribed,
} from '@common/schemas/discovery.ts';

/** Saved searches, their unsubscribe link, price history and sold results (contract §"Discovery and market data"). */

export type { NewSavedSearch } from '@common/schemas/discovery.ts';

export const createSavedSearch = (body: NewSavedSearch) => api.post<SavedSearch>('/api/saved-searches', body);

export const getSavedSearches = async (signal?: AbortSignal) =>
  (await api.get<SavedSearches>('/api/saved-searches', { signal })).searches;

export const setSearchAlerts = (id: number, alerts: SavedSearchAlerts) => api.patch<SavedSearch>(`/api/saved-searches/${id}`, { alerts });

export const deleteSavedSearch = (id: number) => api.delete<SavedSearchDeleted>(`/api/saved-searches/${id}`);

export const unsubscribeAlerts = (token: string) => api.post<Unsubscribed>('/api/saved-searches/unsubscribe', { token });

/** `GET /api/cars/:id/price-history`, also the key of a server-rendered car page's answer. */
export const priceHistoryPath = (carId: number) => `/api/cars/${carId}/price-history`;

export const getPriceHistory = (carId: number, signal?: AbortSignal) => api.get<PriceHistory>(priceHistoryPath(carId), { signal });

export interface ResultsQuery {
  make: string;
  model: string;
  page: number;
  /** One car's sale (`/results?carId=42`, where a sold car's page links); the filters then do not apply. */
  carId?: number | null;
}

export const RESULTS_PAGE_SIZE = 20;

/** A car's sale, as `GET /api/results` is asked for it (one answer at most). */
const saleOfQuery = (carId: number) => ({ carId, limit: 1 });

const resultsApiQuery = (query: ResultsQuery) =>
  query.carId
    ? saleOfQuery(query.carId)
    : {
        make: query.make || undefined,
        model: query.model || undefined,
        page: query.page,
        limit: RESULTS_PAGE_SIZE,
      };

/** The request `getResults` makes, as a server-rendered page keys its answer. */
export const resultsPagePath = (query: ResultsQuery) => apiPath('/api/results', resultsApiQuery(query));

export const getResults = (query: ResultsQuery, signal?: AbortSignal) =>
  api.get<ResultsPage>('/api/results', { query: resultsApiQuery(query), signal });

/** A car's sale, if it sold here (its result on `/results`). */
export const saleOfPath = (carId: number) => apiPath('/api/results', saleOfQuery(carId));

export const getSaleOf = (carId: number, signal?: AbortSignal) =>
  api.get<ResultsPage>('/api/results', { query: saleOfQuery(carId), signal });
