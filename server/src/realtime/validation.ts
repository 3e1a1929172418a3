/** Payload checks for client events: run before anything else looks at the payload. */

const MAX_WATCHED_CARS = 60;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCarId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647;
}

/** `{ carId }` and nothing else. */
export function parseCarPayload(payload: unknown): { carId: number } | null {
  if (!isPlainObject(payload) || Object.keys(payload).length !== 1 || !isCarId(payload.carId)) return null;
  return { carId: payload.carId };
}

/** `{ carIds: number[] }` (at most 60 distinct ids) and nothing else. */
export function parseWatchPayload(payload: unknown): { carIds: number[] } | null {
  if (!isPlainObject(payload) || Object.keys(payload).length !== 1 || !Array.isArray(payload.carIds)) return null;
  if (payload.carIds.length > MAX_WATCHED_CARS || !payload.carIds.every(isCarId)) return null;
  return { carIds: [...new Set(payload.carIds as number[])] };
}
