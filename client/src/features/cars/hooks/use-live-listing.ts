import { useEffect } from 'react';
import { watchCars } from '../stores/listing-live-store.ts';

/** Subscribes to live counters for the cars on screen; re-subscribes when they change, stops on unmount. */
export function useLiveListing(carIds: readonly number[]): void {
  const key = carIds.join(',');
  useEffect(() => {
    watchCars(key ? key.split(',').map(Number) : []);
    return () => watchCars([]);
  }, [key]);
}
