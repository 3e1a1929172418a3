import { describe, expect, it, onTestFinished } from 'vitest';
import { chartGeometry, priceDropSentence } from './price-history.ts';

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12)).toISOString();

describe('priceDropSentence', () => {
  it('names the last drop and its date', () => {
    expect(priceDropSentence([{ price: 120_000, at: at(1) }, { price: 112_500, at: at(12) }])).toBe('Price dropped $7,500 on Nov 12, 2026');
    expect(priceDropSentence([{ price: 130_000, at: at(1) }, { price: 110_000, at: at(5) }, { price: 105_000, at: at(9) }])).toBe('Price dropped $5,000 on Nov 9, 2026');
  });

  it('says nothing when the last change was a rise, or there is no change', () => {
    expect(priceDropSentence([{ price: 100_000, at: at(1) }, { price: 90_000, at: at(2) }, { price: 95_000, at: at(3) }])).toBeNull();
    expect(priceDropSentence([{ price: 100_000, at: at(1) }])).toBeNull();
    expect(priceDropSentence([])).toBeNull();
  });
});

describe('chartGeometry', () => {
  it('draws the highest price at the top, the lowest at the bottom and holds the last price until now', () => {
    const g = chartGeometry([{ price: 120_000, at: at(1) }, { price: 100_000, at: at(11) }], 100, 50, 5, Date.parse(at(21)));
    expect(g.dots).toEqual([{ x: 5, y: 5 }, { x: 50, y: 45 }]);
    expect(g.line).toBe('5,5 50,5 50,45 95,45');
    expect([g.low, g.high]).toEqual([100_000, 120_000]);
  });

  it('keeps equal prices in the middle', () => {
    const g = chartGeometry([{ price: 1, at: at(1) }, { price: 1, at: at(2) }], 100, 50, 5, Date.parse(at(2)));
    expect(g.dots.map((d) => d.y)).toEqual([25, 25]);
  });
});

describe('dates on the chart', () => {
  it('are UTC days, whatever the time zone the page is drawn in', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    onTestFinished(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    expect(new Date(Date.UTC(2026, 10, 12, 23, 30)).getDate()).toBe(13);
    // 23:30 UTC on Nov 12 is already Nov 13 in Kiritimati (UTC+14) and still Nov 12 in Honolulu.
    const late = new Date(Date.UTC(2026, 10, 12, 23, 30)).toISOString();
    expect(priceDropSentence([{ price: 120_000, at: at(1) }, { price: 112_500, at: late }])).toBe('Price dropped $7,500 on Nov 12, 2026');
  });
});
