/** "/car/12" → 12; anything that is not a positive integer id → null (shown as not found). */
export function parseCarId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
