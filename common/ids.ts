/**
 * What a record's id is: a positive whole number that fits the database's integer columns.
 * Route parameters, fields an operator types, socket payloads and tokens are all read by these,
 * so an id the database could never hold is turned away the same way everywhere.
 */

/** The largest id a record can have (PostgreSQL's `integer`). */
export const MAX_ID = 2_147_483_647;

/** A number that can be a record's id. */
export function isRecordId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID;
}

/**
 * An id written as text ("12", a route's `:id`) → 12. Anything that is not plain digits ("1e3",
 * " 12", "0x10") or is beyond any record's id gives null, so it is told apart from a real
 * record instead of being asked for.
 */
export function parseId(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return isRecordId(id) ? id : null;
}
