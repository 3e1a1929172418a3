import { describe, expect, it } from 'vitest';
import { actorLabel, compactJson, dayBoundary, ledgerBalances, parseTypedId, shortHash } from './format.ts';

describe('console formatting', () => {
  it('names the actor by email, or cli', () => {
    expect(actorLabel('cli')).toBe('cli');
    expect(actorLabel({ id: 3, email: 'ops@example.com' })).toBe('ops@example.com');
  });

  it('shows states as one line of JSON, cut when long', () => {
    expect(compactJson({ status: 'disputed' })).toBe('{"status":"disputed"}');
    expect(compactJson(null)).toBe('—');
    const long = compactJson({ text: 'x'.repeat(500) }, 40);
    expect(long).toHaveLength(40);
    expect(long.endsWith('…')).toBe(true);
  });

  it('turns a date field into the start or end of that day', () => {
    const from = new Date(dayBoundary('2026-03-04', 'start')!);
    const to = new Date(dayBoundary('2026-03-04', 'end')!);
    expect([from.getFullYear(), from.getMonth(), from.getDate(), from.getHours()]).toEqual([2026, 2, 4, 0]);
    expect(to.getTime() - from.getTime()).toBe(24 * 3600 * 1000 - 1);
    expect(dayBoundary('', 'start')).toBeUndefined();
    expect(dayBoundary('04/03/2026', 'end')).toBeUndefined();
  });

  it('checks the ledger identity charged = paid out + refunded + held', () => {
    expect(ledgerBalances({ charged: 100, paidOut: 60, refunded: 25, held: 15 })).toBe(true);
    expect(ledgerBalances({ charged: 100, paidOut: 60, refunded: 25, held: 10 })).toBe(false);
  });

  it('reads ids as typed', () => {
    expect(parseTypedId(' 12 ')).toBe(12);
    expect(parseTypedId('#7')).toBe(7);
    expect(parseTypedId('0')).toBeNull();
    expect(parseTypedId('1.5')).toBeNull();
    expect(parseTypedId('99999999999')).toBeNull();
    expect(shortHash('a'.repeat(64))).toHaveLength(12);
  });
});
