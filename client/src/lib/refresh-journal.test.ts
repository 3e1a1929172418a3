import { describe, expect, it } from 'vitest';
import { MAX_SPENT_TOKENS, recordRotation, rotatedPair } from './refresh-journal.ts';

describe('recordRotation', () => {
  it('chains the spent tokens of one session, newest first', () => {
    const first = recordRotation(null, 't0', { accessToken: 'a1', refreshToken: 't1' });
    expect(first).toEqual({ accessToken: 'a1', refreshToken: 't1', spent: ['t0'] });
    const second = recordRotation(first, 't1', { accessToken: 'a2', refreshToken: 't2' });
    expect(second).toEqual({ accessToken: 'a2', refreshToken: 't2', spent: ['t1', 't0'] });
  });

  it('starts over for another session', () => {
    const old = { accessToken: 'a1', refreshToken: 't1', spent: ['t0'] };
    expect(recordRotation(old, 'x0', { accessToken: 'b1', refreshToken: 'x1' }).spent).toEqual(['x0']);
  });

  it('keeps a bounded history', () => {
    let record = recordRotation(null, 't0', { accessToken: 'a', refreshToken: 't1' });
    for (let i = 1; i < 50; i += 1) record = recordRotation(record, `t${i}`, { accessToken: 'a', refreshToken: `t${i + 1}` });
    expect(record.spent).toHaveLength(MAX_SPENT_TOKENS);
    expect(record.spent[0]).toBe('t49');
  });
});

describe('rotatedPair', () => {
  const record = { accessToken: 'a2', refreshToken: 't2', spent: ['t1', 't0'] };

  it('gives the current pair for any token of the chain already exchanged', () => {
    expect(rotatedPair(record, 't0')).toEqual({ accessToken: 'a2', refreshToken: 't2' });
    expect(rotatedPair(record, 't1')).toEqual({ accessToken: 'a2', refreshToken: 't2' });
  });

  it('gives nothing for the current token, an unknown one, or no record', () => {
    expect(rotatedPair(record, 't2')).toBeNull();
    expect(rotatedPair(record, 'zz')).toBeNull();
    expect(rotatedPair(null, 't0')).toBeNull();
  });
});
