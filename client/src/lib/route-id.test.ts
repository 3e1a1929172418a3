import { describe, expect, it } from 'vitest';
import { parseRouteId } from './route-id.ts';

describe('parseRouteId', () => {
  it('reads a positive id written in plain digits', () => {
    expect(parseRouteId('12')).toBe(12);
    expect(parseRouteId('1')).toBe(1);
    expect(parseRouteId('007')).toBe(7);
    expect(parseRouteId('2147483647')).toBe(2_147_483_647);
  });

  it('refuses anything else', () => {
    for (const raw of [undefined, null, '', '0', '-1', '+1', '1.5', '1e3', ' 12', '12 ', '0x10', 'abc', '12abc', '2147483648', '99999999999']) {
      expect(parseRouteId(raw), String(raw)).toBeNull();
    }
  });
});
