import { api } from '../../../lib/api-client.ts';
import { toApiQuery, type ListingQuery } from '../lib/listing-query.ts';

/** One car in `GET /api/cars` (snake_case, contract §Cars). */
export interface CarListItem {
  id: number;
  year: number;
  make: string;
  model: string;
  price: number;
  market_value: number;
  condition: string;
  location: string;
  primary_image: string | null;
  seller_name: string;
  seller_verified: boolean;
  mileage: number;
  current_bids: number;
  viewing_count: number;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface CarsPage {
  cars: CarListItem[];
  pagination: Pagination;
}

export function getCars(query: ListingQuery, signal?: AbortSignal): Promise<CarsPage> {
  return api.get<CarsPage>('/api/cars', { query: toApiQuery(query), signal });
}
