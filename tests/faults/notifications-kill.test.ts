import { inArray } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { notificationNotices, notifications } from '../../db/schema/index.ts';
import { startTestApp } from '../helpers/app.ts';
import { signedIn } from '../helpers/api.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { insertListing } from '../helpers/escrow.ts';
import { PushReceiver, type PushDevice } from '../helpers/push-receiver.ts';
import { http, insertAccounts, signIn, type Account } from '../helpers/server-database.ts';
import { ServerProcesses, canRunTwoProcesses } from '../helpers/server-process.ts';
import { TestMailbox, type ReceivedMail } from '../helpers/smtp.ts';
import { TcpGate } from '../helpers/tcp-gate.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { jobsDone } from '../helpers/wait.ts';

/**
 * Notifications by email and Web Push across a `kill -9` (issue 31, contract "Notifications
 * beyond the open tab (v4)": "each push and email is sent once, across restarts and
 * processes"). Two server processes share PostgreSQL and Redis; bids through both make bid and
 * outbid notices due; one process is killed with SIGKILL while it has pushes and mails in
 * flight (sent to the push service and the mail server, not yet answered: both hold them) and
 * gathered notices still waiting for their window; the survivor takes over the dead one's runs.
 * Every push is counted at the push receiver, every email at the SMTP server: each exactly once.
 *
 * What no sender can promise, and this test does not ask: a push or mail the receiver accepted
 * in the moment before the kill, before its sender recorded the answer, is sent again by the
 * survivor (the outbox is at-least-once there; an email keeps its Message-ID). The receivers here
 * hold their answers while the kill lands, so nothing is accepted by a process about to die.
 * What a kill after the answer was recorded leaves, a push job run again, is the first case
 * (on any database); the mail outbox's own is in tests/integration/mail-outbox.test.ts.
 */

const SECRET = 'notifications-kill-secret-0123456789abcdefghij';
/** One car per seller. */
const SELLERS = 8;
const PRICE = 100_000;
/** Three bids per car, each beating the last by the increment below $100,000. */
const AMOUNTS = [50_000, 50_500, 51_000];

const servers = new ServerProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await servers.killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `notice-<batch>` of a notification email (its Message-ID), or null for any other mail. */
const noticeIdOf = (mail: ReceivedMail) => /^Message-ID: <(notice-[0-9a-f-]{36})@[^>]+>$/im.exec(mail.headers)?.[1] ?? null;

describe('a push job run again after the push service took its push', () => {
  it('does not push it again (a process killed after the answer, before its job was marked done)', async () => {
    const receiver = await new PushReceiver().start();
    cleanups.push(() => receiver.stop());
    const t = await startTestApp({ PUSH_ENDPOINT_HOSTS_ALLOWED: receiver.host });
    cleanups.push(() => t.close());
    const user = await signedIn(t);
    const phone = await receiver.device((await user.get<{ publicKey: string }>('/api/push/public-key')).data.publicKey);
    const subscribed = await user.post<{ id: number }>('/api/push/subscriptions', phone.subscription);
    expect(subscribed.status, subscribed.body).toBe(201);
    const job = {
      subscriptionId: subscribed.data.id,
      deliveryId: `rerun-${Date.now()}`,
      payload: { title: 'Rerun', body: 'Pushed once', url: '/dashboard', event: 'test' as const, carId: null },
      urgency: 'normal' as const,
    };
    for (let run = 0; run < 2; run++) {
      await t.app.jobs.enqueue(t.app.db, 'push.send', job);
      t.app.jobs.wake('push.send');
      await jobsDone(t, 'push.send');
    }
    expect(receiver.accepted(phone.hash)).toHaveLength(1);
    expect(await receiver.messages(phone.hash)).toEqual([job.payload]);
  });
});

const twoProcesses = canRunTwoProcesses('notifications-kill');

