import { api } from '../../../lib/api-client.ts';
import { apiPath } from '../../../lib/page-data.tsx';
import { toApiQuery, type ListingQuery } from '../lib/listing-query.ts';
import type { CarDetail, CarsPage } from '@common/schemas/cars.ts';

export type { CarListItem, CarsPage, Pagination } from '@common/schemas/cars.ts';

/** The request `getCars` makes, as a server-rendered page keys its answer. */
export const carsPagePath = (query: ListingQuery) => apiPath('/api/cars', toApiQuery(query));

export function getCars(query: ListingQuery, signal?: AbortSignal): Promise<CarsPage> {
  return api.get<CarsPage>('/api/cars', { query: toApiQuery(query), signal });
}

/** What a listing card needs from a car's detail that its listing row lacks (`serverTime`: the server's clock when it answered). */
export type CarAuctionRead = Pick<CarDetail, 'highestBid' | 'auction' | 'serverTime'>;

/** `GET /api/cars/:id`, keeping only the current bid, the auction and the server's time. */
export async function getCarAuction(carId: number, signal?: AbortSignal): Promise<CarAuctionRead> {
  const detail = await api.get<CarDetail>(`/api/cars/${carId}`, { signal });
  return { highestBid: detail.highestBid, auction: detail.auction, serverTime: detail.serverTime };
}
