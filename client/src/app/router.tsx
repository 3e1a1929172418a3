import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { PageDataProvider, type PageData } from '../lib/page-data.tsx';
import { stampHistoryEntry } from './history-entry.ts';
import { appRoutes } from './routes.tsx';

export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/** The app's router over this tab's history (once per tab). */
export function createAppRouter(): AppRouterInstance {
  stampHistoryEntry();
  return createBrowserRouter(appRoutes);
}

const NO_PAGE_DATA: PageData = {};

/**
 * The app in the browser. `pageData` is what the server drew the page with: it serves the first
 * screen only, so a later visit to the same screen reads fresh answers from the server.
 */
export function AppRouter({ router, pageData = NO_PAGE_DATA }: { router: AppRouterInstance; pageData?: PageData }) {
  const [data, setData] = useState(pageData);
  useEffect(() => {
    if (data === NO_PAGE_DATA) return;
    const first = router.state.location.key;
    return router.subscribe((state) => {
      if (state.location.key !== first) setData(NO_PAGE_DATA);
    });
  }, [data, router]);
  return (
    <PageDataProvider data={data}>
      <RouterProvider router={router} />
    </PageDataProvider>
  );
}
