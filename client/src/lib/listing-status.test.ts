import { describe, expect, it } from 'vitest';
import { canWithdraw, isListingLocked, listingLockedReason, listingStatusLabel, listingStatusTone } from './listing-status.ts';

describe('listing status', () => {
  it('names every status a seller sees', () => {
    expect(['draft', 'active', 'pending', 'sold', 'ended', 'withdrawn'].map(listingStatusLabel)).toEqual([
      'Draft',
      'On the market',
      'Sale pending',
      'Sold',
      'Auction ended',
      'Withdrawn',
    ]);
    expect(listingStatusLabel('archived')).toBe('Archived');
    expect(listingStatusTone('active')).toBe('done');
    expect(listingStatusTone('mystery')).toBe('closed');
  });

  it('locks a listing once an escrow order holds the money, or after withdrawal, as the server does', () => {
    for (const status of ['pending', 'sold', 'withdrawn']) expect(isListingLocked(status), status).toBe(true);
    for (const status of ['draft', 'active', 'ended']) expect(isListingLocked(status), status).toBe(false);
    expect(listingLockedReason('pending')).toBe('An escrow order holds the payment for this car, so the listing can no longer be changed.');
    expect(listingLockedReason('withdrawn')).toBe('This listing was withdrawn and can no longer be changed.');
    expect(listingLockedReason('active')).toBeNull();
  });

  it('offers Withdraw only where the server allows it', () => {
    expect(['draft', 'active', 'ended'].every(canWithdraw)).toBe(true);
    expect(['pending', 'sold', 'withdrawn'].some(canWithdraw)).toBe(false);
  });
});
