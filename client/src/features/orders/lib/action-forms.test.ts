import { describe, expect, it } from 'vitest';
import { cancelBody, cancelReasonError, disputeReasonError, shipmentBody, validateShipment } from './action-forms.ts';

describe('shipment form', () => {
  it('needs a carrier and a tracking number, not just spaces', () => {
    expect(validateShipment({ carrier: '', trackingNumber: '  ' })).toEqual({
      carrier: 'Enter the carrier that is transporting the car.',
      trackingNumber: 'Enter the tracking number the carrier gave you.',
    });
    expect(validateShipment({ carrier: 'Reliable Carriers', trackingNumber: 'RC-1' })).toEqual({});
  });

  it('allows up to 100 characters each, counted as characters', () => {
    expect(validateShipment({ carrier: 'x'.repeat(100), trackingNumber: '🚗'.repeat(100) })).toEqual({});
    expect(validateShipment({ carrier: 'x'.repeat(101), trackingNumber: 'ok' }).carrier).toBe('Use at most 100 characters.');
  });

  it('sends trimmed values', () => {
    expect(shipmentBody({ carrier: '  Reliable ', trackingNumber: ' RC-1 ' })).toEqual({ carrier: 'Reliable', trackingNumber: 'RC-1' });
  });
});

describe('dispute reason', () => {
  it('is required and at most 2,000 characters', () => {
    expect(disputeReasonError('   ')).toMatch(/^Describe what is wrong/);
    expect(disputeReasonError('The paint does not match the listing.')).toBeNull();
    expect(disputeReasonError('x'.repeat(2_000))).toBeNull();
    expect(disputeReasonError('x'.repeat(2_001))).toBe('Use at most 2,000 characters.');
  });
});

describe('cancellation reason', () => {
  it('is optional, at most 500 characters, and left out when empty', () => {
    expect(cancelReasonError('')).toBeNull();
    expect(cancelReasonError('x'.repeat(501))).toBe('Use at most 500 characters.');
    expect(cancelBody('  ')).toEqual({});
    expect(cancelBody(' Found another car ')).toEqual({ reason: 'Found another car' });
  });
});
