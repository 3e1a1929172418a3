import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { robotsTxtPath, sitemapPath } from '../services/sitemap.ts';

/** Crawlers read these at most a few times a day; an hour's staleness costs nothing. */
const CACHE_CONTROL = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';

/**
 * robots.txt and the sitemap at the site's root, where crawlers look for them. Files for
 * crawlers rather than API operations, so they stay out of the OpenAPI document (as `/` does).
 */
const seoFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { sitemap } = app.services;

  app.get(robotsTxtPath, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', CACHE_CONTROL).send(sitemap.robotsTxt()),
  );

  // Both stream their XML as the cars are read (see SitemapService).
  app.get(sitemapPath, { schema: { hide: true } }, async (_request, reply) => {
    const body = await sitemap.sitemap();
    return reply.type(XML).header('cache-control', CACHE_CONTROL).send(body);
  });

  app.get('/sitemaps/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 40 }) }) } }, async (request, reply) => {
    const body = await sitemap.part(request.params.file);
    return reply.type(XML).header('cache-control', CACHE_CONTROL).send(body);
  });
};

export default seoFileRoutes;
