import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../../../lib/api-client.ts';
import { usePageData } from '../../../lib/page-data.tsx';
import { carsPagePath, getCars, type CarsPage } from '../api/get-cars.ts';
import type { ListingQuery } from '../lib/listing-query.ts';

export const FETCH_CARS_FAILED = 'Failed to fetch cars';

export type CarsResult =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: CarsPage };

const LOADING: CarsResult = { status: 'loading' };

/**
 * The last pages shown, by query. Coming back to a query (Back, Forward, Previous) shows its page
 * at once while it is fetched again, so the screen has its full height when the browser restores
 * the scroll position, instead of a short "Loading" page that clamps it.
 */
const recentPages = new Map<string, CarsPage>();
const RECENT_PAGES_KEPT = 20;

function remember(key: string, page: CarsPage): void {
  recentPages.delete(key);
  recentPages.set(key, page);
  if (recentPages.size > RECENT_PAGES_KEPT) recentPages.delete(recentPages.keys().next().value!);
}

/**
 * Fetches one page of listings for the query. A newer query aborts the request in flight,
 * and a result is only shown for the request that produced it, so stale answers never win.
 */
export function useCars(query: ListingQuery): { result: CarsResult; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // The API query in words stands for the whole query (criteria included).
  const queryKey = carsPagePath(query);
  const requestKey = `${queryKey}#${attempt}`;
  // A page the server rendered came with this query's answer: shown as it is, not fetched again.
  const fromPage = usePageData<CarsPage>(queryKey);
  const [settled, setSettled] = useState<{ key: string; result: CarsResult } | null>(() =>
    fromPage ? { key: requestKey, result: { status: 'success', data: fromPage } } : null,
  );
  const servedByPage = useRef(fromPage ? requestKey : null);
  if (fromPage && !recentPages.has(queryKey)) remember(queryKey, fromPage);

  useEffect(() => {
    // Only the first look at the page's query is answered by the page; coming back to the same
    // query later (Back, the "All" chip) reads it again.
    if (requestKey === servedByPage.current) {
      servedByPage.current = null;
      return;
    }
    const controller = new AbortController();
    getCars(query, controller.signal)
      .then((data) => {
        if (!data || !Array.isArray(data.cars) || !data.pagination) {
          throw new Error('Unexpected listing response');
        }
        remember(queryKey, data);
        // A page of cards is a large render: as a transition it yields to the browser every few
        // milliseconds instead of freezing a slow phone until all twelve are drawn.
        startTransition(() => setSettled({ key: requestKey, result: { status: 'success', data } }));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const message = error instanceof ApiError ? error.message : FETCH_CARS_FAILED;
        setSettled({ key: requestKey, result: { status: 'error', message } });
      });
    return () => controller.abort();
    // `query` is deliberately not a dependency: `queryKey` stands for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey, queryKey]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const cached = recentPages.get(queryKey);
  const result: CarsResult =
    settled?.key === requestKey ? settled.result : cached ? { status: 'success', data: cached } : LOADING;
  return { result, retry };
}
