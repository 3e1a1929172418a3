import { describe, expect, it, vi } from 'vitest';
import { oncePerKey } from './once-per-key.ts';

describe('oncePerKey', () => {
  it('runs once per key and shares the result (StrictMode mounts twice)', async () => {
    const run = vi.fn(async (key: string) => `verified ${key}`);
    const verify = oncePerKey(run);
    const first = verify('tok-1');
    const second = verify('tok-1');
    expect(second).toBe(first);
    await expect(second).resolves.toBe('verified tok-1');
    expect(run).toHaveBeenCalledTimes(1);

    await verify('tok-2');
    expect(run).toHaveBeenCalledTimes(2);
  });
});
