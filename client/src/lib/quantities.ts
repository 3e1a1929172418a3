/** How the app writes counted things: a car's mileage, "3 bids". */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 12345 → "12,345 mi". */
export function formatMileage(miles: number): string {
  return `${integer.format(Math.round(miles))} mi`;
}

/** countLabel(1, 'bid') → "1 bid"; countLabel(3, 'bid') → "3 bids". */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${integer.format(count)} ${count === 1 ? singular : plural}`;
}
