import { detailsByField } from '../../../lib/field-errors.ts';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type ChannelChoice,
  type NotificationChannel,
  type NotificationEvent,
  type Preferences,
  type PreferencesUpdate,
} from '../api/notification-types.ts';

/** Each event as the Notifications page names it, with what it covers. */
export const EVENT_LABELS: Record<NotificationEvent, { label: string; hint: string }> = {
  bid_received: { label: 'Bids on your cars', hint: 'Every bid placed on a car you sell' },
  question_received: { label: 'Questions on your cars', hint: 'Messages posted on a car you sell' },
  reply_received: { label: 'Replies to you', hint: 'Someone answers a message of yours' },
  offer_received: { label: 'Offers and counter-offers', hint: 'An offer or counter made to you' },
  outbid: { label: 'Outbid', hint: 'Someone bids above your lead' },
  auction_ending: { label: 'Auctions ending soon', hint: 'An hour and ten minutes before an auction you watch or bid on ends' },
  auction_won: { label: 'Auctions you win', hint: 'You are the winner when an auction ends' },
  order_update: { label: 'Order updates', hint: 'Every step of an escrow order you are part of' },
  saved_search: { label: 'Saved-search matches', hint: 'New cars for a saved search (each search’s own alert setting still applies)' },
  price_drop: { label: 'Price drops', hint: 'A car on your watchlist gets cheaper' },
  moderation: { label: 'Moderation', hint: 'A message of yours is removed' },
};

export const CHANNEL_LABELS: Record<NotificationChannel, string> = { inApp: 'In-app', email: 'Email', push: 'Push' };

/** How a channel reads in a sentence: "Bids on your cars by email". */
const CHANNEL_PHRASES: Record<NotificationChannel, string> = { inApp: 'in the app', email: 'by email', push: 'by push notification' };
export const cellLabel = (event: NotificationEvent, channel: NotificationChannel) => `${EVENT_LABELS[event].label} ${CHANNEL_PHRASES[channel]}`;

export interface PreferencesDraft {
  events: Record<NotificationEvent, ChannelChoice>;
  quietOn: boolean;
  start: string;
  end: string;
  timeZone: string;
}

const QUIET_FIELDS = ['start', 'end', 'timeZone'] as const;
export type QuietField = (typeof QUIET_FIELDS)[number];
export type CellField = `events.${NotificationEvent}.${NotificationChannel}`;
/** Where a problem is shown: a cell, an event's row, a quiet-hours field, or the quiet-hours switch. */
export type PreferencesField = CellField | `events.${NotificationEvent}` | QuietField | 'quietHours';

export const cellField = (event: NotificationEvent, channel: NotificationChannel): CellField => `events.${event}.${channel}`;

const ALL_FIELDS: readonly PreferencesField[] = [
  ...NOTIFICATION_EVENTS.flatMap((event) => [`events.${event}` as const, ...NOTIFICATION_CHANNELS.map((channel) => cellField(event, channel))]),
  'quietHours',
  ...QUIET_FIELDS,
];

/** The browser's own time zone, the picker's default. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every time zone the browser knows (IANA names), with UTC and `current` always among them. */
export function timeZoneNames(current?: string): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set(supported);
  names.add('UTC');
  if (current) names.add(current);
  return [...names].sort((a, b) => a.localeCompare(b));
}

export function isLocked(preferences: Pick<Preferences, 'locked'>, event: NotificationEvent, channel: NotificationChannel): boolean {
  return preferences.locked.some((cell) => cell.event === event && cell.channel === channel);
}

/** The form's values for stored preferences (quiet hours off: the browser's zone, 22:00 to 07:00, ready to turn on). */
export function draftOf(preferences: Preferences, defaultZone = browserTimeZone()): PreferencesDraft {
  const events = Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => [event, { ...{ inApp: true, email: false, push: false }, ...preferences.events[event] }]),
  ) as Record<NotificationEvent, ChannelChoice>;
  const quiet = preferences.quietHours;
  return {
    events,
    quietOn: quiet !== null,
    start: quiet?.start ?? '22:00',
    end: quiet?.end ?? '07:00',
    timeZone: quiet?.timeZone ?? defaultZone,
  };
}

/** What the PUT sends: every event (locked cells as the server holds them) and the quiet hours or null. */
export function updateOf(draft: PreferencesDraft, preferences: Pick<Preferences, 'locked'>): PreferencesUpdate {
  const events = Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => {
      const choice = { ...draft.events[event] };
      for (const channel of NOTIFICATION_CHANNELS) if (isLocked(preferences, event, channel)) choice[channel] = true;
      return [event, choice];
    }),
  ) as Record<NotificationEvent, ChannelChoice>;
  return {
    events,
    quietHours: draft.quietOn ? { start: draft.start.slice(0, 5), end: draft.end.slice(0, 5), timeZone: draft.timeZone.trim() } : null,
  };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * What the form can tell before sending: quiet hours need a start, an end (not the same time)
 * and a zone. Whether the zone is a real one is the server's to say: it answers naming the field.
 */
export function validateDraft(draft: PreferencesDraft): Partial<Record<QuietField, string>> {
  if (!draft.quietOn) return {};
  const found: Partial<Record<QuietField, string>> = {};
  const start = draft.start.slice(0, 5);
  const end = draft.end.slice(0, 5);
  if (!TIME.test(start)) found.start = 'Enter when quiet hours start, as HH:MM';
  if (!TIME.test(end)) found.end = 'Enter when quiet hours end, as HH:MM';
  else if (start === end) found.end = 'Quiet hours must end at another time than they start';
  if (!draft.timeZone.trim()) found.timeZone = 'Choose your time zone';
  return found;
}

/** The fields in the order the page shows them: the matrix row by row, then the quiet hours. */
export const FIELD_ORDER: readonly PreferencesField[] = ALL_FIELDS;

/**
 * A 400's `details` placed at the page's fields: `events.<event>.<channel>` at its cell,
 * `events.<event>` at its row, `quietHours.start|end|timeZone` at that field.
 */
export function errorsFromDetails(details: unknown): { fields: Partial<Record<PreferencesField, string>>; other: string[] } {
  return detailsByField(details, ALL_FIELDS, (path) => {
    const [head, second, third] = path;
    if (head === 'events' && second) return third ? `events.${second}.${third}` : `events.${second}`;
    if (head === 'quietHours') return second ?? 'quietHours';
    return head;
  });
}
