import { describe, expect, it } from 'vitest';
import { orderDeadline } from './deadline.ts';

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
});
