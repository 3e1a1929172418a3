import { describe, expect, it } from 'vitest';
import { askingPriceForOffers, counterRange } from './offer-lifecycle.ts';

describe('askingPriceForOffers', () => {
  const opened = (amount: number) => [{ amount }];

  it('is the listing price of a fixed-price car, or the reserve of an auction that ended below it', () => {
    expect(askingPriceForOffers({ price: 100_000, auctionReservePrice: null }, { secondChance: false, history: opened(80_000) })).toBe(100_000);
    expect(askingPriceForOffers({ price: 50_000, auctionReservePrice: 150_000 }, { secondChance: false, history: opened(120_000) })).toBe(150_000);
  });

  it("is the seller's opening amount on a second-chance offer, above or below the car's reserve and price", () => {
    // A no-reserve auction starting at $50,000, offered to the runner-up at $55,000, who counters.
    const history = [{ amount: 55_000 }, { amount: 52_000 }];
    expect(askingPriceForOffers({ price: 50_000, auctionReservePrice: null }, { secondChance: true, history })).toBe(55_000);
    expect(askingPriceForOffers({ price: 50_000, auctionReservePrice: 60_000 }, { secondChance: true, history })).toBe(55_000);
    expect(askingPriceForOffers({ price: 90_000, auctionReservePrice: null }, { secondChance: true, history })).toBe(55_000);
    // Without a history (not read yet) it falls back to the car.
    expect(askingPriceForOffers({ price: 50_000, auctionReservePrice: null }, { secondChance: true, history: [] })).toBe(50_000);
  });

  it("leaves the seller room to counter back on a second-chance offer, strictly below their opening amount", () => {
    const askingPrice = askingPriceForOffers({ price: 50_000, auctionReservePrice: null }, { secondChance: true, history: [{ amount: 55_000 }, { amount: 52_000 }] });
    expect(counterRange('seller', { buyerLast: 52_000, onTable: 52_000, askingPrice })).toEqual({ min: 52_001, max: 54_999 });
  });
});
