import type { CarStatus } from '../api/car-room-api.ts';

export interface CarStatusNotice {
  /** Short label for the badge beside the title. */
  badge: string;
  /** What it means for someone who wants the car. */
  text: string;
  tone: 'pending' | 'sold' | 'closed';
}

/** How the car page explains a listing that is not on sale; null for an active one. */
export function carStatusNotice(status: CarStatus | string | undefined): CarStatusNotice | null {
  switch (status) {
    case undefined:
    case 'active':
      return null;
    case 'pending':
      return {
        badge: 'Sale pending',
        text: "A buyer's payment for this car is held in escrow. Bids and new orders are closed while the sale completes.",
        tone: 'pending',
      };
    case 'draft':
      return { badge: 'Draft', text: 'This listing is not published yet: only you can see it. Publish it to open bidding.', tone: 'closed' };
    case 'sold':
      return { badge: 'Sold', text: 'This car has been sold through our escrow service.', tone: 'sold' };
    case 'ended':
      return { badge: 'Auction ended', text: 'The auction for this car has ended. Bids and orders are closed.', tone: 'closed' };
    default:
      return { badge: 'No longer listed', text: 'The seller has taken this car off the market. Bids and orders are closed.', tone: 'closed' };
  }
}
