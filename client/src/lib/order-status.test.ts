import { describe, expect, it } from 'vitest';
import { orderStatusLabel, orderStatusTone } from './order-status.ts';

describe('orderStatusLabel', () => {
  it('words every status of the escrow lifecycle', () => {
    expect(orderStatusLabel('awaiting_payment')).toBe('Awaiting payment');
    expect(orderStatusLabel('in_transit')).toBe('In transit');
    expect(orderStatusLabel('released')).toBe('Released');
  });

  it('words statuses it does not know yet instead of showing codes', () => {
    expect(orderStatusLabel('on_hold')).toBe('On hold');
    expect(orderStatusLabel('')).toBe('Unknown');
  });

  it('groups statuses into tones for the badge colour', () => {
    expect(orderStatusTone('awaiting_payment')).toBe('pending');
    expect(orderStatusTone('disputed')).toBe('problem');
    expect(orderStatusTone('released')).toBe('done');
  });
});
