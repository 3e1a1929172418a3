import { describe, expect, it } from 'vitest';
import { isRecordId, MAX_ID, parseId } from './ids.ts';

describe('parseId', () => {
  it('reads a positive id written in plain digits', () => {
    for (const [raw, id] of [['12', 12], ['1', 1], ['42', 42], ['007', 7], ['2147483647', 2_147_483_647]] as const) {
      expect(parseId(raw), raw).toBe(id);
    }
  });

  it('refuses anything else', () => {
    for (const raw of [undefined, null, '', '0', '-1', '+1', '1.5', '1e3', ' 12', '12 ', '0x10', 'abc', '12abc', '2147483648', '99999999999']) {
      expect(parseId(raw), String(raw)).toBeNull();
    }
  });
});

describe('isRecordId', () => {
  it('takes whole numbers from 1 to the largest id, nothing else', () => {
    for (const id of [1, 12, MAX_ID]) expect(isRecordId(id), String(id)).toBe(true);
    for (const value of [0, -1, 1.5, MAX_ID + 1, Number.NaN, '12', null, undefined]) expect(isRecordId(value), String(value)).toBe(false);
  });
});
