import { durationInWords } from '@common/durations.ts';
import { formatUsd } from '@common/pricing.ts';

/**
 * What the car room says to a screen reader while an auction runs, decided here so the rule can
 * be tested without a browser.
 *
 * Prices: a bidding war may bring several bids a second; reading each one out would drown
 * everything else. The price status speaks at most once every `PRICE_ANNOUNCE_INTERVAL_MS`: the
 * first price at once, then whatever is the latest price when the interval has passed (never a
 * stale one in between). The user's own outbid is spoken every time, at once, in its own region,
 * and counts as the price having been said.
 *
 * The countdown speaks at one minute left, at thirty seconds left and on each soft-close
 * extension, never second by second.
 */

export const PRICE_ANNOUNCE_INTERVAL_MS = 5_000;

export interface PriceAnnouncerState {
  /** When the price status last spoke (ms), or null before it ever did. */
  spokeAt: number | null;
  /** The amount it last said (or the outbid said). */
  spoken: number | null;
  /** A newer price waiting for the interval to pass. */
  pending: number | null;
}

export const INITIAL_PRICE_STATE: PriceAnnouncerState = { spokeAt: null, spoken: null, pending: null };

export type PriceEvent =
  /** A new highest bid was seen. */
  | { type: 'price'; amount: number; at: number }
  /** The user's own bid was overtaken; the highest bid is now `amount`. */
  | { type: 'outbid'; amount: number; at: number }
  /** The timer set from `wakeAt` fired. */
  | { type: 'tick'; at: number };

export interface PriceStep {
  state: PriceAnnouncerState;
  /** What the price status says now (null: nothing). */
  price: string | null;
  /** What the outbid status says now (null: nothing). */
  outbid: string | null;
  /** When to send a `tick` (null: no timer needed). */
  wakeAt: number | null;
}

export const priceSentence = (amount: number) => `Current bid ${formatUsd(amount)}`;
export const outbidSentence = (amount: number) => `You have been outbid: the highest bid is now ${formatUsd(amount)}.`;

/** The next state of the price announcements after `event`, and what to say. */
export function nextPriceAnnouncement(state: PriceAnnouncerState, event: PriceEvent, intervalMs = PRICE_ANNOUNCE_INTERVAL_MS): PriceStep {
  const quiet = (next: PriceAnnouncerState): PriceStep => ({
    state: next,
    price: null,
    outbid: null,
    wakeAt: next.pending !== null && next.spokeAt !== null ? next.spokeAt + intervalMs : null,
  });
  const say = (amount: number, at: number): PriceStep => ({
    state: { spokeAt: at, spoken: amount, pending: null },
    price: priceSentence(amount),
    outbid: null,
    wakeAt: null,
  });

  switch (event.type) {
    case 'outbid': {
      // Said every time; a price waiting that is not newer than this one has been said by it.
      const pending = state.pending !== null && state.pending > event.amount ? state.pending : null;
      const next = { spokeAt: event.at, spoken: event.amount, pending };
      return { ...quiet(next), outbid: outbidSentence(event.amount) };
    }
    case 'price': {
      if (event.amount === state.spoken && state.pending === null) return quiet(state);
      if (state.spokeAt === null || event.at - state.spokeAt >= intervalMs) return say(event.amount, event.at);
      return quiet({ ...state, pending: event.amount });
    }
    case 'tick': {
      if (state.pending === null || state.spokeAt === null) return quiet(state);
      if (event.at - state.spokeAt < intervalMs) return quiet(state);
      if (state.pending === state.spoken) return quiet({ ...state, pending: null });
      return say(state.pending, event.at);
    }
  }
}

/** The countdown's spoken milestones: seconds left at which it speaks once. */
export const COUNTDOWN_MILESTONES = [60, 30] as const;

export interface CountdownAnnouncerState {
  /** Seconds left when last looked at (null before). */
  seconds: number | null;
  /** Extensions counted when last looked at. */
  extensions: number;
}

/**
 * What the countdown says as the seconds left go from `state.seconds` to `seconds`: "1 minute
 * left" when crossing 60, "30 seconds left" when crossing 30, and "Extended: …" when the count of
 * extensions grows (a late bid moved the end), with the time now left. Nothing on other seconds,
 * nothing when the page first shows the countdown.
 */
export function nextCountdownAnnouncement(
  state: CountdownAnnouncerState,
  seconds: number,
  extensions: number,
): { state: CountdownAnnouncerState; say: string | null } {
  const next = { seconds, extensions };
  if (state.seconds === null) return { state: next, say: null };
  if (extensions > state.extensions) return { state: next, say: `A late bid extended the auction: ${durationInWords(seconds)} left.` };
  if (seconds <= 0 && state.seconds > 0) return { state: next, say: 'Time is up: waiting for the result.' };
  const crossed = COUNTDOWN_MILESTONES.find((m) => state.seconds! > m && seconds <= m && seconds > 0);
  if (crossed !== undefined) return { state: next, say: `${durationInWords(crossed)} left.` };
  return { state: next, say: null };
}
