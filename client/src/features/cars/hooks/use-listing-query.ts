import { useCallback, useMemo } from 'react';
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

  const update = useCallback(
    (change: ListingChange) => {
      // Each change is a history entry; the page keeps its scroll position
      // (the pager scrolls to the results itself).
      setParams(toSearchParams(applyListingChange(query, change)), { preventScrollReset: true });
    },
    [query, setParams],
  );

  return [query, update];
}
