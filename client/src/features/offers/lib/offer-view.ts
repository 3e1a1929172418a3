import type { Offer } from '@common/schemas/offers.ts';
import {
  counterRange,
  offerMovesFor,
  type OfferActor,
  type OfferHistoryAction,
  type OfferParty,
  type OfferPartyMove,
  type OfferRange,
  type OfferStatus,
} from '@common/offer-lifecycle.ts';
import { formatUsd } from '@common/pricing.ts';

/**
 * How the offer screens read an offer: which side the viewer is on, whose turn it is, what each
 * status and history line says, and the room left to counter. The rules themselves (moves,
 * ranges) are common/offer-lifecycle.ts's; this only words them for one viewer.
 */

export type OfferView = Pick<Offer, 'buyer' | 'by' | 'status' | 'amount' | 'history' | 'car' | 'sellerName'>;

/** The viewer's side of the offer: the buyer by id, else the seller (the server shows an offer only to its parties). */
export function offerParty(offer: Pick<Offer, 'buyer'>, userId: number): OfferParty {
  return offer.buyer.id === userId ? 'buyer' : 'seller';
}

export function carTitle(car: Pick<Offer['car'], 'year' | 'make' | 'model'>): string {
  return `${car.year} ${car.make} ${car.model}`;
}

const STATUS_LABELS: Record<OfferStatus, string> = {
  open: 'Open',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
};

/** Badge tones of global.css (`status-badge--<tone>`), as orders use them. */
const STATUS_TONES: Record<OfferStatus, 'pending' | 'done' | 'closed' | 'problem'> = {
  open: 'pending',
  accepted: 'done',
  declined: 'problem',
  withdrawn: 'closed',
  expired: 'closed',
};

export const offerStatusLabel = (status: OfferStatus) => STATUS_LABELS[status];
export const offerStatusTone = (status: OfferStatus) => STATUS_TONES[status];

/** "You" for the viewer, else the other party's name; the server is "LuxeMotors". */
export function actorName(offer: Pick<Offer, 'buyer' | 'sellerName'>, actor: OfferActor, viewer: OfferParty): string {
  if (actor === 'system') return 'LuxeMotors';
  if (actor === viewer) return 'You';
  return actor === 'buyer' ? offer.buyer.name : offer.sellerName;
}

const ACTION_WORDS: Record<OfferHistoryAction, string> = {
  offer: 'offered',
  counter: 'countered with',
  accept: 'accepted',
  decline: 'declined',
  withdraw: 'withdrew',
  expire: 'expired',
};

/** One history line in words: "You offered $90,000", "Dana countered with $95,000", "The offer expired". */
export function historyLine(offer: Pick<Offer, 'buyer' | 'sellerName'>, entry: Offer['history'][number], viewer: OfferParty): string {
  const amount = formatUsd(entry.amount);
  if (entry.action === 'expire') return `The offer at ${amount} expired`;
  const who = actorName(offer, entry.by, viewer);
  if (entry.action === 'offer' || entry.action === 'counter') return `${who} ${ACTION_WORDS[entry.action]} ${amount}`;
  if (entry.by === 'system' && entry.action === 'decline') return `The offer at ${amount} was declined: the car was sold or left the market`;
  return `${who} ${ACTION_WORDS[entry.action]} the offer at ${amount}`;
}

/** Whose move it is, for the viewer: a sentence (open) or what ended it (closed). */
export function turnText(offer: OfferView, viewer: OfferParty): string {
  switch (offer.status) {
    case 'open':
      return offer.by === viewer
        ? `Waiting for ${viewer === 'buyer' ? offer.sellerName : offer.buyer.name} to answer your ${formatUsd(offer.amount)}.`
        : `Your turn: accept ${formatUsd(offer.amount)}, counter or decline.`;
    case 'accepted':
      return `Accepted at ${formatUsd(offer.amount)}: the escrow order is open.`;
    case 'declined':
      return 'This offer was declined.';
    case 'withdrawn':
      return 'This offer was withdrawn.';
    case 'expired':
      return 'This offer expired without an answer.';
  }
}

