import { describe, expect, it } from 'vitest';
import { UseCounts } from './use-counts.ts';

describe('UseCounts', () => {
  it('lets the first opener start a thing and the last closer stop it', () => {
    const counts = new UseCounts<number>();
    expect(counts.open(7)).toBe(true);
    expect(counts.open(7)).toBe(false);
    expect(counts.open(8)).toBe(true);
    expect([...counts.keys()]).toEqual([7, 8]);
    expect(counts.close(7)).toBe(false);
    expect(counts.has(7)).toBe(true);
    expect(counts.close(7)).toBe(true);
    expect(counts.has(7)).toBe(false);
    expect([...counts.keys()]).toEqual([8]);
  });
});
