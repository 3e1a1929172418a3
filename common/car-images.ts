/**
 * The illustrated photos of the sample catalogue: which views of a car exist and the path each
 * is served at. The server draws them (server/src/media/car-illustration.ts) and the seed stores
 * their paths, so both read the body styles from common/listing.ts and the views from here.
 */
import { CAR_BODY_STYLES, type CarBodyStyle } from './listing.ts';

export const CAR_VIEWS = ['side', 'front', 'rear', 'interior'] as const;
export type CarView = (typeof CAR_VIEWS)[number];

export function isCarBodyStyle(v: string): v is CarBodyStyle {
  return typeof v === 'string' && (CAR_BODY_STYLES as readonly string[]).includes(v);
}

export function isCarView(v: string): v is CarView {
  return typeof v === 'string' && (CAR_VIEWS as readonly string[]).includes(v);
}

/** Exactly six hexadecimal digits, without a leading '#'. */
export function isColorHex(v: string): boolean {
  return typeof v === 'string' && /^[0-9a-fA-F]{6}$/.test(v);
}

/** Throws unless the three describe an illustration that exists. */
export function assertCarImage(bodyStyle: unknown, colorHex: unknown, view: unknown): void {
  if (typeof bodyStyle !== 'string' || !isCarBodyStyle(bodyStyle)) {
    throw new Error(`Unknown body style: ${String(bodyStyle)}`);
  }
  if (typeof colorHex !== 'string' || !isColorHex(colorHex)) {
    throw new Error(`Invalid colour (expected 6 hex digits without '#'): ${String(colorHex)}`);
  }
  if (typeof view !== 'string' || !isCarView(view)) {
    throw new Error(`Unknown car view: ${String(view)}`);
  }
}

/** Where one illustration is served, e.g. `/media/cars/sports/c0121c/side.svg`. */
export function carImagePath(bodyStyle: CarBodyStyle, colorHex: string, view: CarView): string {
  assertCarImage(bodyStyle, colorHex, view);
  return `/media/cars/${bodyStyle}/${colorHex.toLowerCase()}/${view}.svg`;
}
