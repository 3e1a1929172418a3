import { useSyncExternalStore } from 'react';
import { secondsLeft, showsExtended } from './auction-countdown.ts';
import { serverOffset } from './server-clock.ts';

/**
 * One shared ticker for every countdown on screen. Each countdown reads the whole seconds left
 * on every tick, but React re-renders it only when that number changes: once a second for the
 * countdowns, never for the page around them. The ticker runs only while a countdown is mounted.
 */
const TICK_MS = 200;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const notify of [...listeners]) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Whole seconds left until `endsAt` on the server's clock (corrected for this device's); null without an end. */
export function useSecondsLeft(endsAt: string | null): number | null {
  return useSyncExternalStore(
    subscribe,
    () => (endsAt === null ? null : secondsLeft(endsAt, Date.now(), serverOffset())),
    () => null,
  );
}

/** True while "Extended" should show for an extension seen at `extendedAt` (local ms). */
export function useShowsExtended(extendedAt: number | null | undefined): boolean {
  return useSyncExternalStore(
    subscribe,
    () => showsExtended(extendedAt, Date.now()),
    () => false,
  );
}
