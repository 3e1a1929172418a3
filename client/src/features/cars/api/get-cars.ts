import { api } from '../../../lib/api-client.ts';
import { toApiQuery, type ListingQuery } from '../lib/listing-query.ts';
import type { CarListItem, Pagination } from '@common/api-types.ts';

export type { CarListItem, Pagination } from '@common/api-types.ts';

export interface CarsPage {
  cars: CarListItem[];
  pagination: Pagination;
}

export function getCars(query: ListingQuery, signal?: AbortSignal): Promise<CarsPage> {
  return api.get<CarsPage>('/api/cars', { query: toApiQuery(query), signal });
}
