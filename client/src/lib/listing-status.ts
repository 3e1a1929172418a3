import type { OrderStatusTone } from './order-status.ts';

/** A listing's status (contract `CarDetail.status`, plus `draft`) as its seller reads it. */
const LABELS: Record<string, string> = {
  draft: 'Draft',
  active: 'On the market',
  pending: 'Sale pending',
  sold: 'Sold',
  ended: 'Auction ended',
  withdrawn: 'Withdrawn',
  hidden: 'Hidden by LuxeMotors',
};

const TONES: Record<string, OrderStatusTone> = {
  draft: 'pending',
  active: 'done',
  pending: 'active',
  sold: 'closed',
  ended: 'closed',
  withdrawn: 'closed',
  hidden: 'problem',
};

export function listingStatusLabel(status: string): string {
  return LABELS[status] ?? (status ? status[0]!.toUpperCase() + status.slice(1) : 'Unknown');
}

export function listingStatusTone(status: string): OrderStatusTone {
  return TONES[status] ?? 'closed';
}

/** Statuses in which the seller can no longer change the listing (the server answers 409 LISTING_LOCKED). */
export function isListingLocked(status: string): boolean {
  return status === 'pending' || status === 'sold' || status === 'withdrawn';
}

/** Why a locked listing cannot change, in the server's words; null when it can. */
export function listingLockedReason(status: string): string | null {
  if (status === 'withdrawn') return 'This listing was withdrawn and can no longer be changed.';
  if (status === 'pending' || status === 'sold') {
    return 'An escrow order holds the payment for this car, so the listing can no longer be changed.';
  }
  return null;
}

/** Whether the seller can still take the listing off the market. */
export function canWithdraw(status: string): boolean {
  return status === 'draft' || status === 'active' || status === 'ended';
}
