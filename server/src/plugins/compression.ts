import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/**
 * Compresses JSON answers, drawn pages and sitemaps of 1 KB and more for clients that accept gzip or brotli. Measured on
 * the listing (docs/benchmarks.md, "Compressing API answers"): a page of 12 cars goes from 4.9 KB to
 * 1.6 KB and one of 50 from 17.9 KB to 2.5 KB, within one TCP round trip's initial window, for
 * about 0.2-0.3 ms of server CPU per answer. Below 1 KB the saving is smaller than the headers.
 * Static files are not touched (the build precompressed them at the highest levels), nor are
 * photos (compressed images). API_COMPRESSION=false leaves the work to a proxy in front.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      globalCompression: true,
      // Request bodies stay as sent: inflating them would let a small upload grow past the body
      // limit before anything checks it.
      globalDecompression: false,
      threshold: 1024,
      // gzip first: at these sizes it is as small as brotli's fast levels and cheaper to make.
      encodings: ['gzip', 'br'],
      // Pages drawn on the server (a car page is about 28 KB of HTML, testimonials 52 KB) and the
      // sitemaps (up to 4.7 MB of XML a part) shrink five- to tenfold, too.
      customTypes: /^(?:application\/(?:json|xml)|text\/html)\b/,
      // Listing pages are compressed on the spot; the stream path (a zlib stream per answer,
      // run on the thread pool) costs more than compressing a few dozen KB at once.
      syncThreshold: 64 * 1024,
    });
  },
  { name: 'compression' },
);
