import { LISTING_LIMITS } from '@common/listing.ts';
import type { ResultsQuery } from '../api/market-api.ts';

/** The results page's query in its URL (`/results?make=Porsche&model=911&page=2`, empty values omitted). */

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
  };
}

export function resultsParams(query: ResultsQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.make.trim()) params.set('make', query.make.trim());
  if (query.model.trim()) params.set('model', query.model.trim());
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}
