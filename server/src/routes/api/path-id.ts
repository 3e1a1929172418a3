import { notFound } from '../../lib/errors.ts';
import { parseId } from '@common/ids.ts';

/** The number a path id names; anything that is not a positive integer is a 404 with `message`. */
export function pathId(raw: string, message: string): number {
  const id = parseId(raw);
  if (id === null) throw notFound(message);
  return id;
}
