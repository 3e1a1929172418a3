/** The largest id a record can have (the database's integer column). */
const MAX_ID = 2_147_483_647;

/**
 * A route's `:id` ("/car/12", "/orders/12", "/sell/12/edit") → 12. Anything that is not a
 * positive whole number in plain digits, or is beyond any record's id, gives null: the screen
 * then shows that there is no such thing instead of asking the server.
 */
export function parseRouteId(raw: string | undefined | null): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}
