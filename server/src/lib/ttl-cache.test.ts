import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('loads once for concurrent misses and serves hits until expiry', async () => {
    const cache = new TtlCache<number>(50);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return loads;
    };
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual([1, 1, 1]);
    expect(await cache.get('k', load)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not cache failures', async () => {
    const cache = new TtlCache<number>(1_000);
    await expect(cache.get('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const cache = new TtlCache<string>(1_000, 2);
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });

  it('passes straight through with a zero lifetime', async () => {
    const cache = new TtlCache<number>(0);
    let n = 0;
    await cache.get('k', async () => ++n);
    expect(await cache.get('k', async () => ++n)).toBe(2);
  });

  it('serves a value `keep` refuses to the loads waiting for it, and loads afresh next time', async () => {
    const cache = new TtlCache<number>(1_000);
    let n = 0;
    const load = async () => ++n;
    const refuseOdd = (value: number) => value % 2 === 0;
    expect(await Promise.all([cache.get('k', load, refuseOdd), cache.get('k', load, refuseOdd)])).toEqual([1, 1]);
    expect(await cache.get('k', load, refuseOdd)).toBe(2);
    expect(await cache.get('k', load, refuseOdd)).toBe(2);
  });

  it('forgets the keys it is told, and never keeps a load that began before', async () => {
    const cache = new TtlCache<string>(1_000);
    await cache.get('car/1', async () => 'one');
    await cache.get('car/2', async () => 'two');
    let finishSlowLoad: (value: string) => void = () => undefined;
    let finishOtherLoad: (value: string) => void = () => undefined;
    const slow = cache.get('car/3', () => new Promise<string>((resolve) => (finishSlowLoad = resolve)));
    const other = cache.get('car/2?ref=x', () => new Promise<string>((resolve) => (finishOtherLoad = resolve)));
    cache.forget((key) => key !== 'car/2' && key !== 'car/2?ref=x');
    finishSlowLoad('three, read before the change');
    finishOtherLoad('two with a query');
    expect(await slow).toBe('three, read before the change');
    expect(await other).toBe('two with a query');
    expect(await cache.get('car/2?ref=x', async () => 'reloaded')).toBe('two with a query');
    expect(await cache.get('car/1', async () => 'one again')).toBe('one again');
    expect(await cache.get('car/2', async () => 'two again')).toBe('two');
    expect(await cache.get('car/3', async () => 'three again')).toBe('three again');
  });
});
