/**
 * "just now", "5 min ago", "3 h ago", "2 days ago", then a date ("Mar 4, 2025").
 * `now` is a parameter so callers (and tests) control the clock.
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return formatDate(iso);
}

const dateFormatter = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormatter = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const timeFormatter = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** "Mar 4, 2025" (the calendar date as stored, in UTC). */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : dateFormatter.format(time);
}

/** "Mar 4, 2025, 3:07 PM" in the viewer's time zone (for tooltips). */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : dateTimeFormatter.format(time);
}

/** "3:07 PM" today, otherwise "Mar 4, 3:07 PM", in the viewer's time zone. */
export function formatMessageTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const sameDay = new Date(time).toDateString() === new Date(now).toDateString();
  if (sameDay) return timeFormatter.format(time);
  return `${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }).format(time)}, ${timeFormatter.format(time)}`;
}
