import { CLOCK_TIMING_NAME } from '@common/paths.ts';

/**
 * This browser's estimate of the server's clock, for countdowns: a device clock can be minutes
 * off, and the server decides by its own. One estimate per tab (the skew is the device's).
 *
 * - Exact samples: a car's `serverTime` (its detail answer), offset = serverTime − the local time
 *   the answer arrived. Taken on every read of a car, so a reconnect's re-read re-measures it.
 * - The page's own sample: the server stamps every page of the app with its clock (a
 *   `Server-Timing: clock;desc=<ms>` header, readable from the navigation's timing), so a page
 *   drawn on the server counts down right from its first render, before any API answer.
 * - Coarse samples: the HTTP `Date` header of any API answer (whole seconds), for screens that
 *   read no car detail (the listing, an order). The server's clock read some time within [Date, Date + 1 s)
 *   while the request was out, which bounds the offset. A held estimate inside those bounds is
 *   kept (so countdowns do not jitter); one outside them is stale (the device clock was changed,
 *   or it slept) and gives way to the middle of the bounds.
 */

export interface ClockEstimate {
  /** Milliseconds the server's clock is ahead of this browser's (negative: behind). */
  offsetMs: number;
  /** From a `serverTime` (exact) or from a `Date` header (to about half a second). */
  exact: boolean;
}

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

/** Rounding room when comparing a held estimate with a `Date` header's bounds. */
const DATE_SLACK_MS = 250;

let estimate: ClockEstimate | null = null;

/** The held estimate, or null before any answer came. */
export function clockEstimate(): ClockEstimate | null {
  return estimate;
}

/** Milliseconds to add to `Date.now()` to get the server's time (0 until measured). */
export function serverOffset(): number {
  return estimate?.offsetMs ?? 0;
}

/** The server's time now, as this browser estimates it. */
export function serverNow(localNow: number = Date.now()): number {
  return localNow + serverOffset();
}

/** An answer carrying `serverTime` arrived at `receivedAt` (local ms). */
export function recordServerTime(serverTime: string | null | undefined, receivedAt: number = Date.now()): void {
  if (!serverTime) return;
  const offset = clockOffset(serverTime, receivedAt);
  if (offset !== null) estimate = { offsetMs: offset, exact: true };
}

/**
 * Bounds on the offset from a `Date` header (whole seconds) of a request sent at `sentAt` and
 * answered at `receivedAt` (local ms); null when the header is missing or unreadable.
 */
export function dateHeaderBounds(date: string | null | undefined, sentAt: number, receivedAt: number): { low: number; high: number } | null {
  if (!date) return null;
  const stamped = Date.parse(date);
  if (Number.isNaN(stamped) || receivedAt < sentAt) return null;
  return { low: stamped - receivedAt, high: stamped + 1000 - sentAt };
}

/** The estimate after a `Date` header sample (pure; see the module comment). */
export function withDateSample(
  held: ClockEstimate | null,
  bounds: { low: number; high: number } | null,
): ClockEstimate | null {
  if (!bounds) return held;
  if (held && held.offsetMs >= bounds.low - DATE_SLACK_MS && held.offsetMs <= bounds.high + DATE_SLACK_MS) return held;
  return { offsetMs: Math.round((bounds.low + bounds.high) / 2), exact: false };
}

/** What the browser's navigation timing says of the page: its Server-Timing entries and when its first byte came. */
export interface NavigationSample {
  serverTiming?: readonly { name: string; description: string }[];
  /** Milliseconds after the page's time origin that the answer's first byte arrived. */
  responseStart: number;
}

/**
 * The offset measured by the page itself (pure): the server's stamp minus the local time its
 * first byte arrived, that time read on the same clock as `localNow` (the device's `Date`,
 * whatever it says) through `perfNow`, the page's monotonic clock now. Null without a stamp.
 */
export function documentClockOffset(navigation: NavigationSample | undefined, localNow: number, perfNow: number): number | null {
  const stamp = navigation?.serverTiming?.find((entry) => entry.name === CLOCK_TIMING_NAME)?.description;
  const server = stamp ? Number(stamp) : Number.NaN;
  if (!navigation || !Number.isFinite(server) || !(navigation.responseStart > 0)) return null;
  return server - (localNow - (perfNow - navigation.responseStart));
}

/** Takes the page's own sample, when the browser exposes it: call once, as the app starts. */
export function recordDocumentClock(): void {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const offset = documentClockOffset(navigation, Date.now(), performance.now());
  if (offset !== null) estimate = { offsetMs: offset, exact: true };
}

/** Any API answer's `Date` header, sent at `sentAt` and arrived at `receivedAt` (local ms). */
export function recordServerDate(date: string | null | undefined, sentAt: number, receivedAt: number = Date.now()): void {
  estimate = withDateSample(estimate, dateHeaderBounds(date, sentAt, receivedAt));
}

/** Forgets the estimate (tests). */
export function resetServerClock(): void {
  estimate = null;
}
