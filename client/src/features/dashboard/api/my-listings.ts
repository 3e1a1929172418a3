import type { Bid, CarDetail, CarListItem, OrderWithEvents } from '@common/api-types.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/users/me/listings`: the seller's cars in every status, newest first. */
export type MyListing = CarListItem & {
  status: CarStatus;
  highestBid: number | null;
  /** The order holding the buyer's payment, else the newest unpaid one. */
  openOrderId: number | null;
  /** People watching the car. */
  watchers: number;
  /** The auction's runner-up the seller may offer the car to now (the winner's order was cancelled), else null. */
  secondChance?: { buyerName: string; amount: number } | null;
};

export type { Bid, OrderWithEvents } from '@common/api-types.ts';

export const getMyListings = (signal?: AbortSignal) =>
  api.get<{ listings: MyListing[] }>('/api/users/me/listings', { signal }).then((d) => d.listings);

/** Newest first; accepted bids only ever rise, so the first is the highest. */
export const getCarBids = (carId: number, signal?: AbortSignal) =>
  api.get<{ bids: Bid[] }>(`/api/bids/car/${carId}`, { signal }).then((d) => d.bids);

/** Creates the escrow order for the highest bidder. One key per confirmation: a retry cannot order twice. */
export const acceptBid = (carId: number, bidId: number, idempotencyKey: string) =>
  api.post<OrderWithEvents>(`/api/cars/${carId}/accept-bid`, { bidId }, { headers: { 'Idempotency-Key': idempotencyKey } });

/** The car as its seller sees it: for an auction, its outcome and until when a bid may still be accepted. */
export const getListingDetail = (carId: number, signal?: AbortSignal) => api.get<CarDetail>(`/api/cars/${carId}`, { signal });
