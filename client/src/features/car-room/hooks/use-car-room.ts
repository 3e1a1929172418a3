import { useEffect } from 'react';
import type { CarRoom } from '../stores/car-room-merge.ts';
import { closeRoom, openRoom, useCarRoomStore } from '../stores/car-room-store.ts';

/** Opens the car's room while the screen is mounted (live join + snapshots) and returns its state. */
export function useCarRoom(carId: number | null): CarRoom | undefined {
  useEffect(() => {
    if (carId === null) return;
    openRoom(carId);
    return () => closeRoom(carId);
  }, [carId]);
  return useCarRoomStore((s) => (carId === null ? undefined : s.rooms[carId]));
}
