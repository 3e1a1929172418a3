import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  applyListingChange,
  parseListingQuery,
  toSearchParams,
  type ListingChange,
  type ListingQuery,
} from '../lib/listing-query.ts';

/**
 * The listing query lives in the URL (`?search=&filter=&sort=&page=`, defaults omitted),
 * so links are shareable and Back/Forward walk through earlier queries.
 */
export function useListingQuery(): [ListingQuery, (change: ListingChange) => void] {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseListingQuery(params), [params]);
  // The router draws a new URL as a transition, so a second change can come before the screen
  // has the first one (a category, then at once a sort): it must build on the first, not on the
  // query last drawn. Kept until the URL drawn changes.
  const asked = useRef<{ drawn: URLSearchParams; query: ListingQuery } | null>(null);

  const update = useCallback(
    (change: ListingChange) => {
      const current = asked.current?.drawn === params ? asked.current.query : query;
      const next = applyListingChange(current, change);
      asked.current = { drawn: params, query: next };
      // Each change is a history entry; the page keeps its scroll position
      // (the pager scrolls to the results itself).
      setParams(toSearchParams(next), { preventScrollReset: true });
    },
    [params, query, setParams],
  );

  return [query, update];
}
