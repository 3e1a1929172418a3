/** How the app writes counted things: a car's mileage, "3 bids", a file's size. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 12345 → "12,345 mi". */
export function formatMileage(miles: number): string {
  return `${integer.format(Math.round(miles))} mi`;
}

/** countLabel(1, 'bid') → "1 bid"; countLabel(3, 'bid') → "3 bids". */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${integer.format(count)} ${count === 1 ? singular : plural}`;
}

/** 500 → "1 KB"; 1.44 MiB → "1.4 MB" (binary units, as file pickers show them). */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
