import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fromProjectRoot } from '../../../db/project-root.ts';
import { matchPage, PAGES } from '@common/paths.ts';
import { parseId } from '@common/ids.ts';
import { heroImageTag, SCREEN_MODULES, screenPreloadTags, withHeadTags, type ViteManifest } from '../lib/page-preloads.ts';
import { cachedLoad, loadingCache } from '../lib/loading-cache.ts';
import { sendAppPage } from '../lib/app-page.ts';
import { loadServerEntry, PageRenderer, type ReadApi } from '../pages/page-renderer.ts';
import type { CarDetail } from '@common/schemas/cars.ts';

export const CLIENT_DIST = fromProjectRoot('client/dist');
/** The web app's server entry, built with it (client/vite.config.ts). */
export const CLIENT_SERVER_ENTRY = fromProjectRoot('client/dist-ssr/entry-server.js');

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
    const shell = app.appShell.html.toString('utf8');
    const manifest = readManifest();
    const browserPages = pageRenderer(app, shell, manifest);
    const serverPages = await serverPageRenderer(app, shell, manifest);
    app.appShell.pageCache = () => ({ held: serverPages?.cachedPages ?? 0, sent: serverPages?.pagesSent ?? 0, drawn: serverPages?.pagesDrawn ?? 0 });
    app.appShell.render = async (url) => {
      const drawn = serverPages ? await drawOnServer(app, serverPages, url) : null;
      return drawn ?? { status: answersNotFound(url.pathname) ? 404 : 200, html: await browserPages(url.pathname) };
    };
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
        // The service worker is checked for a new version at each visit: an old one must never
        // linger for an hour after a deployment. Its scope is the whole site. (`path` is the file
        // sent, which may be its compressed copy.)
        if (/\/sw\.js(?:\.br|\.gz)?$/.test(path)) res.header('cache-control', 'no-cache').header('service-worker-allowed', '/');
      },
    });
    // The pages drawn on the server are routes of their own (the others reach the app through
    // the not-found handler): routes get the answer compression that a drawn page's size needs.
    for (const path of [PAGES.home, PAGES.car, PAGES.testimonials, PAGES.escrow, PAGES.results]) {
      app.get(path, { schema: { hide: true } }, async (request, reply) => {
        const page = await app.appShell.render!(new URL(request.url, 'http://page.invalid'));
        return sendAppPage(reply, page);
      });
    }
  },
  { name: 'client', dependencies: ['errors', 'services'] },
);

/**
 * The console's pages answer 404, as an unknown address does: the page cannot tell who asks (the
 * session lives in the browser), and to anyone but staff the back office is not there. The app
 * still opens it for staff.
 */
function answersNotFound(path: string): boolean {
  const page = matchPage(path)?.page;
  return page === 'admin' || page === 'adminSection';
}

/** Vite writes it with `build.manifest`; without it (an older build) pages announce nothing. */
function readManifest(): ViteManifest {
  try {
    return JSON.parse(readFileSync(`${CLIENT_DIST}/.vite/manifest.json`, 'utf8')) as ViteManifest;
  } catch {
    return {};
  }
}

/** A car's photos change rarely; a stale hint costs one wasted image fetch, not a wrong page. */
const HERO_CACHE_MS = 30_000;

/**
 * Each page's HTML with its screen's code announced (see page-preloads.ts), and a car page's
 * first image too. Only what the build and the database say: a car that cannot be read (not
 * found, a draft, the database away) gets the page without an image hint.
 */
function pageRenderer(app: FastifyInstance, shell: string, manifest: ViteManifest): (path: string) => Promise<string> {
  const screens = new Map(Object.entries(SCREEN_MODULES).map(([page, module]) => [page, withHeadTags(shell, screenPreloadTags(manifest, module))]));
  const heroes = loadingCache<string>(HERO_CACHE_MS, 2_000);
  return async (path) => {
    const match = matchPage(path);
    const page = (match && screens.get(match.page)) ?? shell;
    const carId = match?.page === 'car' ? parseId(match.params[0] ?? '') : null;
    if (carId === null) return page;
    const hero = await cachedLoad(heroes, String(carId), () =>
      app.services.cars.get(carId).then(heroImageTag, () => ''),
    );
    return withHeadTags(page, hero);
  };
}


/**
 * The renderer of the pages drawn on the server (pages/page-renderer.ts), or null when the web
 * app was built without its server entry. The API answers come from this server itself, as a
 * signed-out browser would get them, so a page shows exactly what the API says.
 */
async function serverPageRenderer(app: FastifyInstance, shell: string, manifest: ViteManifest): Promise<PageRenderer | null> {
  // Imported meanwhile (React and every screen): the server listens without waiting for it.
  const entry = loadServerEntry(CLIENT_SERVER_ENTRY);
  if (!entry) {
    app.log.warn('the web app\'s server entry is missing (client/dist-ssr); pages are drawn in the browser only');
    return null;
  }
  const readApi: ReadApi = async (path) => {
    const answer = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    try {
      return { status: answer.statusCode, data: answer.json<{ data?: unknown }>().data };
    } catch {
      // Not JSON (never expected from the API): the status alone still decides the page.
      return { status: answer.statusCode };
    }
  };
  const renderer = new PageRenderer(entry, shell, readApi, app.config.appUrl, (page, data) => {
    const module = page === 'not-found' ? undefined : SCREEN_MODULES[page];
    const screen = module ? screenPreloadTags(manifest, module, 'stylesheet') : '';
    const car = page === 'car' ? Object.values(data)[0] : undefined;
    return (car?.status === 200 ? heroImageTag(car.data as CarDetail) : '') + screen;
  }, app.config.pageCacheEntries, app.config.pageFreshMs);
  for (const event of ['bid.placed', 'car.status', 'listing.changed'] as const) {
    app.events.subscribe(event, ({ carId }) => renderer.forgetCar(carId));
  }
  app.events.subscribe('auction.ended', (result) => renderer.forgetCar(result.carId));
  // Once the server listens rather than before: the start does not wait for it, and a visitor
  // in the moment it takes draws a page as one would without it (only a little slower).
  app.addHook('onListen', async () => {
    void renderer.warm();
  });
  return renderer;
}

/** A page drawn on the server, or null for one drawn in the browser; a failure answers 503, fast. */
async function drawOnServer(app: FastifyInstance, renderer: PageRenderer, url: URL): Promise<{ status: number; html: string } | null> {
  try {
    return await renderer.render(url);
  } catch (error) {
    app.log.error({ err: error, path: url.pathname }, 'a page could not be drawn on the server');
    return renderer.unavailable();
  }
}
