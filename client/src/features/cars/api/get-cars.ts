import { api } from '../../../lib/api-client.ts';
import { apiPath } from '../../../lib/page-data.tsx';
import { toApiQuery, type ListingQuery } from '../lib/listing-query.ts';
import type { AuctionSummary, CarDetail, CarListItem, Pagination } from '@common/api-types.ts';

export type { CarListItem, Pagination } from '@common/api-types.ts';

export interface CarsPage {
  cars: CarListItem[];
  pagination: Pagination;
}

/** The request `getCars` makes, as a server-rendered page keys its answer. */
export const carsPagePath = (query: ListingQuery) => apiPath('/api/cars', toApiQuery(query));

export function getCars(query: ListingQuery, signal?: AbortSignal): Promise<CarsPage> {
  return api.get<CarsPage>('/api/cars', { query: toApiQuery(query), signal });
}

/** What a listing card needs from a car's detail that its listing row lacks. */
export interface CarAuctionRead {
  highestBid: number | null;
  auction: AuctionSummary | null;
  /** The server's clock when it answered. */
  serverTime: string;
}

/** `GET /api/cars/:id`, keeping only the current bid, the auction and the server's time. */
export async function getCarAuction(carId: number, signal?: AbortSignal): Promise<CarAuctionRead> {
  const detail = await api.get<CarDetail>(`/api/cars/${carId}`, { signal });
  return { highestBid: detail.highestBid, auction: detail.auction, serverTime: detail.serverTime };
}
