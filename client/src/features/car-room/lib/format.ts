const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 12345 → "12,345 mi". */
export function formatMileage(miles: number): string {
  return `${integer.format(Math.round(miles))} mi`;
}

/** countLabel(1, 'bid') → "1 bid"; countLabel(3, 'bid') → "3 bids". */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${integer.format(count)} ${count === 1 ? singular : plural}`;
}

/** 4.8 → "4.8"; 5 → "5.0". */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}

/** "/media/cars/sports/b71c1c/side.svg" → "side view"; unknown shapes give "". */
export function viewNameOf(url: string): string {
  const file = url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  const name = file.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
  if (!name || /^\d+$/.test(name)) return '';
  return /view$/i.test(name) ? name : `${name} view`;
}
