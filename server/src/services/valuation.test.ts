import { describe, expect, it } from 'vitest';
import { adjustPrice, estimateMarketValue, MAX_COMPARABLES, RECENT_SALE_MONTHS, recentSalesSince, type Comparable } from './valuation.ts';

const comparable = (carId: number, year: number, mileage: number, price: number, source: Comparable['source'] = 'listing'): Comparable => ({ carId, year, mileage, price, source });

describe('adjustPrice', () => {
  const subject = { year: 2020, mileage: 20_000 };

  it('leaves a comparable of the same year and mileage as it is', () => {
    expect(adjustPrice(subject, comparable(1, 2020, 20_000, 100_000))).toBe(100_000);
  });

  it('values an older model year lower for a newer car and the other way round (5% a year)', () => {
    expect(adjustPrice(subject, comparable(1, 2018, 20_000, 100_000))).toBe(110_000);
    expect(adjustPrice(subject, comparable(1, 2022, 20_000, 100_000))).toBe(90_000);
  });

  it('moves the price by 0.5% per 1,000 miles of difference', () => {
    // The comparable has 10,000 miles more: the car being valued is worth 5% more.
    expect(adjustPrice(subject, comparable(1, 2020, 30_000, 100_000))).toBe(105_000);
    expect(adjustPrice(subject, comparable(1, 2020, 10_000, 100_000))).toBe(95_000);
  });

  it('never moves a price by more than 30% for mileage', () => {
    expect(adjustPrice(subject, comparable(1, 2020, 500_000, 100_000))).toBe(130_000);
    expect(adjustPrice({ year: 2020, mileage: 400_000 }, comparable(1, 2020, 0, 100_000))).toBe(70_000);
  });
});

describe('estimateMarketValue', () => {
  const subject = { year: 2021, mileage: 15_000 };
  /** Listings of the subject's own year and mileage (so not adjusted) at these prices, ids 1, 2, ... */
  const unadjusted = (...prices: number[]) => prices.map((price, i) => comparable(i + 1, subject.year, subject.mileage, price));

  it('gives no estimate below three comparables', () => {
    expect(estimateMarketValue(subject, [])).toBeNull();
    expect(estimateMarketValue(subject, unadjusted(100_000, 110_000))).toBeNull();
  });

  it('takes the median of the adjusted prices and the middle half as the range, rounded to $100', () => {
    const valuation = estimateMarketValue(subject, unadjusted(100_000, 120_000, 110_000, 130_050));
    expect(valuation).toMatchObject({ estimate: 115_000, low: 107_500, high: 122_500 });
    expect(valuation!.comparables.map((c) => c.adjustedPrice).sort()).toEqual([100_000, 110_000, 120_000, 130_050]);
  });

  it('is not pulled by one outlier', () => {
    const valuation = estimateMarketValue(subject, unadjusted(100_000, 101_000, 102_000, 900_000));
    expect(valuation!.estimate).toBe(101_500);
  });

  it('adjusts each comparable before combining them: sales count like listings', () => {
    const valuation = estimateMarketValue(subject, [
      comparable(1, 2019, 15_000, 100_000, 'sale'),
      comparable(2, 2023, 15_000, 122_000),
      comparable(3, 2021, 35_000, 100_000),
    ]);
    // 2019 +10% → 110,000; 2023 −10% → 109,800; 20,000 more miles +10% → 110,000.
    expect(valuation!.estimate).toBe(110_000);
    expect(valuation!.comparables.find((c) => c.source === 'sale')?.adjustedPrice).toBe(110_000);
  });

  it('keeps the closest comparables when there are many', () => {
    const far = Array.from({ length: MAX_COMPARABLES }, (_, i) => comparable(100 + i, 2023, 15_000, 200_000));
    const near = [comparable(1, 2021, 15_000, 100_000), comparable(2, 2021, 16_000, 100_000), comparable(3, 2021, 14_000, 100_000)];
    const valuation = estimateMarketValue(subject, [...far, ...near])!;
    expect(valuation.comparables).toHaveLength(MAX_COMPARABLES);
    expect(valuation.comparables.map((c) => c.carId)).toEqual(expect.arrayContaining([1, 2, 3]));
  });
});

describe('recentSalesSince', () => {
  it('goes back RECENT_SALE_MONTHS calendar months, to the same UTC time of day', () => {
    expect(RECENT_SALE_MONTHS).toBe(24);
    expect(recentSalesSince(new Date('2026-11-27T08:00:00.000Z')).toISOString()).toBe('2024-11-27T08:00:00.000Z');
  });

  it('does not move its argument', () => {
    const now = new Date('2026-03-01T00:00:00.000Z');
    recentSalesSince(now);
    expect(now.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
