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
