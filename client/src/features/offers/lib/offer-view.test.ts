import { describe, expect, it } from 'vitest';
import type { Offer } from '@common/schemas/offers.ts';
import { askingPriceForOffers } from '@common/offer-lifecycle.ts';
import {
  amountFromInput,
  buyerLast,
  counterProblem,
  counterRangeFor,
  historyLine,
  movesToShow,
  newerOffer,
  offerParty,
  openOfferAsBuyer,
  openOffersAsSeller,
  turnLabel,
  turnText,
} from './offer-view.ts';

const at = '2026-11-26T10:00:00.000Z';

/** The buyer's opening 90,000 answered by the seller's counter of `amount`. */
function counteredBySeller(amount: number): Offer {
  return offer({ amount, by: 'seller', history: [
    { by: 'buyer', action: 'offer', amount: 90_000, at },
    { by: 'seller', action: 'counter', amount, at },
  ] });
}

function offer(change: Partial<Offer> = {}): Offer {
  return {
    id: 7,
    carId: 3,
    buyer: { id: 20, name: 'Bea' },
    sellerId: 5,
    amount: 90_000,
    by: 'buyer',
    status: 'open',
    expiresAt: '2026-11-28T10:00:00.000Z',
    orderId: null,
    history: [{ by: 'buyer', action: 'offer', amount: 90_000, at }],
    secondChance: false,
    message: null,
    sellerName: 'Sam',
    car: { id: 3, year: 2021, make: 'BMW', model: 'M3', primaryImage: null, price: 100_000, isAuction: false, status: 'active' },
    createdAt: at,
    updatedAt: at,
    ...change,
  };
}

describe('offer view', () => {
  it('tells the sides apart by the buyer id', () => {
    expect(offerParty(offer(), 20)).toBe('buyer');
    expect(offerParty(offer(), 99)).toBe('seller');
  });

  it('says whose turn it is', () => {
    expect(turnText(offer(), 'buyer')).toBe('Waiting for Sam to answer your $90,000.');
    expect(turnText(offer(), 'seller')).toBe('Your turn: accept $90,000, counter or decline.');
    expect(turnLabel(offer(), 'seller')).toBe('Your turn');
    expect(turnLabel(offer(), 'buyer')).toBe('Their turn');
    expect(turnLabel(offer({ status: 'expired' }), 'buyer')).toBe('Expired');
  });

  it('words history lines for the viewer', () => {
    const o = offer();
    expect(historyLine(o, { by: 'buyer', action: 'offer', amount: 90_000, at }, 'buyer')).toBe('You offered $90,000');
    expect(historyLine(o, { by: 'seller', action: 'counter', amount: 96_000, at }, 'buyer')).toBe('Sam countered with $96,000');
    expect(historyLine(o, { by: 'buyer', action: 'accept', amount: 96_000, at }, 'seller')).toBe('Bea accepted the offer at $96,000');
    expect(historyLine(o, { by: 'system', action: 'expire', amount: 96_000, at }, 'seller')).toBe('The offer at $96,000 expired');
  });

  it('counters between the two sides, with the asking price as the seller ceiling', () => {
    expect(counterRangeFor(offer(), 'seller', 100_000)).toEqual({ min: 90_001, max: 99_999 });
    // An auction's reserve (read from the car) is the seller's ceiling; unknown yet, escrow's is.
    expect(counterRangeFor(offer({ car: { ...offer().car, price: 50_000 } }), 'seller', 150_000)).toEqual({ min: 90_001, max: 149_999 });
    expect(counterRangeFor(offer(), 'seller', null)).toEqual({ min: 90_001, max: 1_000_000 });
    const countered = counteredBySeller(96_000);
    expect(buyerLast(countered.history)).toBe(90_000);
    expect(counterRangeFor(countered, 'buyer', null)).toEqual({ min: 90_001, max: 95_999 });
    expect(counterProblem(90_000, { min: 90_001, max: 95_999 })).toBe('Counter with at least $90,001.');
    expect(counterProblem(96_000, { min: 90_001, max: 95_999 })).toBe('Counter with at most $95,999.');
    expect(counterProblem(93_000, { min: 90_001, max: 95_999 })).toBeNull();
  });

  it('shows the lifecycle moves, without counter when no amount is left between the sides', () => {
    expect(movesToShow(offer(), 'seller', 100_000)).toEqual(['counter', 'accept', 'decline']);
    expect(movesToShow(offer(), 'buyer', null)).toEqual(['withdraw']);
    const tight = counteredBySeller(90_001);
    expect(movesToShow(tight, 'buyer', null)).toEqual(['accept', 'decline']);
    expect(movesToShow(offer({ status: 'accepted' }), 'seller', 100_000)).toEqual([]);
  });

  it("offers the seller a counter on a second-chance offer the runner-up countered, below the seller's opening amount", () => {
    // A no-reserve auction that started at $50,000; the seller offered the runner-up $55,000, who countered $52,000.
    const secondChance = offer({
      amount: 52_000,
      by: 'buyer',
      secondChance: true,
      car: { ...offer().car, price: 50_000, status: 'ended' },
      history: [
        { by: 'seller', action: 'offer', amount: 55_000, at },
        { by: 'buyer', action: 'counter', amount: 52_000, at },
      ],
    });
    const askingPrice = askingPriceForOffers({ price: 50_000, auctionReservePrice: null }, secondChance);
    expect(movesToShow(secondChance, 'seller', askingPrice)).toEqual(['counter', 'accept', 'decline']);
    expect(counterRangeFor(secondChance, 'seller', askingPrice)).toEqual({ min: 52_001, max: 54_999 });
  });

  it('finds the buyer own open offer on a car and counts the seller open ones', () => {
    const list = [offer({ id: 1, status: 'declined' }), offer({ id: 2 }), offer({ id: 3, carId: 4 })];
    expect(openOfferAsBuyer(list, 3, 20)?.id).toBe(2);
    expect(openOfferAsBuyer(list, 3, 21)).toBeNull();
    expect(openOffersAsSeller(list, 3, 99)).toBe(1);
    expect(openOffersAsSeller(list, 3, 20)).toBe(0);
  });

  it('keeps the newer copy of an offer', () => {
    const old = offer();
    const moved = offer({ amount: 96_000, by: 'seller', updatedAt: '2026-11-26T11:00:00.000Z' });
    expect(newerOffer(old, moved)).toBe(moved);
    expect(newerOffer(moved, old)).toBe(moved);
    expect(newerOffer(old, offer())).toBe(old);
  });

  it('reads typed amounts as people write them', () => {
    expect(amountFromInput('$95,000')).toBe(95_000);
    expect(amountFromInput(' 95 000 ')).toBe(95_000);
    expect(amountFromInput('95.5')).toBeNaN();
    expect(amountFromInput('')).toBeNaN();
  });
});
