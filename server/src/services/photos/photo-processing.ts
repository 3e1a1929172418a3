import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';

/** Largest photo file accepted. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/**
 * Largest photo accepted, in pixels: above any camera's (a 100-megapixel medium format
 * included), far below what a decompression bomb claims. Checked from the header, before
 * anything is decoded.
 */
export const MAX_PHOTO_PIXELS = 120_000_000;

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

export const unsupportedImage = () =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Photos must be JPEG, PNG or WebP images');

/**
 * Decodes an uploaded photo and encodes it afresh in every size, as WebP and JPEG. Decoding runs
 * on libvips' own threads, not the event loop. Nothing of the original file survives: no camera
 * or GPS metadata, no trailing data; the orientation it asked for is applied to the pixels.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  if (!sniffImageFormat(input)) throw unsupportedImage();
  let metadata;
  try {
    // The header only: its pixel count is checked below, before anything is decoded.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError(400, 'INVALID_IMAGE', 'This image could not be read. Try another file.');
  }
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_PHOTO_PIXELS) {
    throw new AppError(400, 'IMAGE_TOO_LARGE', `Photos may have at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`);
  }
  if (width < 1 || height < 1) throw new AppError(400, 'INVALID_IMAGE', 'This image could not be read. Try another file.');

  try {
    const source = sharp(input, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error', sequentialRead: true }).rotate();
    const encode = async (size: PhotoSize) => {
      const resized = source.clone().resize({ width: PHOTO_SIZES[size], height: PHOTO_SIZES[size], fit: 'inside', withoutEnlargement: true });
      const [webp, jpeg] = await Promise.all([
        resized.clone().webp({ quality: 78, effort: 4 }).toBuffer({ resolveWithObject: true }),
        resized.clone().jpeg({ quality: 80, mozjpeg: true }).toBuffer({ resolveWithObject: true }),
      ]);
      return {
        info: webp.info,
        files: {
          webp: { body: webp.data, contentType: 'image/webp' as const, extension: 'webp' as const },
          jpeg: { body: jpeg.data, contentType: 'image/jpeg' as const, extension: 'jpg' as const },
        },
      };
    };
    const [card, gallery] = await Promise.all([encode('card'), encode('gallery')]);
    return { width: gallery.info.width, height: gallery.info.height, files: { card: card.files, gallery: gallery.files } };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, 'INVALID_IMAGE', 'This image could not be read. Try another file.');
  }
}
