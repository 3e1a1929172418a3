import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { renderCarSvg } from '../../server/src/media/car-illustration.ts';

/**
 * Photo-like test images: a car drawn at camera resolution with sensor-like grain, so encoded
 * sizes behave like a photo's (a flat colour would compress to nothing, pure noise to far more
 * than any photo). No camera photos exist on this machine, so these stand in for them.
 */
export async function syntheticPhoto(options: { width?: number; height?: number; color?: string; format?: 'jpeg' | 'png' | 'webp'; gps?: boolean; seed?: number } = {}): Promise<Buffer> {
  const { width = 4000, height = 3000, color = '8a1c1c', format = 'jpeg', gps = false, seed = 1 } = options;
  const svg = renderCarSvg({ bodyStyle: 'coupe', colorHex: color, view: 'side' });
  const base = await sharp(Buffer.from(svg)).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  // Deterministic grain of a few levels, as a camera sensor adds.
  let state = seed;
  for (let i = 0; i < base.length; i++) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    base[i] = Math.max(0, Math.min(255, base[i]! + ((state >> 16) % 13) - 6));
  }
  let image = sharp(base, { raw: { width, height, channels: 3 } });
  if (gps) {
    image = image.withExif({
      IFD0: { Make: 'TestCam', Model: 'Field Camera', Software: 'secret-tool' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 56/1' },
    });
  }
  if (format === 'png') return image.png({ compressionLevel: 6 }).toBuffer();
  if (format === 'webp') return image.webp({ quality: 90 }).toBuffer();
  return image.jpeg({ quality: 92 }).toBuffer();
}

/** Whether raw EXIF data holds a GPS block (IFD0 tag 0x8825, in either byte order). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/**
 * A decompression bomb: a PNG of a few kilobytes whose header promises `size` × `size` pixels
 * (one bit each, all zero), hundreds of megapixels once decoded.
 */
export function pngBomb(size = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Math.ceil(size / 8) + 1;
  const pixels = deflateSync(Buffer.alloc(row * size), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
