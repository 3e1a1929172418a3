import { useSyncExternalStore } from 'react';
import { serverOffset, timeOf } from './server-clock.ts';

/**
 * Every countdown on screen: an auction's end, the day to accept a bid below the reserve, an
 * order's payment window and inspection period.
 *
 * The server decides every deadline by its own clock; a browser only shows how long is left. A
 * browser's clock may be minutes off, so the time left is measured on the server's clock as the
 * browser estimates it (local time + the offset held by server-clock.ts). Reaching zero here
 * decides nothing: the screen waits for the server to say what happened.
 */

/** The last five minutes are urgent. */
export const URGENT_SECONDS = 5 * 60;
/** How long "Extended" stays up after a late bid moved the end. */
export const EXTENDED_NOTICE_MS = 30_000;

/** Whole seconds left until `endsAt` on the server's clock (rounded up), never below 0. */
export function secondsLeft(endsAt: string, localNow: number, offsetMs: number): number {
  const end = timeOf(endsAt);
  if (end === null) return 0;
  const left = end - (localNow + offsetMs);
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Milliseconds until the shown countdown next changes (the next whole second), at least 1. */
export function msToNextSecond(endsAt: string, localNow: number, offsetMs: number): number {
  const end = timeOf(endsAt);
  if (end === null) return 1_000;
  const left = end - (localNow + offsetMs);
  if (left <= 0) return 1_000;
  const rest = left % 1000;
  return rest === 0 ? 1_000 : rest;
}

export interface CountdownView {
  /** Whole seconds left. */
  seconds: number;
  /** What the countdown shows: "2d 4h", "3h 12m", "12:04", "0:09", or "Ended". */
  text: string;
  /** The same for screen readers: "2 days 4 hours left", "12 minutes 4 seconds left", "Ended". */
  spoken: string;
  /** The last five minutes. */
  urgent: boolean;
  ended: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface Parts {
  total: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function parts(seconds: number): Parts {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return {
    total,
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
  };
}

/** The compact countdown (auctions) for a number of whole seconds left. */
export function countdownView(seconds: number): CountdownView {
  const { total, days, hours, minutes, seconds: secs } = parts(seconds);
  if (total === 0) return { seconds: 0, text: 'Ended', spoken: 'Ended', urgent: false, ended: true };
  let text: string;
  let spoken: string;
  if (days > 0) {
    text = `${days}d ${hours}h`;
    spoken = hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  } else if (hours > 0) {
    text = `${hours}h ${minutes}m`;
    spoken = minutes > 0 ? `${plural(hours, 'hour')} ${plural(minutes, 'minute')}` : plural(hours, 'hour');
  } else {
    text = `${minutes}:${String(secs).padStart(2, '0')}`;
    spoken = minutes > 0 ? (secs > 0 ? `${plural(minutes, 'minute')} ${plural(secs, 'second')}` : plural(minutes, 'minute')) : plural(secs, 'second');
  }
  return { seconds: total, text, spoken: `${spoken} left`, urgent: total <= URGENT_SECONDS, ended: false };
}

/**
 * The time left in a sentence (order deadlines), to the precision that matters: "2 days 4 h",
 * "3 h 12 min", "4 min 05 s", "45 s"; "0 s" once it has passed.
 */
export function timeLeftText(seconds: number): string {
  const { days, hours, minutes, seconds: secs } = parts(seconds);
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${hours} h` : plural(days, 'day');
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${String(secs).padStart(2, '0')} s`;
  return `${secs} s`;
}

/** True when `next` moves the end later than `previous` (a late bid extended the auction). */
export function isExtension(previous: string | null | undefined, next: string | null | undefined): boolean {
  const before = timeOf(previous);
  const after = timeOf(next);
  return before !== null && after !== null && after > before;
}

/** The later of two ends (an auction's end only ever moves later); either may be missing. */
export function laterEnd(a: string | null | undefined, b: string | null | undefined): string | null {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta === null) return tb === null ? null : b!;
  if (tb === null) return a!;
  return tb > ta ? b! : a!;
}

/** Whether "Extended" still shows at `localNow` for an extension seen at `extendedAt` (local ms). */
export function showsExtended(extendedAt: number | null | undefined, localNow: number): boolean {
  return extendedAt !== null && extendedAt !== undefined && localNow >= extendedAt && localNow - extendedAt < EXTENDED_NOTICE_MS;
}

/** "Extended 1 time", "Extended 3 times"; null when never extended. */
export function extensionsText(extensions: number): string | null {
  if (!Number.isFinite(extensions) || extensions <= 0) return null;
  return `Extended ${extensions} ${extensions === 1 ? 'time' : 'times'}`;
}

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
