/** The listing count line, exactly as the spec words it. */
export function listingCountText(shown: number, total: number): string {
  return `Showing ${shown} of ${total} vehicles`;
}
