import type { CarBids } from '@common/schemas/bids.ts';
import type { CarDetail, OwnListing, OwnListings } from '@common/schemas/cars.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/users/me/listings`: the seller's cars in every status, newest first. */
export type MyListing = OwnListing;

export type { RecordedBid } from '@common/schemas/bids.ts';
export type { OrderWithEvents } from '@common/schemas/orders.ts';

export const getMyListings = (signal?: AbortSignal) =>
  api.get<OwnListings>('/api/users/me/listings', { signal }).then((d) => d.listings);

/** Newest first; accepted bids only ever rise, so the first is the highest. */
export const getCarBids = (carId: number, signal?: AbortSignal) =>
  api.get<CarBids>(`/api/bids/car/${carId}`, { signal }).then((d) => d.bids);

/** Creates the escrow order for the highest bidder. One key per confirmation: a retry cannot order twice. */
export const acceptBid = (carId: number, bidId: number, idempotencyKey: string) =>
  api.post<OrderWithEvents>(`/api/cars/${carId}/accept-bid`, { bidId }, { headers: { 'Idempotency-Key': idempotencyKey } });

/** The car as its seller sees it: for an auction, its outcome and until when a bid may still be accepted. */
export const getListingDetail = (carId: number, signal?: AbortSignal) => api.get<CarDetail>(`/api/cars/${carId}`, { signal });
