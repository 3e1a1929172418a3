import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fastifyStatic from '@fastify/static';
import { notFound } from '../lib/errors.ts';
import { LocalPhotoStorage } from '../services/photos/photo-storage.ts';
import { isBodyStyle, isCarView, isColorHex, renderCarSvg } from '../media/car-illustration.ts';

const MAX_CACHED_IMAGES = 2_000;

/**
 * Car illustrations drawn from a body style, a colour and a view, so every listing has images
 * with no network access. The URL fully determines the image, so responses are cached forever.
 */
const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Uploaded photos kept on local disk; their keys are never reused, so they are cached forever.
  const storage = app.services.photoStorage;
  if (storage instanceof LocalPhotoStorage) {
    mkdirSync(storage.root, { recursive: true });
    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: '/media/photos/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      maxAge: '365d',
      immutable: true,
    });
  }

  const cache = new Map<string, { svg: string; etag: string }>();

  app.get(
    '/media/cars/:bodyStyle/:color/:file',
    {
      schema: {
        hide: true,
        params: Type.Object({ bodyStyle: Type.String(), color: Type.String(), file: Type.String() }),
      },
    },
    async (request, reply) => {
      const { bodyStyle, color, file } = request.params;
      const view = file.endsWith('.svg') ? file.slice(0, -4) : '';
      if (!isBodyStyle(bodyStyle) || !isColorHex(color) || !isCarView(view)) throw notFound('Image not found');
      const key = `${bodyStyle}/${color.toLowerCase()}/${view}`;
      let image = cache.get(key);
      if (!image) {
        const svg = renderCarSvg({ bodyStyle, colorHex: color.toLowerCase(), view });
        image = { svg, etag: `"${createHash('sha1').update(svg).digest('base64url')}"` };
        if (cache.size >= MAX_CACHED_IMAGES) cache.delete(cache.keys().next().value!);
        cache.set(key, image);
      }
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', image.etag);
      if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
      return reply.type('image/svg+xml; charset=utf-8').send(image.svg);
    },
  );
};

export default mediaRoutes;
