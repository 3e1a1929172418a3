import { describe, expect, it } from 'vitest';
import { cachedLoad, loadingCache } from './loading-cache.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('loadingCache (lru-cache as the services use it)', () => {
  it('loads once for concurrent misses and serves hits until expiry', async () => {
    const cache = loadingCache<number>(50, 10);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await sleep(10);
      return loads;
    };
    expect(await Promise.all([cachedLoad(cache, 'k', load), cachedLoad(cache, 'k', load), cachedLoad(cache, 'k', load)])).toEqual([1, 1, 1]);
    expect(await cachedLoad(cache, 'k', load)).toBe(1);
    await sleep(60);
    expect(await cachedLoad(cache, 'k', load)).toBe(2);
  });

  it('does not keep failures', async () => {
    const cache = loadingCache<number>(1_000, 10);
    await expect(cachedLoad(cache, 'k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cachedLoad(cache, 'k', async () => 7)).toBe(7);
  });

  it('keeps at most max entries, dropping the least recently used', async () => {
    const cache = loadingCache<string>(1_000, 2);
    await cachedLoad(cache, 'a', async () => 'a1');
    await cachedLoad(cache, 'b', async () => 'b1');
    await cachedLoad(cache, 'c', async () => 'c1');
    expect(cache?.size).toBe(2);
    expect(await cachedLoad(cache, 'a', async () => 'a2')).toBe('a2');
    expect(await cachedLoad(cache, 'c', async () => 'c2')).toBe('c1');
  });

  it('passes straight through with a zero lifetime', async () => {
    const cache = loadingCache<number>(0, 10);
    expect(cache).toBeNull();
    let n = 0;
    await cachedLoad(cache, 'k', async () => ++n);
    expect(await cachedLoad(cache, 'k', async () => ++n)).toBe(2);
  });

  it('serves a load under way when its key is deleted or the cache cleared, but never keeps it', async () => {
    const cache = loadingCache<string>(1_000, 10)!;
    let finishDeleted: (value: string) => void = () => undefined;
    let finishCleared: (value: string) => void = () => undefined;
    const deleted = cachedLoad(cache, 'car/3', () => new Promise<string>((resolve) => (finishDeleted = resolve)));
    const waiting = cachedLoad(cache, 'car/3', async () => 'a second load');
    cache.delete('car/3');
    const cleared = cachedLoad(cache, 'car/4', () => new Promise<string>((resolve) => (finishCleared = resolve)));
    cache.clear();
    finishDeleted('three, read before the change');
    finishCleared('four, read before the change');
    expect(await Promise.all([deleted, waiting, cleared])).toEqual(['three, read before the change', 'three, read before the change', 'four, read before the change']);
    expect(await cachedLoad(cache, 'car/3', async () => 'three again')).toBe('three again');
    expect(await cachedLoad(cache, 'car/4', async () => 'four again')).toBe('four again');
  });
});
