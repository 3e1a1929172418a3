import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, count, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../../../db/client.ts';
import { cars, noticeWindows, notificationNotices, notificationPreferences, pushDeliveries, pushSubscriptions, users } from '../../../../db/schema/index.ts';
import { ErrorCode } from '@common/error-codes.ts';
import {
  AUCTION_CLOCK_EVENTS,
  inQuietHours,
  MAX_PUSH_PAYLOAD_BYTES,
  MAX_PUSH_SUBSCRIPTIONS,
  NEVER_HELD_EVENTS,
  quietHoursEnd,
  URGENT_PUSH_EVENTS,
  type NotificationEvent,
} from '@common/notifications.ts';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import type { PushPayload, PushSubscriptionBody, PushSubscriptionSummary } from '@common/schemas/notifications.ts';
import { conflict, validationFailed } from '../../lib/errors.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import { notificationEmail } from '../mail-templates.ts';
import type { Mailer } from '../mailer.ts';
import type { NewNotification } from '../notifications.ts';
import { endpointProblem, isExemptHost, keyBytes, publicOnlyLookup } from './push-endpoints.ts';
import type { NotificationPreferences } from './preferences.ts';

interface PushJob {
  subscriptionId: number;
  /** Names this push for good: a rerun of its job finds it in push_deliveries and does not push again. */
  deliveryId: string;
  payload: PushPayload;
  urgency: 'normal' | 'high';
  topic?: string;
  attempt?: number;
}

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    'notify.dispatch': { userId: number; event: NotificationEvent };
    'push.send': PushJob;
  }
}

export interface DeliveryOptions {
  db: Database;
  jobs: JobRunner;
  mailer: Mailer;
  preferences: NotificationPreferences;
  log: FastifyBaseLogger;
  appUrl: string;
  coalesceSeconds: number;
  push: { publicKey: string; privateKey: string; subject: string; allowedHosts: string[] };
}

/** How long a push service keeps an undelivered push for a sleeping device (RFC 8030 TTL). */
const PUSH_TTL_SECONDS = 24 * 3_600;
const PUSH_RETRY_BASE_MS = 1_000;
const PUSH_RETRY_MAX_MS = 10 * 60_000;
const PUSH_MAX_ATTEMPTS = 12;
const PUSH_TIMEOUT_MS = 15_000;

/** What a batch of several notices of one event is called ("3 more bids on your …"). */
const NOUNS: Record<NotificationEvent, [string, string]> = {
  bid_received: ['bid', 'bids on your'],
  question_received: ['message', 'messages about your'],
  reply_received: ['reply', 'replies on the'],
  offer_received: ['offer', 'offers for your'],
  outbid: ['outbid', 'times outbid on the'],
  auction_ending: ['notice', 'auction notices for the'],
  auction_won: ['win', 'auctions won:'],
  order_update: ['update', 'order updates for the'],
  saved_search: ['match', 'saved-search matches:'],
  price_drop: ['change', 'price changes of the'],
  moderation: ['notice', 'moderation notices on the'],
};

const EVENT_WORDS: Record<NotificationEvent, string> = {
  bid_received: 'bids on your cars',
  question_received: 'questions about your cars',
  reply_received: 'replies to your messages',
  offer_received: 'offers for your cars',
  outbid: 'being outbid',
  auction_ending: 'auctions ending',
  auction_won: 'auctions you won',
  order_update: 'your orders',
  saved_search: 'saved-search matches',
  price_drop: 'price drops',
  moderation: 'moderation',
};

type NoticeRow = typeof notificationNotices.$inferSelect;

/**
 * Email and Web Push of notifications, through the outbox. A notification's notice is written in
 * the transaction that creates the notification, with a dispatch job; the dispatch (one user and
 * event at a time, under the user's preferences row lock) gathers what is due into one batch,
 * respecting the coalescing window per car and the quiet hours, stamps the notices and queues
 * the batch's mail and pushes in the same transaction. So each goes out once, across restarts
 * and processes; a push job names its delivery, so a rerun does not push twice.
 */
export class NotificationDelivery {
  private readonly httpsAgent = new https.Agent({ keepAlive: true, lookup: publicOnlyLookup as never });
  private readonly httpAgent = new http.Agent({ keepAlive: true });

