import { LISTING_LIMITS } from '@common/listing.ts';
import { PAGES } from '@common/paths.ts';
import { parseId } from '@common/ids.ts';
import type { ResultsQuery } from '../api/market-api.ts';

/**
 * The results page's query in its URL: `/results?make=Porsche&model=911&page=2` (empty values
 * omitted), or one car's sale, `/results?carId=42`, which stands alone.
 */

const text = (value: string | null, max: number) => {
  const trimmed = (value ?? '').trim();
  return trimmed.length <= max ? trimmed : '';
};

export function parseResultsQuery(params: URLSearchParams): ResultsQuery {
  const page = Number(params.get('page'));
  return {
    make: text(params.get('make'), LISTING_LIMITS.make),
    model: text(params.get('model'), LISTING_LIMITS.model),
    page: Number.isSafeInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
    carId: parseId(params.get('carId')),
  };
}

export function resultsParams(query: ResultsQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.carId) {
    params.set('carId', String(query.carId));
    return params;
  }
  if (query.make.trim()) params.set('make', query.make.trim());
  if (query.model.trim()) params.set('model', query.model.trim());
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

/** `/results?carId=42`: one car's sale (where a sold car's page and the sales a market value used link). */
export const soldResultPath = (carId: number): string => `${PAGES.results}?${resultsParams({ make: '', model: '', page: 1, carId }).toString()}`;

/** `/results?make=Porsche&model=911`: every sale of a model. */
export const modelResultsPath = (make: string, model: string): string => `${PAGES.results}?${resultsParams({ make, model, page: 1 }).toString()}`;
