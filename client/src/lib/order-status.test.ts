import { describe, expect, it } from 'vitest';
import { orderStatusLabel, orderStatusTone } from './order-status.ts';

describe('orderStatusLabel', () => {
  it('words every status of the escrow lifecycle', () => {
    const words = { awaiting_payment: 'Awaiting payment', in_transit: 'In transit', released: 'Released' };
    for (const [status, label] of Object.entries(words)) expect(orderStatusLabel(status), status).toBe(label);
  });

  it('words statuses it does not know yet instead of showing codes', () => {
    expect(orderStatusLabel('on_hold')).toBe('On hold');
    expect(orderStatusLabel('')).toBe('Unknown');
  });

  it('groups statuses into tones for the badge colour', () => {
    const tones = { awaiting_payment: 'pending', disputed: 'problem', released: 'done' };
    for (const [status, tone] of Object.entries(tones)) expect(orderStatusTone(status), status).toBe(tone);
  });
});
