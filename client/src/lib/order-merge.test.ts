import { describe, expect, it } from 'vitest';
import { compareOrderVersions, mergeOrder, mergeOrderList } from './order-merge.ts';
import { sampleOrderWithEvents } from './order-fixture.ts';

const order = sampleOrderWithEvents;

const funded = order({
  status: 'funded',
  waitingOn: 'seller',
  updatedAt: '2025-01-01T11:00:00.000Z',
  events: [...order().events, { id: 2, from: 'awaiting_payment', to: 'funded', actor: 'buyer', note: null, at: '2025-01-01T11:00:00.000Z' }],
});

describe('mergeOrder', () => {
  it('takes a newer copy and keeps the held one over an older copy', () => {
    expect(mergeOrder(order(), funded)).toBe(funded);
    const held = funded;
    expect(mergeOrder(held, order())).toBe(held);
  });

  it('takes the first copy when none is held, and another order as it comes', () => {
    expect(mergeOrder(null, funded)).toBe(funded);
    const other = order({ id: 2 });
    expect(mergeOrder(funded, other)).toBe(other);
  });

  it('orders copies with the same time by their number of events', () => {
    const sameTime = order({ updatedAt: funded.updatedAt });
    expect(compareOrderVersions(sameTime, funded)).toBeLessThan(0);
    expect(mergeOrder(funded, sameTime)).toBe(funded);
  });

  it('sees a refund landing (no new event, same time) as newer, and never goes back to pending', () => {
    const pending = order({ status: 'refunded', refund: { amount: 100_399, reference: null, status: 'pending', settledAt: null } });
    const settled = order({ status: 'refunded', refund: { amount: 100_399, reference: 'RF-1', status: 'settled', settledAt: '2025-01-01T10:00:05.000Z' } });
    expect(mergeOrder(pending, settled)).toBe(settled);
    expect(mergeOrder(settled, pending)).toBe(settled);
  });

  it('keeps the held object when the copy carries the same data (no needless re-render)', () => {
    const held = order();
    expect(mergeOrder(held, order())).toBe(held);
  });
});

describe('mergeOrderList', () => {
  it('merges by id, newest first, keeping newer entries', () => {
    const older = order({ id: 5, createdAt: '2024-12-01T00:00:00.000Z' });
    const list = mergeOrderList([funded], [older, order()]);
    expect(list.map((o) => [o.id, o.status])).toEqual([
      [1, 'funded'],
      [5, 'awaiting_payment'],
    ]);
    expect(mergeOrderList(list, [order()])).toBe(list);
  });
});
