import { describe, expect, it } from 'vitest';
import { availableActions } from './actions.ts';

describe('availableActions', () => {
  it('offers each party only its own moves, as the lifecycle table allows them', () => {
    expect(availableActions({ status: 'awaiting_payment' }, 'buyer')).toEqual(['pay', 'cancel']);
    expect(availableActions({ status: 'awaiting_payment' }, 'seller')).toEqual(['cancel']);
    expect(availableActions({ status: 'funded' }, 'seller')).toEqual(['ship']);
    expect(availableActions({ status: 'funded' }, 'buyer')).toEqual([]);
    expect(availableActions({ status: 'in_transit' }, 'buyer')).toEqual(['confirm-delivery']);
    expect(availableActions({ status: 'inspection' }, 'buyer')).toEqual(['accept', 'dispute']);
    expect(availableActions({ status: 'inspection' }, 'seller')).toEqual([]);
  });

  it('offers nothing once the system, the escrow team or nobody moves next', () => {
    for (const status of ['accepted', 'disputed', 'released', 'refunded', 'cancelled'] as const) {
      expect(availableActions({ status }, 'buyer')).toEqual([]);
      expect(availableActions({ status }, 'seller')).toEqual([]);
    }
  });
});