describe.skipIf(!twoProcesses)('a kill -9 while pushes and emails are due, two processes on PostgreSQL and Redis', () => {
  it('delivers every push and every email exactly once, counted at the push receiver and the SMTP server', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    // On each car two bidders of its own lose the lead (each is outbid once, on that car) and one
    // bidder, the same on every car, ends leading: every push a device gets names another car or
    // amount, so a push received twice shows.
    const accounts = await insertAccounts(database.db, [
      ...Array.from({ length: SELLERS }, (_, i) => `Kill Seller ${i + 1}`),
      ...Array.from({ length: SELLERS * 2 }, (_, i) => `Kill Bidder ${i + 1}`),
      'Kill Leader',
    ]);
    const sellers = accounts.slice(0, SELLERS);
    const losers = accounts.slice(SELLERS, SELLERS * 3);
    const leader = accounts.at(-1)!;
    const cars: { id: number; seller: Account; bidders: Account[] }[] = [];
    for (const [i, seller] of sellers.entries()) cars.push({ ...(await insertListing(database.db, seller, { price: PRICE })), seller, bidders: [losers[2 * i]!, losers[2 * i + 1]!, leader] });

    const mailbox = new TestMailbox();
    await mailbox.start();
    cleanups.push(() => mailbox.stop());
    const gate = new TcpGate(mailbox.port);
    const smtp = await gate.start();
    cleanups.push(() => gate.stop());
    const receiver = await new PushReceiver().start();
    cleanups.push(() => receiver.stop());
    // Both hold what they are sent from the start: pushes unanswered, SMTP connections ungreeted.
    receiver.hold();
    await gate.hold();

    // One VAPID key pair for both processes (else each would generate its own in its data folder).
    const vapid = webpush.generateVAPIDKeys();
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: `lmtest-notify-kill-${process.pid}`,
      JWT_SECRET: SECRET,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      SMTP_URL: `smtp://${smtp}`,
      PUSH_ENDPOINT_HOSTS_ALLOWED: receiver.host,
      MAIL_RETRY_SECONDS: '1',
      JOB_POLL_SECONDS: '0.5',
      NOTIFY_COALESCE_SECONDS: '3',
    };
    const [a, b] = await servers.startPair(env, 'notify-kill');
    const tokens = new Map(await Promise.all(accounts.map(async (account) => [account.id, await signIn(a.url, account)] as const)));
    const devices = new Map<number, PushDevice>();
    for (const account of accounts) {
      const phone = await receiver.device(vapid.publicKey);
      const res = await http(b.url, tokens.get(account.id)!, 'POST', '/api/push/subscriptions', phone.subscription);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      devices.set(account.id, phone);
    }

    // Three bids on every car at once, half the cars through each process: each seller hears of
    // the first bid at once and of the other two when the window ends; each outbid bidder at once.
    await Promise.all(
      cars.map(async (car, c) => {
        const base = c % 2 === 0 ? a.url : b.url;
        for (const [k, amount] of AMOUNTS.entries()) {
          const bidder = car.bidders[k]!;
          const res = await http(base, tokens.get(bidder.id)!, 'POST', '/api/bids', { carId: car.id, amount });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
      }),
    );

    // Killed with pushes and mails in flight at both receivers, and gathered notices not yet due.
    await waitUntil(() => receiver.waiting >= 6 && gate.held >= 2, 30_000, 'pushes and mail connections in flight from both processes');
    console.log(`[notifications-kill] at the kill: ${receiver.waiting} pushes and ${gate.held} mail connections waiting for an answer`);
    await a.kill('SIGKILL');
    const killedAt = Date.now();
    await receiver.release();
    await gate.open();
    console.log(`[notifications-kill] the dead process left ${receiver.dropped} pushes and ${gate.dropped} mail connections unanswered`);
    expect(receiver.dropped, 'the killed process had pushes in flight').toBeGreaterThan(0);

    // Every notice batched, and nothing of the kind left to run, now or later.
    const userIds = accounts.map((account) => account.id);
    const notices = await (async () => {
      let rows: (typeof notificationNotices.$inferSelect)[] = [];
      await waitUntil(
        async () => {
          rows = await database.db.select().from(notificationNotices).where(inArray(notificationNotices.userId, userIds));
          return rows.length === cars.length * 5 && rows.every((n) => n.batchId !== null);
        },
        60_000,
        'every notice batched by the surviving process',
      );
      return rows;
    })();
    const batches = new Map<string, { userId: number; email: boolean; push: boolean }>();
    for (const notice of notices) {
      const batch = batches.get(notice.batchId!) ?? { userId: notice.userId, email: false, push: false };
      batches.set(notice.batchId!, { userId: batch.userId, email: batch.email || notice.email === 'yes', push: batch.push || notice.push === 'yes' });
    }
    const expectedMails = [...batches].filter(([, batch]) => batch.email).map(([id, batch]) => ({ messageId: `notice-${id}`, userId: batch.userId }));
    const expectedPushes = new Map(userIds.map((id) => [id, [...batches.values()].filter((batch) => batch.push && batch.userId === id).length]));
    // Per car: the seller's bids (one to three batches, as the dispatches fell), and one for each
    // bidder who lost the lead; the leader is told nothing.
    for (const car of cars) expect(expectedPushes.get(car.seller.id), car.seller.name).toBeGreaterThanOrEqual(1);
    for (const loser of losers) expect([expectedPushes.get(loser.id), expectedMails.filter((e) => e.userId === loser.id).length], loser.name).toEqual([1, 1]);
    expect(expectedPushes.get(leader.id)).toBe(0);

    await waitUntil(() => expectedMails.every((e) => mailbox.messages.some((m) => noticeIdOf(m) === e.messageId)), 60_000, 'every notification email');
    await waitUntil(
      async () => {
        for (const account of accounts) if ((await receiver.messages(devices.get(account.id)!.hash)).length < expectedPushes.get(account.id)!) return false;
        return true;
      },
      60_000,
      'every push',
    );
    console.log(`[notifications-kill] ${expectedMails.length} emails and ${[...expectedPushes.values()].reduce((x, y) => x + y, 0)} pushes complete ${Date.now() - killedAt} ms after the kill`);
    await waitUntil(
      async () => {
        const { rows } = await database.sql.executeSql(`select count(*)::int as n from pgboss.job where name in ('notify.dispatch', 'mail.send', 'push.send') and state in ('created', 'retry', 'active')`, []);
        return Number(rows[0]!.n) === 0;
      },
      60_000,
      'no dispatch, mail or push left to run',
    );
    await b.kill('SIGTERM');

    // Emails at the SMTP server: each batch's Message-ID once, to its owner, and nothing else.
    const perId = new Map<string, number>();
    for (const mail of mailbox.messages) perId.set(noticeIdOf(mail) ?? `other: ${mail.subject}`, (perId.get(noticeIdOf(mail) ?? `other: ${mail.subject}`) ?? 0) + 1);
    expect(Object.fromEntries(perId)).toEqual(Object.fromEntries(expectedMails.map((e) => [e.messageId, 1])));
    for (const e of expectedMails) expect(mailbox.messages.find((m) => noticeIdOf(m) === e.messageId)!.to).toEqual([accounts.find((x) => x.id === e.userId)!.email]);

    // Pushes at the receiver: as many as the user's batches, each decrypted payload different
    // (every one names another amount), and each accepted once.
    for (const account of accounts) {
      const hash = devices.get(account.id)!.hash;
      const got = (await receiver.messages(hash)).map((p) => JSON.stringify(p));
      expect(got, `${account.name}: ${got.join("\n")}`).toHaveLength(expectedPushes.get(account.id)!);
      expect(new Set(got).size, `${account.name}: ${got.join('\n')}`).toBe(got.length);
      expect(receiver.accepted(hash), account.name).toHaveLength(got.length);
    }

    // In-app: one notification per bid for the seller, one per lost lead for a bidder.
    const told = await database.db.select({ userId: notifications.userId, carId: notifications.carId, event: notifications.event }).from(notifications).where(inArray(notifications.userId, userIds));
    for (const car of cars) {
      expect(told.filter((n) => n.carId === car.id && n.userId === car.seller.id && n.event === 'bid_received')).toHaveLength(AMOUNTS.length);
      expect(told.filter((n) => n.carId === car.id && n.event === 'outbid')).toHaveLength(AMOUNTS.length - 1);
    }
  }, 180_000);
});
