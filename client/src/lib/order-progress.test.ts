import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '@common/order-lifecycle.ts';
import { isFinalOrderStatus, nextStepText, orderRole, roleLabel } from './order-progress.ts';

describe('orderRole', () => {
  it('is the buyer when the order was placed by the viewer, otherwise the seller', () => {
    expect(orderRole({ buyerId: 7 }, 7)).toBe('buyer');
    expect(orderRole({ buyerId: 7 }, 8)).toBe('seller');
    expect(roleLabel('buyer')).toBe('You are buying');
    expect(roleLabel('seller')).toBe('You are selling');
  });
});

describe('nextStepText', () => {
  it('names the party the order waits on, as "you" for the viewer', () => {
    expect(nextStepText({ status: 'funded', waitingOn: 'seller' }, 'buyer')).toBe('Waiting for the seller to ship the car');
    expect(nextStepText({ status: 'funded', waitingOn: 'seller' }, 'seller')).toBe('Waiting for you to ship the car');
    expect(nextStepText({ status: 'awaiting_payment', waitingOn: 'buyer' }, 'buyer')).toBe('Waiting for you to pay into escrow');
    expect(nextStepText({ status: 'awaiting_payment', waitingOn: 'buyer' }, 'seller')).toBe('Waiting for the buyer to pay into escrow');
    expect(nextStepText({ status: 'in_transit', waitingOn: 'buyer' }, 'seller')).toBe('Waiting for the buyer to confirm delivery of the car');
    expect(nextStepText({ status: 'inspection', waitingOn: 'buyer' }, 'buyer')).toBe(
      'Waiting for you to inspect the car, then accept it or open a dispute',
    );
  });

  it('words the moves nobody but the system or the escrow team makes', () => {
    expect(nextStepText({ status: 'accepted', waitingOn: 'system' }, 'seller')).toBe('The funds are being released to you');
    expect(nextStepText({ status: 'accepted', waitingOn: 'system' }, 'buyer')).toBe('The funds are being released to the seller');
    expect(nextStepText({ status: 'disputed', waitingOn: 'operator' }, 'buyer')).toBe('Waiting for our escrow team to resolve the dispute');
  });

  it('says how a finished order ended', () => {
    expect(nextStepText({ status: 'released', waitingOn: null }, 'seller')).toBe('Complete: the funds were released to you');
    expect(nextStepText({ status: 'released', waitingOn: null }, 'buyer')).toBe('Complete: the funds were released to the seller');
    expect(nextStepText({ status: 'refunded', waitingOn: null }, 'buyer')).toBe('Closed: your payment was refunded to you');
    expect(nextStepText({ status: 'refunded', waitingOn: null }, 'seller')).toBe('Closed: the buyer was refunded');
    expect(nextStepText({ status: 'cancelled', waitingOn: null }, 'seller')).toBe('Closed: this order was cancelled');
  });

  it('falls back to the lifecycle table when the order does not say whom it waits on', () => {
    expect(nextStepText({ status: 'funded' }, 'seller')).toBe('Waiting for you to ship the car');
    expect(nextStepText({ status: 'released' }, 'buyer')).toMatch(/^Complete/);
  });

  it('has words for every status and role, never a code', () => {
    for (const status of ORDER_STATUSES) {
      for (const role of ['buyer', 'seller'] as const) {
        const text = nextStepText({ status }, role);
        expect(text).not.toMatch(/_|undefined|null|\bact\b/);
        expect(isFinalOrderStatus(status)).toBe(/^(Complete|Closed)/.test(text));
      }
    }
  });
});
