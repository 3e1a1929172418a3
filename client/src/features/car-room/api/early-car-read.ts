import type { CarDetail } from '@common/schemas/cars.ts';
import { api } from '../../../lib/api-client.ts';

/**
 * A page opened on a car reads the car as soon as the page starts, while the app's code is still
 * downloading, instead of after it: on a slow connection those round trips are the larger part
 * of the wait for the photo. The screen's first read of that car takes this answer,
 * once, and only while it is fresh; every later read goes to the server as before.
 */
const FRESH_MS = 10_000;

let early: { carId: number; startedAt: number; detail: Promise<CarDetail> } | null = null;

export function readCarEarly(carId: number): void {
  const detail = api.get<CarDetail>(`/api/cars/${carId}`);
  // The first photo is the largest thing on the screen: fetch it now rather than once the screen
  // has rendered, which on a slow phone is a good while later.
  detail.then(preloadFirstPhoto, () => undefined); // a failure is for the screen to show
  early = { carId, startedAt: Date.now(), detail };
}

function preloadFirstPhoto(detail: CarDetail): void {
  const first = detail.photos[0]?.gallery.webp ?? detail.images[0];
  if (!first) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = first;
  link.fetchPriority = 'high';
  // A WebP photo's JPEG twin is for browsers without WebP, which would skip this preload.
  if (detail.photos[0]) link.type = 'image/webp';
  document.head.append(link);
}

/** The early read of `carId`, if there is one still fresh; it is handed out only once. */
export function takeEarlyCarRead(carId: number): Promise<CarDetail> | null {
  const taken = early;
  early = null;
  return taken && taken.carId === carId && Date.now() - taken.startedAt < FRESH_MS ? taken.detail : null;
}
