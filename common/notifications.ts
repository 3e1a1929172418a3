/**
 * What a notification is about, where it may go, and what each account gets unless it chose
 * otherwise (contract "Notifications beyond the open tab (v4)"). The preferences schema, the
 * server's delivery and the Settings page all read these lists.
 */

export const NOTIFICATION_EVENTS = [
  'bid_received',
  'question_received',
  'reply_received',
  'offer_received',
  'outbid',
  'auction_ending',
  'auction_won',
  'order_update',
  'saved_search',
  'price_drop',
  'moderation',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_CHANNELS = ['inApp', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export type ChannelChoice = Record<NotificationChannel, boolean>;
export type EventChoices = Record<NotificationEvent, ChannelChoice>;

/** Events that go by email and push unless turned off; every other event is in-app only, except `saved_search`. */
const EMAIL_AND_PUSH: readonly NotificationEvent[] = ['bid_received', 'question_received', 'offer_received', 'outbid', 'auction_ending', 'auction_won', 'order_update'];

export const DEFAULT_EVENT_CHOICES: EventChoices = Object.fromEntries(
  NOTIFICATION_EVENTS.map((event) => [
    event,
    { inApp: true, email: EMAIL_AND_PUSH.includes(event) || event === 'saved_search', push: EMAIL_AND_PUSH.includes(event) },
  ]),
) as EventChoices;

/** Cells nobody can turn off: an order's steps always reach the parties in the app and by email. */
export const LOCKED_CELLS: readonly { event: NotificationEvent; channel: NotificationChannel }[] = [
  { event: 'order_update', channel: 'inApp' },
  { event: 'order_update', channel: 'email' },
];

export function isLocked(event: NotificationEvent, channel: NotificationChannel): boolean {
  return LOCKED_CELLS.some((cell) => cell.event === event && cell.channel === channel);
}

/** Events whose message speaks for a car an auction decides, and may go out during quiet hours when the auction ends first. */
export const AUCTION_CLOCK_EVENTS: readonly NotificationEvent[] = ['outbid', 'auction_ending'];
/** Events never held by quiet hours. */
export const NEVER_HELD_EVENTS: readonly NotificationEvent[] = ['order_update'];

/** `Urgency: high` for these pushes (RFC 8030 §5.3); the rest are `normal`. */
export const URGENT_PUSH_EVENTS: readonly NotificationEvent[] = ['outbid', 'auction_ending'];

/** At most this many push subscriptions (devices) per account. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
/** A push payload stays under this many bytes of JSON (a push service takes about 4 KB after encryption). */
export const MAX_PUSH_PAYLOAD_BYTES = 3_000;

/** "HH:MM", 00:00 to 23:59. */
export const QUIET_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Whether `name` is an IANA time zone this runtime knows ("Europe/Paris"; not "Mars/Base"). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export interface QuietHours {
  start: string;
  end: string;
  timeZone: string;
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The wall-clock minute of the day of `at` in `timeZone`. */
const clocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: Date, timeZone: string): { minute: number } {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    clocks.set(timeZone, clock);
  }
  const parts = clock.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minute: get('hour') * 60 + get('minute') };
}

/** Whether `at` falls inside the quiet hours (a window may run across midnight: 22:00 to 07:00). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const { minute } = wallClock(at, quiet.timeZone);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * The first instant at or after `at` that is outside the quiet hours (`at` itself when it is not
 * inside them). The wall clock's distance to `end` gives a first guess; a daylight-saving jump
 * (an hour missing or repeated) moves it, so it is then corrected a minute at a time.
 */
export function quietHoursEnd(quiet: QuietHours, at: Date): Date {
  if (!inQuietHours(quiet, at)) return at;
  const minute = 60_000;
  const { minute: now } = wallClock(at, quiet.timeZone);
  const ahead = (minutesOf(quiet.end) - now + 1440) % 1440;
  let t = new Date(Math.floor(at.getTime() / minute) * minute + ahead * minute);
  for (let i = 0; i < 180 && inQuietHours(quiet, t); i++) t = new Date(t.getTime() + minute);
  for (let i = 0; i < 180 && t.getTime() - minute > at.getTime() && !inQuietHours(quiet, new Date(t.getTime() - minute)); i++) t = new Date(t.getTime() - minute);
  return t;
}
