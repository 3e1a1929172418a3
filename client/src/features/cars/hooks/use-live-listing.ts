import { useEffect } from 'react';
import type { CarListItem } from '../api/get-cars.ts';
import { watchCars } from '../stores/listing-live-store.ts';

/**
 * Subscribes to live counters for the cars on screen; re-subscribes when a new snapshot of them
 * arrives (which also re-seeds their auctions), stops on unmount.
 */
export function useLiveListing(cars: readonly CarListItem[] | null): void {
  useEffect(() => {
    watchCars(
      (cars ?? []).map((car) => ({
        id: car.id,
        auction: car.auction ? { endsAt: car.auction.endsAt, currentBids: car.current_bids, ended: car.auction.ended } : null,
      })),
    );
    return () => watchCars([]);
  }, [cars]);
}
