/**
 * The photos a seller picks before they are uploaded: their order (the first is the cover
 * photo) and the convenience checks done before sending (the server judges the content).
 */
export { formatFileSize } from '../../../lib/quantities.ts';
import { PHOTO_EXTENSIONS, PHOTO_LIMITS, PHOTO_TOO_LARGE_MESSAGE, PHOTO_TYPE_NAMES, PHOTO_TYPES } from '@common/listing.ts';

/** For the file input's `accept`: the types and their usual extensions. */
export const PHOTO_ACCEPT = [...PHOTO_TYPES, ...PHOTO_EXTENSIONS].join(',');

/** `list` with the item at `from` moved to `to` (both clamped); the same array when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): readonly T[] {
  if (list.length === 0) return list;
  const last = list.length - 1;
  const source = Math.max(0, Math.min(last, from));
  const target = Math.max(0, Math.min(last, to));
  if (source === target) return list;
  const next = [...list];
  const [item] = next.splice(source, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** The new position of each item after moving `from` to `to`, as a permutation of old positions. */
export function movedOrder(count: number, from: number, to: number): number[] {
  return [...moveItem(Array.from({ length: count }, (_, i) => i), from, to)];
}

export function removeItem<T>(list: readonly T[], index: number): readonly T[] {
  return index < 0 || index >= list.length ? list : list.filter((_, i) => i !== index);
}

interface FileLike {
  name: string;
  type: string;
  size: number;
}


const hasPhotoExtension = (name: string) => PHOTO_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Why a file will not be sent, or undefined. A type the browser does not know is judged by name. */
export function photoFileProblem(file: FileLike): string | undefined {
  const knownType = (PHOTO_TYPES as readonly string[]).includes(file.type);
  if (!knownType && !(file.type === '' && hasPhotoExtension(file.name))) return `${file.name} is not a ${PHOTO_TYPE_NAMES} photo`;
  if (file.size > PHOTO_LIMITS.maxBytes) return `${file.name} is ${megabytes(file.size)}. ${PHOTO_TOO_LARGE_MESSAGE}`;
  if (file.size === 0) return `${file.name} is empty`;
  return undefined;
}

/**
 * Splits picked files into those to add and the reasons for the rest, keeping the total at
 * `PHOTO_LIMITS.maxPhotos` (`already` photos are there before).
 */
export function sortPickedFiles<F extends FileLike>(files: readonly F[], already: number): { accepted: F[]; problems: string[] } {
  const accepted: F[] = [];
  const problems: string[] = [];
  let overflow = 0;
  for (const file of files) {
    const problem = photoFileProblem(file);
    if (problem) problems.push(problem);
    else if (already + accepted.length >= PHOTO_LIMITS.maxPhotos) overflow += 1;
    else accepted.push(file);
  }
  if (overflow > 0) {
    problems.push(
      `A listing can have at most ${PHOTO_LIMITS.maxPhotos} photos: ${overflow === 1 ? '1 photo was' : `${overflow} photos were`} not added`,
    );
  }
  return { accepted, problems };
}
