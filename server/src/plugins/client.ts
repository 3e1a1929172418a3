import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fromProjectRoot } from '../lib/project-root.ts';

export const CLIENT_DIST = fromProjectRoot('client/dist');

/**
 * Serves the built web app; the not-found handler falls back to its HTML for app routes. The
 * HTML (about 1 KB, below the size where compressing pays) is revalidated on every visit, the
 * hashed assets are cached for good.
 */
export default fp(
  async function client(app: FastifyInstance) {
    const indexFile = `${CLIENT_DIST}/index.html`;
    if (!existsSync(indexFile)) {
      app.log.warn('client build not found in client/dist; run `npm run build` to serve the web app');
      return;
    }
    app.appShell.html = readFileSync(indexFile);
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of every compressible file: a browser that accepts
      // them gets one (with Content-Encoding and Vary: Accept-Encoding), at no cost per request.
      preCompressed: true,
      // Reached only through that negotiation, never as URLs of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      maxAge: '1h',
      setHeaders: (res, path) => {
        // Vite puts a content hash in every asset name, so those never change.
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(app.appShell.html),
    );
  },
  { name: 'client', dependencies: ['errors'] },
);
