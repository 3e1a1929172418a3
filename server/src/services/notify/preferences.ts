import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../../db/client.ts';
import { notificationPreferences } from '../../../../db/schema/index.ts';
import {
  DEFAULT_EVENT_CHOICES,
  isLocked,
  isTimeZone,
  LOCKED_CELLS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type EventChoices,
  type NotificationEvent,
  type QuietHours,
} from '@common/notifications.ts';
import type { Preferences, PreferencesUpdate } from '@common/schemas/notifications.ts';
import { validationFailed, type FieldIssue } from '../../lib/errors.ts';

type Overrides = (typeof notificationPreferences.$inferSelect)['events'];

export interface UserChoices {
  events: EventChoices;
  quietHours: QuietHours | null;
}

function merged(overrides: Overrides): EventChoices {
  return Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => {
      const choice = { ...DEFAULT_EVENT_CHOICES[event], ...(overrides[event] ?? {}) };
      // A locked cell is on whatever was stored.
      for (const channel of NOTIFICATION_CHANNELS) if (isLocked(event, channel)) choice[channel] = true;
      return [event, choice];
    }),
  ) as EventChoices;
}

function choicesOf(row: typeof notificationPreferences.$inferSelect | undefined): UserChoices {
  if (!row) return { events: merged({}), quietHours: null };
  return {
    events: merged(row.events),
    quietHours: row.quietStart && row.quietEnd && row.quietTimeZone ? { start: row.quietStart, end: row.quietEnd, timeZone: row.quietTimeZone } : null,
  };
}

/** Each account's choice of channels per event, and its quiet hours (only what differs from the defaults is stored). */
export class NotificationPreferences {
  constructor(
    private readonly db: Database,
    private readonly secret: string,
  ) {}

  async get(userId: number): Promise<Preferences> {
    const [row] = await this.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    return this.view(choicesOf(row));
  }

  /** What `userIds` chose, read in the caller's transaction. */
  async choicesOf(executor: Executor, userIds: number[]): Promise<Map<number, UserChoices>> {
    const rows = userIds.length === 0 ? [] : await executor.select().from(notificationPreferences).where(inArray(notificationPreferences.userId, userIds));
    const byUser = new Map(rows.map((row) => [row.userId, row]));
    return new Map(userIds.map((id) => [id, choicesOf(byUser.get(id))]));
  }

  /** Any subset of events and channels; every problem is refused before anything changes. */
  async update(userId: number, body: PreferencesUpdate): Promise<Preferences> {
    const issues: FieldIssue[] = [];
    for (const [event, choice] of Object.entries(body.events ?? {}) as [NotificationEvent, Partial<Record<string, boolean>>][]) {
      for (const [channel, on] of Object.entries(choice ?? {})) {
        if (on === false && isLocked(event, channel as (typeof NOTIFICATION_CHANNELS)[number])) {
          issues.push({ field: `events.${event}.${channel}`, message: `events.${event}.${channel} cannot be turned off: an order's steps always reach both parties` });
        }
      }
    }
    const quiet = body.quietHours;
    if (quiet && !isTimeZone(quiet.timeZone)) issues.push({ field: 'quietHours.timeZone', message: `quietHours.timeZone "${quiet.timeZone}" is not a known time zone (IANA names such as Europe/Paris)` });
    if (issues.length > 0) throw validationFailed(issues);

    return this.db.transaction(async (tx) => {
      await tx.insert(notificationPreferences).values({ userId }).onConflictDoNothing();
      const [row] = await tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).for('no key update');
      const events: Overrides = { ...row!.events };
      for (const [event, choice] of Object.entries(body.events ?? {}) as [NotificationEvent, Partial<Record<string, boolean>>][]) {
        const next: Partial<Record<string, boolean>> = { ...(events[event] ?? {}), ...choice };
        // Only what differs from the default is kept, so a later change of default reaches the untouched.
        for (const channel of NOTIFICATION_CHANNELS) if (next[channel] === DEFAULT_EVENT_CHOICES[event][channel]) delete next[channel];
        if (Object.keys(next).length === 0) delete events[event];
        else events[event] = next;
      }
      const quietSet = quiet === undefined ? {} : { quietStart: quiet?.start ?? null, quietEnd: quiet?.end ?? null, quietTimeZone: quiet?.timeZone ?? null };
      const [updated] = await tx
        .update(notificationPreferences)
        .set({ events, ...quietSet, updatedAt: sql`now()` })
        .where(eq(notificationPreferences.userId, userId))
        .returning();
      return this.view(choicesOf(updated));
    });
  }

  /** The one-click unsubscribe of an email: its event's email turned off (locked cells stay on). */
  async unsubscribe(token: string): Promise<{ event: NotificationEvent }> {
    const found = this.verify(token);
    if (!found) throw validationFailed([{ field: 'token', message: 'This unsubscribe link is not valid' }]);
    if (!isLocked(found.event, 'email')) await this.update(found.userId, { events: { [found.event]: { email: false } } });
    return { event: found.event };
  }

  sign(userId: number, event: NotificationEvent): string {
    return `${userId}.${event}.${this.mac(userId, event)}`;
  }

  private verify(token: string): { userId: number; event: NotificationEvent } | null {
    const match = /^([1-9]\d{0,9})\.([a-z_]{1,30})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match || !(NOTIFICATION_EVENTS as readonly string[]).includes(match[2]!)) return null;
    const userId = Number(match[1]);
    const event = match[2] as NotificationEvent;
    const expected = Buffer.from(this.mac(userId, event));
    const given = Buffer.from(match[3]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, event } : null;
  }

  private mac(userId: number, event: NotificationEvent): string {
    return createHmac('sha256', this.secret).update(`notification-unsubscribe:${userId}:${event}`).digest('base64url');
  }

  private view(choices: UserChoices): Preferences {
    return { events: choices.events, quietHours: choices.quietHours, locked: LOCKED_CELLS.map((cell) => ({ ...cell })) };
  }
}
