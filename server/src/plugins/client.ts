import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

export const CLIENT_DIST = fileURLToPath(new URL('../../../client/dist', import.meta.url));

/** Serves the built web app; the not-found handler falls back to its HTML for app routes. */
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
