import type { CarDetail } from '@common/schemas/cars.ts';
import type { MakeOffer, OfferMoveBodies } from '@common/schemas/commerce.ts';
import type { Offer, Offers } from '@common/schemas/offers.ts';
import type { Order } from '@common/schemas/orders.ts';
import { askingPriceForOffers, isOfferStatus, type OfferPartyMove } from '@common/offer-lifecycle.ts';
import { api } from '../../../lib/api-client.ts';

export type { Offer, OfferHistoryEntry } from '@common/schemas/offers.ts';
export type { OfferMoveBodies } from '@common/schemas/commerce.ts';

const writeHeaders = (idempotencyKey: string) => ({ headers: { 'Idempotency-Key': idempotencyKey } });

/** The signed-in user's offers, as buyer and as seller, newest first. */
export const getOffers = (signal?: AbortSignal) => api.get<Offers>('/api/offers', { signal }).then((d) => d.offers);

/** One offer; 404 for anyone but its two parties. */
export const getOffer = (offerId: number, signal?: AbortSignal) => api.get<Offer>(`/api/offers/${offerId}`, { signal });

/**
 * What a seller's counter on this offer stays below (`askingPriceForOffers`), read with the car as
 * its seller sees it (an auction's reserve is shown to the seller only, and the offer does not
 * carry it).
 */
export const getAskingPrice = (offer: Pick<Offer, 'carId' | 'secondChance' | 'history'>, signal?: AbortSignal) =>
  api
    .get<CarDetail>(`/api/cars/${offer.carId}`, { signal })
    .then((car) => askingPriceForOffers({ price: car.price, auctionReservePrice: car.auction?.reservePrice ?? null }, offer));

/** A buyer's opening offer on a car. */
export const makeOffer = (carId: number, body: MakeOffer, idempotencyKey: string) =>
  api.post<Offer>(`/api/cars/${carId}/offers`, body, writeHeaders(idempotencyKey));

/** What each move answers: accepting opens the escrow order, the others return the offer. */
export type OfferMoveResult<M extends OfferPartyMove> = M extends 'accept' ? Order : Offer;

export const postOfferMove = <M extends OfferPartyMove>(offerId: number, move: M, body: OfferMoveBodies[M], idempotencyKey: string) =>
  api.post<OfferMoveResult<M>>(`/api/offers/${offerId}/${move}`, body, writeHeaders(idempotencyKey));

/** The seller offers an auction's car to its runner-up (after the winner's order was cancelled). */
export const sendSecondChance = (carId: number, idempotencyKey: string) =>
  api.post<Offer>(`/api/cars/${carId}/second-chance`, {}, writeHeaders(idempotencyKey));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isNumber = (v: unknown) => typeof v === 'number';

/** What a pushed offer must have for the screens to show it. */
const OFFER_FIELDS: Record<string, (v: unknown) => boolean> = {
  id: isNumber,
  carId: isNumber,
  amount: isNumber,
  status: (v) => typeof v === 'string' && isOfferStatus(v),
  by: (v) => v === 'buyer' || v === 'seller',
  updatedAt: (v) => typeof v === 'string',
  history: Array.isArray,
  buyer: isObject,
  car: isObject,
};

/** The offer of an `offer:updated` push (`{offer}`), or null when the payload is not one. */
export function toPushedOffer(raw: unknown): Offer | null {
  if (!isObject(raw) || !isObject(raw.offer)) return null;
  const offer = raw.offer;
  return Object.entries(OFFER_FIELDS).every(([field, ok]) => ok(offer[field])) ? (offer as unknown as Offer) : null;
}
