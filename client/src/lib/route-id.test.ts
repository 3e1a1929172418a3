import { describe, expect, it } from 'vitest';
import { parseRouteId } from './route-id.ts';

describe('parseRouteId', () => {
  it('reads a positive id written in plain digits', () => {
    for (const [raw, id] of [['12', 12], ['1', 1], ['007', 7], ['2147483647', 2_147_483_647]] as const) {
      expect(parseRouteId(raw), raw).toBe(id);
    }
  });

  it('refuses anything else', () => {
    for (const raw of [undefined, null, '', '0', '-1', '+1', '1.5', '1e3', ' 12', '12 ', '0x10', 'abc', '12abc', '2147483648', '99999999999']) {
      expect(parseRouteId(raw), String(raw)).toBeNull();
    }
  });
});
