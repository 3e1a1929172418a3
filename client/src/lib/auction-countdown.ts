/**
 * Countdown arithmetic for timed auctions, kept pure so it can be tested without a clock.
 *
 * The server decides every auction by its own clock; a browser only shows how long is left. A
 * browser's clock may be minutes off, so the time left is measured on the server's clock as
 * the browser estimates it: local time + offset, where offset = the server's `serverTime` minus
 * the local time its answer arrived (see server-clock.ts). Reaching zero here decides nothing:
 * it only shows "Ended" until the server's close (REST or `auction:ended`) says how it ended.
 */

/** The last five minutes are urgent. */
export const URGENT_SECONDS = 5 * 60;
/** How long "Extended" stays up after a late bid moved the end. */
export const EXTENDED_NOTICE_MS = 30_000;

/** Milliseconds since the epoch for an ISO time; null when unreadable. */
export function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
}

/**
 * How far the server's clock is ahead of this browser's (negative: behind): its `serverTime`
 * minus the local time its answer arrived. Null for an unreadable time.
 */
export function clockOffset(serverTime: string, receivedAt: number): number | null {
  const server = timeOf(serverTime);
  return server === null || !Number.isFinite(receivedAt) ? null : server - receivedAt;
}

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

/** The countdown for a number of whole seconds left. */
export function countdownView(seconds: number): CountdownView {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  if (total === 0) return { seconds: 0, text: 'Ended', spoken: 'Ended', urgent: false, ended: true };
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const secs = total % 60;
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
