import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers and a lookup cost. */
const MIN_BYTES = 1024;

/**
 * Writes `file.br` and `file.gz` next to every compressible file of the build, once, at the
 * highest levels (brotli 11, gzip 9): too slow to do per request, free when done at build time.
 * The server sends them to browsers that accept them (@fastify/static `preCompressed`).
 * Source maps are left out: only developer tools fetch them.
 *
 * node:zlib does all of it, so this costs no dependency; the compression plugins on npm wrap
 * the same calls and follow Vite's major versions with a delay.
 */
export function precompress(): Plugin {
  let outDir = '';
  // A server-side build (SSR) is never sent to browsers.
  let serverSide = false;
  return {
    name: 'luxemotors:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      serverSide = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (serverSide) return;
      const files = (await readdir(outDir, { recursive: true })).map((name) => join(outDir, name)).filter((path) => COMPRESSIBLE.test(path) && !path.includes('/.vite/'));
      await Promise.all(
        files.map(async (path) => {
          if ((await stat(path)).size < MIN_BYTES) return;
          const content = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}
