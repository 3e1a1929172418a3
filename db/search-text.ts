/**
 * The form both stored search text and search terms are reduced to, so that case and accents
 * never matter: "Huracán" and "HURACAN" both become "huracan".
 */
export function normalizeSearchText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export function carSearchText(car: { make: string; model: string }): string {
  return normalizeSearchText(`${car.make} ${car.model}`);
}
