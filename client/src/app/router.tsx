import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { PageDataProvider, type PageData } from '../lib/page-data.tsx';
import { stampHistoryEntry } from './history-entry.ts';
import { appRoutes } from './routes.tsx';

stampHistoryEntry();

export const router = createBrowserRouter(appRoutes);

const NO_PAGE_DATA: PageData = {};

/**
 * The app in the browser. `pageData` is what the server drew the page with: it serves the first
 * screen only, so a later visit to the same screen reads fresh answers from the server.
 */
export function AppRouter({ pageData = NO_PAGE_DATA }: { pageData?: PageData }) {
  const [data, setData] = useState(pageData);
  useEffect(() => {
    if (data === NO_PAGE_DATA) return;
    const first = router.state.location.key;
    return router.subscribe((state) => {
      if (state.location.key !== first) setData(NO_PAGE_DATA);
    });
  }, [data]);
  return (
    <PageDataProvider data={data}>
      <RouterProvider router={router} />
    </PageDataProvider>
  );
}
