/**
 * The server's way into the web app (built by `vite build --ssr`, loaded by the server's page
 * renderer): the same route table and screens as the browser, drawn from the API answers the
 * server read for the page. One rendering path: the browser hydrates exactly this markup.
 */
import { StrictMode } from 'react';
import { renderToPipeableStream, type PipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { appRoutes } from './app/routes.tsx';
import { PageDataProvider, type PageData } from './lib/page-data.tsx';

export { planServerPage, type ServerPage, type ServerPagePlan } from './app/server-pages.ts';
export { PAGE_DATA_ELEMENT_ID, type PageData } from './lib/page-data.tsx';

const handler = createStaticHandler(appRoutes);

export interface RenderCallbacks {
  /** Everything is drawn (screens loaded, nothing left suspended): pipe it now. */
  onAllReady: () => void;
  onShellError: (error: unknown) => void;
  onError: (error: unknown) => void;
}

/**
 * Renders the page at `url` (path and query) with `data`. The stream is piped once everything
 * is ready, so the HTML holds the whole first screen and no inline script is needed to reveal
 * parts of it (the CSP allows none).
 */
export async function renderPage(url: URL, data: PageData, callbacks: RenderCallbacks): Promise<PipeableStream> {
  const context = await handler.query(new Request(url.href, { method: 'GET' }));
  // No loaders or actions here: the route table always answers with a context to draw.
  if (context instanceof Response) throw new Error(`The router answered ${context.status} for ${url.pathname}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToPipeableStream(
    <StrictMode>
      <PageDataProvider data={data}>
        {/* hydrate={false}: the routes have no loader data to hand over, so no inline script. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </PageDataProvider>
    </StrictMode>,
    // Never outlined: React moves a large boundary's content out of place and reveals it with an
    // inline script, which the CSP refuses; here every boundary is complete and stays in place.
    { ...callbacks, progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
}
