import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isAbortError } from './api-client.ts';
import { usePageData } from './page-data.tsx';

export type Resource<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: T };

const LOADING = { status: 'loading' } as const;

/**
 * Loads `fetcher` when `key` changes (and again on `retry`), aborting the previous request, and
 * only ever shows the result of the request that belongs to the current key. `key` must change
 * whenever `fetcher` would fetch something else. `mutate` edits the loaded data in place
 * (e.g. a removed row, a new card) without a round trip.
 *
 * `pagePath` names the request `fetcher` makes (see page-data.tsx): on a page the server
 * rendered with that answer, the first render shows it and nothing is fetched again.
 */
export function useResource<T>(
  key: string,
  fetcher: (signal: AbortSignal) => Promise<T>,
  fallbackMessage?: string,
  pagePath?: string,
): { resource: Resource<T>; retry: () => void; mutate: (update: (data: T) => T) => void } {
  const [attempt, setAttempt] = useState(0);
  const requestKey = `${key}#${attempt}`;
  const fromPage = usePageData<T>(pagePath ?? null);
  const [settled, setSettled] = useState<{ key: string; resource: Resource<T> } | null>(() =>
    fromPage === undefined ? null : { key: requestKey, resource: { status: 'success', data: fromPage } },
  );
  const servedByPage = useRef(fromPage === undefined ? null : requestKey);

  useEffect(() => {
    // Only the first look at this key is answered by the page; coming back to it later reads it again.
    if (requestKey === servedByPage.current) {
      servedByPage.current = null;
      return;
    }
    const controller = new AbortController();
    fetcher(controller.signal)
      // Rendering what arrived (often a long list) as a transition yields to the browser every few
      // milliseconds instead of freezing a slow phone until all of it is drawn.
      .then((data) => startTransition(() => setSettled({ key: requestKey, resource: { status: 'success', data } })))
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setSettled({ key: requestKey, resource: { status: 'error', message: errorMessage(error, fallbackMessage) } });
      });
    return () => controller.abort();
    // `fetcher` is deliberately not a dependency: `key` stands for what it fetches.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const mutate = useCallback((update: (data: T) => T) => {
    setSettled((current) =>
      current && current.resource.status === 'success'
        ? { key: current.key, resource: { status: 'success', data: update(current.resource.data) } }
        : current,
    );
  }, []);
  const resource: Resource<T> = settled?.key === requestKey ? settled.resource : LOADING;
  return { resource, retry, mutate };
}