  constructor(private readonly o: DeliveryOptions) {
    o.jobs.define({ name: 'notify.dispatch', concurrency: 2, handle: ({ userId, event }) => this.dispatch(userId, event) });
    o.jobs.define({ name: 'push.send', concurrency: 4, expireInSeconds: 60, handle: (job, { log }) => this.push(job, log) });
  }

  get publicKey(): string {
    return this.o.push.publicKey;
  }

  // ---- Subscriptions -------------------------------------------------------------------------

  async subscribe(userId: number, body: PushSubscriptionBody): Promise<{ id: number; created: boolean }> {
    const issues = [];
    const problem = await endpointProblem(body.endpoint, this.o.push.allowedHosts);
    if (problem) issues.push({ field: 'endpoint', message: problem });
    const p256dh = keyBytes(body.keys.p256dh);
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 4) issues.push({ field: 'keys.p256dh', message: 'keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)' });
    const auth = keyBytes(body.keys.auth);
    if (!auth || auth.length !== 16) issues.push({ field: 'keys.auth', message: 'keys.auth must be 16 bytes, base64url' });
    if (issues.length > 0) throw validationFailed(issues);

    return this.o.db.transaction(async (tx) => {
      await this.lockUser(tx, userId);
      const [existing] = await tx.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, body.endpoint));
      if (existing) {
        // The same device again (or handed to another account on a shared browser): its keys and owner are the latest.
        await tx.update(pushSubscriptions).set({ userId, p256dh: body.keys.p256dh, auth: body.keys.auth }).where(eq(pushSubscriptions.id, existing.id));
        if (existing.userId === userId) return { id: existing.id, created: false };
      }
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      if (n > MAX_PUSH_SUBSCRIPTIONS || (!existing && n >= MAX_PUSH_SUBSCRIPTIONS)) {
        throw conflict(ErrorCode.TOO_MANY_SUBSCRIPTIONS, `At most ${MAX_PUSH_SUBSCRIPTIONS} devices receive notifications; remove one in Settings first`);
      }
      if (existing) return { id: existing.id, created: false };
      const [row] = await tx.insert(pushSubscriptions).values({ userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth }).returning({ id: pushSubscriptions.id });
      return { id: row!.id, created: true };
    });
  }

  async list(userId: number): Promise<PushSubscriptionSummary[]> {
    const rows = await this.o.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(asc(pushSubscriptions.id));
    return rows.map((row) => ({ id: row.id, endpointHost: hostOf(row.endpoint), createdAt: row.createdAt.toISOString(), lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null }));
  }

  /** Removes the user's own subscription with that endpoint (another's is left alone; either way 200). */
  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    await this.o.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  }

  /** A test push to each of the user's devices. */
  async test(userId: number): Promise<number> {
    const subs = await this.o.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    const batch = randomUUID();
    const payload: PushPayload = { title: 'LuxeMotors notifications are on', body: 'This device will show bids, questions and auction news as they happen.', url: '/dashboard/settings', event: 'test', carId: null };
    await this.o.jobs.enqueueMany(
      this.o.db,
      'push.send',
      subs.map((s) => ({ subscriptionId: s.id, deliveryId: `${batch}:${s.id}`, payload, urgency: 'normal' as const })),
    );
    this.o.jobs.wake('push.send');
    return subs.length;
  }

  // ---- Recording notices (in the transaction that causes them) --------------------------------

  /** Called by NotificationsService.create with the rows it inserted, in the same transaction. */
  async record(tx: Executor, items: NewNotification[], notificationIds: number[]): Promise<void> {
    const wanted = items.map((item, i) => ({ item, id: notificationIds[i]! })).filter(({ item }) => item.delivery !== false);
    if (wanted.length === 0) return;
    const choices = await this.o.preferences.choicesOf(tx, [...new Set(wanted.map(({ item }) => item.userId))]);
    const notices = wanted.flatMap(({ item, id }) => {
      const choice = choices.get(item.userId)!.events[item.event];
      const delivery = item.delivery || {};
      const email = choice.email && delivery.email !== false;
      if (!email && !choice.push) return [];
      return [
        {
          userId: item.userId,
          event: item.event,
          carId: item.carId ?? null,
          notificationId: id,
          email: email ? ('yes' as const) : ('no' as const),
          push: choice.push ? ('yes' as const) : ('no' as const),
          title: item.title,
          message: item.message,
          url: delivery.url ?? (item.carId ? carPath(item.carId) : '/dashboard'),
          amount: delivery.amount ?? null,
          auctionEndsAt: delivery.auctionEndsAt ?? null,
        },
      ];
    });
    if (notices.length === 0) return;
    await tx.insert(notificationNotices).values(notices);
    const keys = [...new Map(notices.map((n) => [`${n.userId}:${n.event}`, { userId: n.userId, event: n.event }])).values()];
    await this.o.jobs.enqueueMany(tx, 'notify.dispatch', keys);
  }

  /** After the commit: dispatch without waiting for the next poll. */
  wake(): void {
    this.o.jobs.wake('notify.dispatch');
  }

  /**
   * The user's quiet hours changed (turned off, or moved): what they were holding is looked at
   * again now, under the new hours, instead of at the old end. A dispatch already queued for the
   * old end later finds nothing left.
   */
  async quietHoursChanged(userId: number): Promise<void> {
    const held = await this.o.db
      .selectDistinct({ event: notificationNotices.event })
      .from(notificationNotices)
      .where(and(eq(notificationNotices.userId, userId), isNull(notificationNotices.batchId)));
    if (held.length === 0) return;
    await this.o.jobs.enqueueMany(
      this.o.db,
      'notify.dispatch',
      held.map(({ event }) => ({ userId, event })),
    );
    this.wake();
  }

  // ---- Dispatch: coalescing, quiet hours, one batch -------------------------------------------

  private async lockUser(tx: Transaction, userId: number): Promise<typeof notificationPreferences.$inferSelect> {
    await tx.insert(notificationPreferences).values({ userId }).onConflictDoNothing();
    const [row] = await tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).for('no key update');
    return row!;
  }

  async dispatch(userId: number, event: NotificationEvent): Promise<void> {
    const queued = await this.o.db.transaction(async (tx) => {
      const prefs = await this.lockUser(tx, userId);
      const pending = await tx
        .select()
        .from(notificationNotices)
        .where(and(eq(notificationNotices.userId, userId), eq(notificationNotices.event, event), isNull(notificationNotices.batchId)))
        .orderBy(asc(notificationNotices.id));
      if (pending.length === 0) return { mail: false, push: false };
      const now = new Date();
      const quiet = prefs.quietStart && prefs.quietEnd && prefs.quietTimeZone ? { start: prefs.quietStart, end: prefs.quietEnd, timeZone: prefs.quietTimeZone } : null;
      const quietUntil = quiet && !NEVER_HELD_EVENTS.includes(event) && inQuietHours(quiet, now) ? quietHoursEnd(quiet, now) : null;

      const windows = await tx.select().from(noticeWindows).where(and(eq(noticeWindows.userId, userId), eq(noticeWindows.event, event)));
      const lastSent = new Map(windows.map((w) => [w.carKey, w.lastSentAt]));
      const due: NoticeRow[] = [];
      let nextAt: number | null = null;
      for (const notice of pending) {
        const carKey = notice.carId ?? 0;
        const windowEnd = (lastSent.get(carKey)?.getTime() ?? 0) + this.o.coalesceSeconds * 1000;
        // An auction that ends before the quiet hours do: its outbid and ending notices cannot wait.
        const beatsQuiet = AUCTION_CLOCK_EVENTS.includes(event) && notice.auctionEndsAt !== null && quietUntil !== null && notice.auctionEndsAt < quietUntil;
        const heldUntil = Math.max(windowEnd, quietUntil && !beatsQuiet ? quietUntil.getTime() : 0);
        if (heldUntil <= now.getTime()) due.push(notice);
        else nextAt = Math.min(nextAt ?? Infinity, heldUntil);
      }
      if (nextAt !== null) await this.o.jobs.enqueue(tx, 'notify.dispatch', { userId, event }, { startAfter: new Date(nextAt + 250) });
      if (due.length === 0) return { mail: false, push: false };

      const batchId = randomUUID();
      await tx.update(notificationNotices).set({ batchId, sentAt: now }).where(inArray(notificationNotices.id, due.map((n) => n.id)));
      for (const carKey of new Set(due.map((n) => n.carId ?? 0))) {
        await tx
          .insert(noticeWindows)
          .values({ userId, event, carKey, lastSentAt: now })
          .onConflictDoUpdate({ target: [noticeWindows.userId, noticeWindows.event, noticeWindows.carKey], set: { lastSentAt: now } });
      }
      const message = await this.compose(tx, event, due, (carKey) => lastSent.has(carKey) && !quietUntil);
      const wantsMail = due.some((n) => n.email === 'yes');
      const wantsPush = due.some((n) => n.push === 'yes');
      let mail = false;
      if (wantsMail) {
        const [user] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
        if (user) {
          await this.o.mailer.send(this.email(userId, user, event, message, batchId), tx);
          mail = true;
        }
      }
      let push = false;
      if (wantsPush) {
        const subs = await tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
        const carId = message.carId;
        await this.o.jobs.enqueueMany(
          tx,
          'push.send',
          subs.map((s) => ({
            subscriptionId: s.id,
            deliveryId: `${batchId}:${s.id}`,
            payload: { title: message.title, body: message.body, url: message.url, event, carId },
            urgency: URGENT_PUSH_EVENTS.includes(event) ? ('high' as const) : ('normal' as const),
            // A device that wakes gets the latest outbid of a car, not each one.
            ...(event === 'outbid' && carId !== null ? { topic: `outbid-car-${carId}` } : {}),
          })),
        );
        push = subs.length > 0;
      }
      return { mail, push };
    });
    if (queued.mail) this.o.mailer.wake();
    if (queued.push) this.o.jobs.wake('push.send');
  }

  /** One notice as it is; several as one message saying how many and the highest. */
  private async compose(
    tx: Transaction,
    event: NotificationEvent,
    due: NoticeRow[],
    afterFirst: (carKey: number) => boolean,
  ): Promise<{ title: string; body: string; url: string; carId: number | null }> {
    const first = due[0]!;
    if (due.length === 1) return { title: first.title, body: first.message, url: first.url, carId: first.carId };
    const carIds = [...new Set(due.map((n) => n.carId))];
    const amounts = due.map((n) => n.amount).filter((a): a is number => a !== null);
    const highest = amounts.length > 0 ? `, the highest ${formatUsd(Math.max(...amounts))}` : '';
    const [singular, plural] = NOUNS[event];
    if (carIds.length === 1 && first.carId !== null) {
      const [car] = await tx.select({ year: cars.year, make: cars.make, model: cars.model }).from(cars).where(eq(cars.id, first.carId));
      const name = car ? `${car.year} ${car.make} ${car.model}` : 'car';
      const more = afterFirst(first.carId) ? 'more ' : '';
      const body = `${due.length} ${more}${plural} ${name}${highest}`;
      return { title: `${due.length} ${more}${singular === 'outbid' ? 'outbids' : `${singular}s`}: ${name}`, body, url: first.url, carId: first.carId };
    }
    const body = `${due.length} ${plural} ${carIds.length} cars${highest}`;
    return { title: `${due.length} ${singular === 'outbid' ? 'outbids' : `${singular}s`} while you were away`, body, url: '/dashboard', carId: null };
  }

  private email(userId: number, user: { email: string; name: string }, event: NotificationEvent, message: { title: string; body: string; url: string }, batchId: string) {
    const token = this.o.preferences.sign(userId, event);
    return notificationEmail(
      user.email,
      message.title,
      [`Hello ${user.name},`, message.body],
      { label: 'Open LuxeMotors', url: `${this.o.appUrl}${message.url}` },
      {
        pageUrl: `${this.o.appUrl}/dashboard/settings?unsubscribe=${encodeURIComponent(token)}`,
        oneClickUrl: `${this.o.appUrl}/api/users/notification-preferences/unsubscribe?token=${encodeURIComponent(token)}`,
        what: EVENT_WORDS[event],
      },
      `notice-${batchId}`,
    );
  }

  // ---- Web Push ------------------------------------------------------------------------------

  private async push(job: PushJob, log: FastifyBaseLogger): Promise<void> {
    const [done] = await this.o.db.select({ at: pushDeliveries.deliveredAt }).from(pushDeliveries).where(eq(pushDeliveries.deliveryId, job.deliveryId));
    if (done) return;
    const [sub] = await this.o.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, job.subscriptionId));
    if (!sub) return;
    const body = JSON.stringify(job.payload);
    if (Buffer.byteLength(body) > MAX_PUSH_PAYLOAD_BYTES) {
      log.error({ deliveryId: job.deliveryId }, 'push payload too large; not sent');
      return;
    }
    let status: number;
    let retryAfter: string | undefined;
    try {
      // Loaded with the first push rather than at start.
      const { default: webpush } = await import('web-push');
      const request = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, body, {
        vapidDetails: { subject: this.o.push.subject, publicKey: this.o.push.publicKey, privateKey: this.o.push.privateKey },
        TTL: PUSH_TTL_SECONDS,
        urgency: job.urgency,
        contentEncoding: 'aes128gcm',
        ...(job.topic ? { topic: job.topic } : {}),
      });
      ({ status, retryAfter } = await this.post(request.endpoint, request.headers as Record<string, string | number>, request.body as Buffer));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EPRIVATEADDRESS') {
        log.warn({ err: error, subscriptionId: sub.id }, 'push endpoint now resolves to a private address; not sent');
        return;
      }
      return this.again(job, log, error, undefined);
    }
    if (status >= 200 && status < 300) {
      await this.o.db.insert(pushDeliveries).values({ deliveryId: job.deliveryId }).onConflictDoNothing();
      await this.o.db.update(pushSubscriptions).set({ lastSuccessAt: sql`now()` }).where(eq(pushSubscriptions.id, sub.id));
      await this.prune();
      return;
    }
    if (status === 404 || status === 410) {
      await this.o.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      log.info({ subscriptionId: sub.id, status }, 'push subscription gone; removed');
      return;
    }
    if (status === 429 || status >= 500) return this.again(job, log, new Error(`push service answered ${status}`), retryAfter);
    log.error({ subscriptionId: sub.id, status }, 'push refused by the push service; not retried');
  }

  private post(endpoint: string, headers: Record<string, string | number>, body: Buffer): Promise<{ status: number; retryAfter?: string }> {
    const url = new URL(endpoint);
    const exempt = isExemptHost(url, this.o.push.allowedHosts);
    const client = url.protocol === 'http:' && exempt ? http : https;
    const agent = url.protocol === 'http:' ? this.httpAgent : exempt ? undefined : this.httpsAgent;
    return new Promise((resolve, reject) => {
      const request = client.request(url, { method: 'POST', headers, ...(agent ? { agent } : {}), timeout: PUSH_TIMEOUT_MS }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ...(typeof response.headers['retry-after'] === 'string' ? { retryAfter: response.headers['retry-after'] } : {}) }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error('push service did not answer in time')));
      request.on('error', reject);
      request.end(body);
    });
  }

  /** A push the service could not take now: queued again with a doubling delay (or its Retry-After), up to a limit. */
  private async again(job: PushJob, log: FastifyBaseLogger, error: unknown, retryAfter: string | undefined): Promise<void> {
    const attempt = (job.attempt ?? 0) + 1;
    if (attempt >= PUSH_MAX_ATTEMPTS) {
      log.error({ err: error, deliveryId: job.deliveryId, attempts: attempt }, 'push undeliverable; given up');
      return;
    }
    const asked = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
    const delay = Math.min(asked ?? PUSH_RETRY_BASE_MS * 2 ** (attempt - 1) * (1 + Math.random() / 4), PUSH_RETRY_MAX_MS);
    await this.o.jobs.enqueue(this.o.db, 'push.send', { ...job, attempt }, { startAfter: new Date(Date.now() + delay) });
    log.warn({ err: error, deliveryId: job.deliveryId, attempt, retryInMs: Math.round(delay) }, 'push not accepted; it will be tried again');
  }

  private lastPrune = 0;

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 3_600_000) return;
    this.lastPrune = Date.now();
    await this.o.db
      .delete(pushDeliveries)
      .where(lt(pushDeliveries.deliveredAt, sql`now() - interval '7 days'`))
      .catch(() => undefined);
  }
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}
