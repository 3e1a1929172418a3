import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CARD_MAX_BYTES, PHOTO_SIZES, processPhoto } from './photo-processing.ts';

/**
 * A photo of pure sensor noise at card size, so downscaling cannot smooth it: the hardest thing
 * there is to compress.
 */
async function grainyPhoto(): Promise<Buffer> {
  const width = PHOTO_SIZES.card;
  const height = (PHOTO_SIZES.card * 3) / 4;
  const pixels = Buffer.alloc(width * height * 3);
  let state = 7;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    pixels[i] = 96 + ((state >> 16) % 64);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

describe('photo processing', () => {
  it('keeps every card image within the listing page budget, even for a grainy photo', async () => {
    const processed = await processPhoto(await grainyPhoto());
    for (const file of [processed.files.card.webp, processed.files.card.jpeg]) {
      expect(file.body.length).toBeLessThanOrEqual(CARD_MAX_BYTES);
      expect((await sharp(file.body).metadata()).width).toBe(PHOTO_SIZES.card);
    }
    // The gallery (here the same pixels, as the photo is no larger than a card) keeps its
    // quality, and shows that the card would not have fitted without being re-encoded.
    expect(processed.files.gallery.webp.body.length).toBeGreaterThan(CARD_MAX_BYTES);
  });
});
