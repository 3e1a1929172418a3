import { LRUCache } from 'lru-cache';

/**
 * An lru-cache whose entries each `fetch` loads with the loader it passes as its context.
 * lru-cache's fetch gives concurrent misses of one key one shared load and keeps no failed load;
 * with `ignoreFetchAbort`, a key deleted (or the cache cleared) while its load runs still gets
 * that load's value to the requests waiting for it, but the value is not kept: a load begun
 * before a change is never reused after it. Expired entries are dropped when next asked for or
 * pushed out by newer ones (no timer per entry); `max` bounds them either way.
 */
export type LoadingCache<V extends NonNullable<unknown>> = LRUCache<string, V, () => Promise<V>>;

/** A cache of `max` entries kept `ttlMs` each, or null for a lifetime of 0 (no caching). */
export function loadingCache<V extends NonNullable<unknown>>(ttlMs: number, max: number): LoadingCache<V> | null {
  if (ttlMs <= 0) return null;
  return new LRUCache<string, V, () => Promise<V>>({ max, ttl: ttlMs, ignoreFetchAbort: true, fetchMethod: (_key, _stale, { context }) => context() });
}

/** The value for `key`: the cached one while it is fresh, else what `load` gives. */
export async function cachedLoad<V extends NonNullable<unknown>>(cache: LoadingCache<V> | null, key: string, load: () => Promise<V>): Promise<V> {
  if (!cache) return load();
  // Undefined only when a loader gives undefined, which a LoadingCache's value type rules out.
  return (await cache.fetch(key, { context: load })) as V;
}
