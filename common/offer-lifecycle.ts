import { ESCROW_PLANS } from './escrow-plans.ts';

/**
 * Private offers (contract §"Offers and second chance") as one table: every status an offer can
 * have, every move, and who may make it. The server applies moves only through this table (the
 * parties' requests and the expiry job alike), the database refuses any other status change, and
 * the web app reads it to show whose turn it is and which buttons to offer.
 */

export const OFFER_STATUSES = ['open', 'accepted', 'declined', 'withdrawn', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** The two sides of an offer; `by` on an offer says which of them put the amount on the table. */
export const OFFER_PARTIES = ['buyer', 'seller'] as const;
export type OfferParty = (typeof OFFER_PARTIES)[number];

/** Who made a history entry: a party, or the server (expiry, the car sold to someone else). */
export const OFFER_ACTORS = [...OFFER_PARTIES, 'system'] as const;
export type OfferActor = (typeof OFFER_ACTORS)[number];

/** What a history entry records: the opening offer and every move after it. */
export const OFFER_HISTORY_ACTIONS = ['offer', 'counter', 'accept', 'decline', 'withdraw', 'expire'] as const;
export type OfferHistoryAction = (typeof OFFER_HISTORY_ACTIONS)[number];

/** The moves the parties request through the API (`POST /api/offers/:id/<move>`). */
export const OFFER_PARTY_MOVES = ['counter', 'accept', 'decline', 'withdraw'] as const;
export type OfferPartyMove = (typeof OFFER_PARTY_MOVES)[number];
export type OfferMove = OfferPartyMove | 'expire';

/**
 * Whose move it is, relative to the amount on the table: the party who put it there (`maker`),
 * the other party (`responder`), or the server.
 */
export type OfferMover = 'maker' | 'responder' | 'system';

export interface OfferTransition {
  move: OfferMove;
  from: OfferStatus;
  to: OfferStatus;
  by: readonly OfferMover[];
}

export const OFFER_TRANSITIONS: readonly OfferTransition[] = [
  // A counter replaces the amount on the table; the offer stays open and the turn passes.
  { move: 'counter', from: 'open', to: 'open', by: ['responder'] },
  { move: 'accept', from: 'open', to: 'accepted', by: ['responder'] },
  // The server declines open offers when an order for the car is funded or the car leaves the market.
  { move: 'decline', from: 'open', to: 'declined', by: ['responder', 'system'] },
  { move: 'withdraw', from: 'open', to: 'withdrawn', by: ['maker'] },
  { move: 'expire', from: 'open', to: 'expired', by: ['system'] },
];

/** Statuses no move leaves. */
export const FINAL_OFFER_STATUSES: readonly OfferStatus[] = OFFER_STATUSES.filter((status) => !OFFER_TRANSITIONS.some((t) => t.from === status));

export function offerTransitionFor(move: OfferMove, from: OfferStatus): OfferTransition | undefined {
  return OFFER_TRANSITIONS.find((t) => t.move === move && t.from === from);
}

/** Whether `party` put the amount on the table (`by`) or is to answer it. */
export function moverFor(party: OfferParty, by: OfferParty): Exclude<OfferMover, 'system'> {
  return party === by ? 'maker' : 'responder';
}

/** The moves `party` may make on an offer now (none once it is closed). */
export function offerMovesFor(offer: { status: OfferStatus; by: OfferParty }, party: OfferParty): OfferPartyMove[] {
  const mover = moverFor(party, offer.by);
  return OFFER_PARTY_MOVES.filter((move) => offerTransitionFor(move, offer.status)?.by.includes(mover));
}

/** Escrow days an open offer lives after its last move; a second-chance offer lives one. */
export const OFFER_EXPIRY_DAYS = 2;
export const SECOND_CHANCE_EXPIRY_DAYS = 1;

/** The longest note a buyer may send with an offer. */
export const OFFER_MESSAGE_MAX = 500;

/** The amounts an offer or counter may name: whole dollars from `min` to `max`, both included. */
export interface OfferRange {
  min: number;
  max: number;
}

/** The highest amount an offer may reach: what escrow covers. */
export const OFFER_AMOUNT_CEILING = ESCROW_PLANS.platinum.maxValue;

/**
 * The price a seller's counter stays below: the asking price of a fixed-price listing, or the
 * reserve of an auction that ended below it (its price, without a reserve). On a second-chance
 * offer it is the seller's own opening amount (the runner-up's highest bid, the offer's first
 * history entry): the sold auction's reserve or starting price may lie below it, and a seller
 * who opened at $55,000 may still come down toward the runner-up's counter.
 */
export function askingPriceForOffers(
  car: { price: number; auctionReservePrice: number | null },
  offer: { secondChance: boolean; history: readonly { amount: number }[] },
): number {
  const opening = offer.history[0];
  if (offer.secondChance && opening) return opening.amount;
  return car.auctionReservePrice ?? car.price;
}

/**
 * A buyer's opening offer: below the asking price on a fixed-price listing; any amount escrow
 * covers on an auction that ended with its reserve not met.
 */
export function openingOfferRange(car: { price: number; isAuction: boolean }): OfferRange {
  return { min: 1, max: car.isAuction ? OFFER_AMOUNT_CEILING : Math.min(car.price - 1, OFFER_AMOUNT_CEILING) };
}

/**
 * A counter moves toward the other side, strictly between the two positions: the seller's lies
 * between the buyer's last amount and the asking price, the buyer's between their own last amount
 * (nothing yet, on a second-chance offer) and the seller's counter on the table. An empty range
 * (`min > max`) means there is no room left to counter: accept or decline.
 */
export function counterRange(party: OfferParty, position: { buyerLast: number | null; onTable: number; askingPrice: number }): OfferRange {
  const buyerFloor = (position.buyerLast ?? 0) + 1;
  return party === 'seller' ? { min: buyerFloor, max: Math.min(position.askingPrice - 1, OFFER_AMOUNT_CEILING) } : { min: buyerFloor, max: position.onTable - 1 };
}

export function isOfferStatus(value: string): value is OfferStatus {
  return (OFFER_STATUSES as readonly string[]).includes(value);
}
