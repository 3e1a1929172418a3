import type { Sharp } from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { PHOTO_LIMITS, PHOTO_TYPE_NAMES } from '@common/listing.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * Most a card image may weigh: a listing page shows twelve of them at once. Grainy photos (high
 * ISO, gravel, foliage) can exceed it at the usual quality, so those are encoded again lower.
 */
export const CARD_MAX_BYTES = 80 * 1000;

/** Encodes at `quality`, stepping it down until the result fits `maxBytes` (or the floor is reached). */
async function withinBudget(encodeAt: (quality: number) => Promise<Buffer>, quality: number, maxBytes: number): Promise<Buffer> {
  const floor = 40;
  let body = await encodeAt(quality);
  while (body.length > maxBytes && quality > floor) {
    quality = Math.max(floor, quality - 10);
    body = await encodeAt(quality);
  }
  return body;
}

/** Largest photo accepted, in pixels (checked from the header, before anything is decoded). */
export const MAX_PHOTO_PIXELS = PHOTO_LIMITS.maxMegapixels * 1_000_000;

/** The sizes stored for every photo: cards in the listing, and the car page's gallery. */
export const PHOTO_SIZES = { card: 640, gallery: 1600 } as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** What a file is, judged by its first bytes (never by its name or declared type). */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'webp';
  return null;
}

export interface EncodedImage {
  body: Buffer;
  contentType: 'image/webp' | 'image/jpeg';
  extension: 'webp' | 'jpg';
}

export interface ProcessedPhoto {
  /** The gallery size's dimensions (the card keeps the same proportions). */
  width: number;
  height: number;
  files: Record<PhotoSize, { webp: EncodedImage; jpeg: EncodedImage }>;
}

/**
 * Runs at most `concurrency` photo conversions at once in this process; the rest wait their
 * turn. libvips works on its own threads, but on a small machine every conversion running at
 * once would leave the event loop no core of its own: by default one core is kept for it.
 */
export class PhotoProcessor {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly concurrency: number) {}

  async process(input: Buffer): Promise<ProcessedPhoto> {
    if (!sniffImageFormat(input)) throw unsupportedImage();
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await processPhoto(input);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

export const unsupportedImage = () =>
  new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Photos must be ${PHOTO_TYPE_NAMES} images`);

/**
 * Decodes an uploaded photo and encodes it afresh in every size, as WebP and JPEG. Decoding runs
 * on libvips' own threads, not the event loop. Nothing of the original file survives: no camera
 * or GPS metadata, no trailing data; the orientation it asked for is applied to the pixels.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  if (!sniffImageFormat(input)) throw unsupportedImage();
  // Loaded with the first photo: libvips is not needed to start the server.
  const { default: sharp } = await import('sharp');
  let metadata;
  try {
    // The header only: its pixel count is checked below, before anything is decoded.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(ErrorCode.INVALID_IMAGE);
  }
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_PHOTO_PIXELS) {
    throw new AppError(ErrorCode.IMAGE_TOO_LARGE, `Photos may have at most ${PHOTO_LIMITS.maxMegapixels} megapixels`);
  }
  if (width < 1 || height < 1) throw new AppError(ErrorCode.INVALID_IMAGE);

  try {
    // Decoded once, at gallery size (JPEG decodes at a fraction of its size when it can), then
    // every file is encoded from those pixels.
    const gallery = await sharp(input, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize({ width: PHOTO_SIZES.gallery, height: PHOTO_SIZES.gallery, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: gallery.info.width, height: gallery.info.height, channels: gallery.info.channels } };
    const encode = async (pixels: Sharp, maxBytes = Infinity) => ({
      webp: { body: await withinBudget((quality) => pixels.clone().webp({ quality, effort: 4 }).toBuffer(), 78, maxBytes), contentType: 'image/webp' as const, extension: 'webp' as const },
      jpeg: { body: await withinBudget((quality) => pixels.clone().jpeg({ quality, mozjpeg: true }).toBuffer(), 80, maxBytes), contentType: 'image/jpeg' as const, extension: 'jpg' as const },
    });
    const galleryFiles = await encode(sharp(gallery.data, raw));
    const cardFiles = await encode(
      sharp(gallery.data, raw).resize({ width: PHOTO_SIZES.card, height: PHOTO_SIZES.card, fit: 'inside', withoutEnlargement: true }),
      CARD_MAX_BYTES,
    );
    return { width: gallery.info.width, height: gallery.info.height, files: { card: cardFiles, gallery: galleryFiles } };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(ErrorCode.INVALID_IMAGE);
  }
}
