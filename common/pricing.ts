/**
 * Price helpers shared by the client and the server.
 * Pure functions only: no DOM, no Node APIs. Money is whole US dollars.
 */

const usdFormatter = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** Formats whole US dollars without decimals: 125000 → "$125,000". */
export function formatUsd(amount: number): string {
  // Avoid "-$0" for tiny negative inputs that round to zero.
  const rounded = Math.round(amount);
  return usdFormatter.format(Object.is(rounded, -0) ? 0 : rounded);
}

export type MarketComparisonKind = 'below' | 'above' | 'at';

export interface MarketComparison {
  kind: MarketComparisonKind;
  /** Absolute difference between price and market value, in whole dollars. */
  difference: number;
  /** Human label, e.g. "$12,000 below market", "$5,000 above market", "At market value". */
  label: string;
}

/** Compares an asking price with the car's market value; null when the value is unknown. */
export function compareToMarket(price: number, marketValue: number | null): MarketComparison | null {
  if (marketValue === null) return null;
  const delta = Math.round(price) - Math.round(marketValue);
  const difference = Math.abs(delta);
  if (delta < 0) {
    return { kind: 'below', difference, label: `${formatUsd(difference)} below market` };
  }
  if (delta > 0) {
    return { kind: 'above', difference, label: `${formatUsd(difference)} above market` };
  }
  return { kind: 'at', difference: 0, label: 'At market value' };
}
