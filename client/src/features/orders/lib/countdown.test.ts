import { describe, expect, it } from 'vitest';
import { formatCountdown, msUntil, orderDeadline } from './countdown.ts';

describe('formatCountdown', () => {
  it('shows the two largest units that matter', () => {
    expect(formatCountdown((2 * 86_400 + 4 * 3_600 + 59) * 1000)).toBe('2 days 4 h');
    expect(formatCountdown(86_400 * 1000)).toBe('1 day');
    expect(formatCountdown((3 * 3_600 + 12 * 60 + 5) * 1000)).toBe('3 h 12 min');
    expect(formatCountdown((4 * 60 + 5) * 1000)).toBe('4 min 05 s');
    expect(formatCountdown(45_000)).toBe('45 s');
  });

  it('rounds up to the second and stops at zero', () => {
    expect(formatCountdown(1)).toBe('1 s');
    expect(formatCountdown(59_001)).toBe('1 min 00 s');
    expect(formatCountdown(0)).toBe('0 s');
    expect(formatCountdown(-5_000)).toBe('0 s');
    expect(formatCountdown(Number.NaN)).toBe('0 s');
  });
});

describe('orderDeadline', () => {
  const times = { paymentDueAt: '2025-01-04T10:00:00.000Z', inspectionEndsAt: '2025-01-12T10:00:00.000Z' };

  it('runs against the payment window, then the inspection period, and nothing else', () => {
    expect(orderDeadline({ ...times, status: 'awaiting_payment' })).toEqual({ kind: 'payment', at: times.paymentDueAt });
    expect(orderDeadline({ ...times, status: 'inspection' })).toEqual({ kind: 'inspection', at: times.inspectionEndsAt });
    expect(orderDeadline({ ...times, status: 'inspection', inspectionEndsAt: null })).toBeNull();
    for (const status of ['funded', 'in_transit', 'accepted', 'disputed', 'released', 'cancelled', 'refunded'] as const) {
      expect(orderDeadline({ ...times, status })).toBeNull();
    }
  });

  it('msUntil measures from the given clock', () => {
    expect(msUntil('2025-01-01T00:00:10.000Z', Date.parse('2025-01-01T00:00:00.000Z'))).toBe(10_000);
    expect(msUntil('not a time', 0)).toBe(0);
  });
});