/** Short form for a list: "Your turn" / "Their turn" / the status. */
export function turnLabel(offer: Pick<Offer, 'status' | 'by'>, viewer: OfferParty): string {
  if (offer.status !== 'open') return STATUS_LABELS[offer.status];
  return offer.by === viewer ? 'Their turn' : 'Your turn';
}

/** The buyer's latest amount in the thread (an opening offer or a counter), or null (a second-chance offer before any). */
export function buyerLast(history: Offer['history']): number | null {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const entry = history[i]!;
    if (entry.by === 'buyer' && (entry.action === 'offer' || entry.action === 'counter')) return entry.amount;
  }
  return null;
}

/**
 * The amounts the viewer may counter with now. `askingPrice` is what the seller's counter stays
 * below (`askingPriceForOffers`: e.g. an auction's reserve, which the offer itself does not carry);
 * null while it is not known yet, when only escrow's ceiling bounds the seller (the server still
 * refuses a counter above the asking price). The buyer's range does not depend on it.
 */
export function counterRangeFor(offer: OfferView, viewer: OfferParty, askingPrice: number | null): OfferRange {
  return counterRange(viewer, { buyerLast: buyerLast(offer.history), onTable: offer.amount, askingPrice: askingPrice ?? Number.MAX_SAFE_INTEGER });
}

/** The moves to offer the viewer: those the lifecycle allows, without a counter when no amount is left between the sides. */
export function movesToShow(offer: OfferView, viewer: OfferParty, askingPrice: number | null): OfferPartyMove[] {
  const moves = offerMovesFor(offer, viewer);
  const range = counterRangeFor(offer, viewer, askingPrice);
  return range.min > range.max ? moves.filter((m) => m !== 'counter') : moves;
}

/** The sentence a confirmation dialog states: what the move does. */
export function moveConsequence(move: Exclude<OfferPartyMove, 'counter'>, offer: OfferView, viewer: OfferParty): string {
  const amount = formatUsd(offer.amount);
  switch (move) {
    case 'accept':
      return `Accepting opens an escrow order at ${amount} that the buyer pays within 3 days; the offer cannot be changed afterwards.`;
    case 'decline':
      return `Declining ends this negotiation at ${amount}; ${viewer === 'buyer' ? 'you can make a new offer later' : 'the buyer can make a new offer later'}.`;
    case 'withdraw':
      return `Withdrawing takes your ${amount} off the table and ends this negotiation.`;
  }
}

/** Checks a counter amount against the range; null when it fits. */
export function counterProblem(amount: number, range: OfferRange): string | null {
  if (amount < range.min) return `Counter with at least ${formatUsd(range.min)}.`;
  if (amount > range.max) return `Counter with at most ${formatUsd(range.max)}.`;
  return null;
}

/** The open offer this user made as buyer on a car, if any (the car page links to it instead of a new one). */
export function openOfferAsBuyer<T extends Pick<Offer, 'carId' | 'buyer' | 'status'>>(offers: readonly T[], carId: number, userId: number): T | null {
  return offers.find((o) => o.carId === carId && o.buyer.id === userId && o.status === 'open') ?? null;
}

/** Open offers on a car the user sells (the user is not their buyer). */
export function openOffersAsSeller(offers: readonly Pick<Offer, 'carId' | 'buyer' | 'status'>[], carId: number, userId: number): number {
  return offers.filter((o) => o.carId === carId && o.buyer.id !== userId && o.status === 'open').length;
}

/** The newer of two copies of an offer: later `updatedAt`, then the longer history. */
export function newerOffer<T extends Pick<Offer, 'id' | 'updatedAt' | 'history'>>(current: T | undefined, incoming: T): T {
  if (!current || current.id !== incoming.id) return incoming;
  const time = (Date.parse(incoming.updatedAt) || 0) - (Date.parse(current.updatedAt) || 0);
  if (time < 0 || (time === 0 && incoming.history.length < current.history.length)) return current;
  return JSON.stringify(incoming) === JSON.stringify(current) ? current : incoming;
}

/** What was typed in an amount field as a number ("$95,000" → 95000); NaN when it is not digits, for the schema to refuse. */
export function amountFromInput(text: string): number {
  const digits = text.replace(/[\s$,]/g, '');
  return /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
}
