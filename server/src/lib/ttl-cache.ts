/**
 * A small in-memory cache with expiry, a size bound (oldest entries go first) and single
 * flight: concurrent misses for one key share one load, so a burst of identical requests costs
 * one query.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
  ) {}

  /** `keep` decides whether a loaded value is held (a value it refuses is served once, not reused). */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise: Promise<V> = load()
      .then((value) => {
        // A load its key was forgotten during may hold what the forgetting was for: not kept.
        if (!keep(value) || this.loading.get(key) !== promise) return value;
        this.entries.delete(key);
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
      });
    this.loading.set(key, promise);
    return promise;
  }

  /** Entries held now, expired ones not yet replaced included. */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every entry whose key `stale` accepts, so the next read loads afresh. */
  forget(stale: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (stale(key)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (stale(key)) this.loading.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
