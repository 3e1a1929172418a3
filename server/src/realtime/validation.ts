/** Payload checks for client events: run before anything else looks at the payload. */
import { isRecordId } from '@common/ids.ts';
import { MAX_WATCHED_CARS } from '@common/listing.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ carId }` and nothing else. */
export function parseCarPayload(payload: unknown): { carId: number } | null {
  if (!isPlainObject(payload) || Object.keys(payload).length !== 1 || !isRecordId(payload.carId)) return null;
  return { carId: payload.carId };
}

/** `{ carIds: number[] }` (at most MAX_WATCHED_CARS ids) and nothing else. */
export function parseWatchPayload(payload: unknown): { carIds: number[] } | null {
  if (!isPlainObject(payload) || Object.keys(payload).length !== 1 || !Array.isArray(payload.carIds)) return null;
  if (payload.carIds.length > MAX_WATCHED_CARS || !payload.carIds.every(isRecordId)) return null;
  return { carIds: [...new Set(payload.carIds as number[])] };
}
