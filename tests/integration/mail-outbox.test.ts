import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderApi } from '../helpers/escrow.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { waitUntil } from '../helpers/sockets.ts';
import { MAIL_QUEUE, jobsDone, mailSettled, mailsRetried } from '../helpers/wait.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Outgoing mail goes through an outbox in the database: written with the change that causes it,
 * sent by the job runner, retried until the mail server takes it.
 */
let t: TestApp;
let mailbox: TestMailbox;
let smtpPort: number;

beforeAll(async () => {
  // The mail server is down when the app starts: nothing listens on its port yet.
  smtpPort = await freePort();
  t = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' });
  mailbox = new TestMailbox();
});
afterAll(async () => {
  await t?.close();
  await mailbox?.stop();
});

const ticket = (i: number) =>
  t.app.inject({ method: 'POST', url: '/api/support/tickets', payload: { subject: `Outage ${i}`, message: 'Is anyone there?', email: `outage-${i}@example.com` } });

/** Later attempts of the mail `messageId`, waiting for their time. */
async function queuedAttempts(messageId: string): Promise<{ startAfter: Date; failures: unknown }[]> {
  const { rows } = await t.database.sql.executeSql(
    `select start_after, data->'failures' as failures from pgboss.job where name = 'mail.send' and data->>'messageId' = $1 and state in ('created', 'retry') and start_after > now()`,
    [messageId],
  );
  return rows.map((row) => ({ startAfter: new Date(row.start_after as string), failures: typeof row.failures === 'string' ? JSON.parse(row.failures) : row.failures }));
}

/** Waits until no run of the mail `messageId` is due or running. */
async function waitForJobsDone(messageId: string): Promise<void> {
  await waitUntil(
    async () => {
      const { rows } = await t.database.sql.executeSql(
        `select count(*)::int as n from pgboss.job where name = 'mail.send' and data->>'messageId' = $1 and state in ('created', 'retry', 'active') and start_after <= now()`,
        [messageId],
      );
      return Number(rows[0]!.n) === 0;
    },
    15_000,
    'the mail job done',
  );
}

describe('the mail outbox', () => {
  it('keeps mail while the mail server is down and delivers each once when it is back', async () => {
    const references: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ticket(i);
      // The request never waits for (or fails with) the mail server.
      expect(res.statusCode).toBe(201);
      references.push(res.json().data.id);
    }
    // Every mail has been tried and refused at least once (its next attempt is queued): none got through.
    await waitUntil(async () => (await mailsRetried(t)) >= references.length, 30_000, 'a failed first attempt of every mail');
    expect(mailbox.messages).toEqual([]);
    await mailbox.start(smtpPort);
    for (const reference of references) await mailbox.waitFor((m) => m.subject.includes(reference), 30_000);
    // No attempt is left to run, now or later: a repeat would have been sent by now.
    await jobsDone(t, MAIL_QUEUE, { timeoutMs: 30_000 });
    for (const reference of references) expect(mailbox.messages.filter((m) => m.subject.includes(reference))).toHaveLength(1);
    // Each mail carries the Message-ID it was given when queued, so a repeat would show as one.
    const ids = mailbox.messages.map((m) => /^Message-ID: (<[^>]+>)$/im.exec(m.body)?.[1]);
    expect(ids.every((id) => id && /^<[0-9a-f-]{36}@luxemotors\.local>$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it('sends a mail once when its job runs again after the mail server took it', async () => {
    const messageId = `<rerun-${Date.now()}@luxemotors.local>`;
    const mail = { to: 'rerun@example.com', subject: `Rerun ${messageId}`, text: 'Once.', html: '<p>Once.</p>', messageId };
    // A process killed after the send, before its job was marked done: the job runs again.
    await t.app.jobs.enqueue(t.app.db, 'mail.send', mail);
    await mailbox.waitFor((m) => m.subject === mail.subject, 15_000);
    await waitForJobsDone(messageId);
    await t.app.jobs.enqueue(t.app.db, 'mail.send', mail);
    await waitForJobsDone(messageId);
    expect(mailbox.messages.filter((m) => m.subject === mail.subject)).toHaveLength(1);
  });

  it('does not retry a mailbox the mail server refuses for good (5xx)', async () => {
    const to = `nobody-${Date.now()}@example.com`;
    mailbox.refusals.set(to, 550);
    await t.app.mailer.send({ to, subject: 'Refused for good', text: 'x', html: '<p>x</p>' });
    await waitUntil(() => Promise.resolve(mailbox.refused.includes(to)), 15_000, 'the attempt');
    // A retry would be queued as a later attempt (after 1 s, 2 s, 4 s...): none is left for this address.
    await jobsDone(t, MAIL_QUEUE, { data: { to } });
    expect(mailbox.refused.filter((address) => address === to)).toHaveLength(1);
  });

  it('tries a mail refused for hours again within ten minutes, and gives it up after five days', async () => {
    const to = `busy-${Date.now()}@example.com`;
    mailbox.refusals.set(to, 451);
    const hoursAgo = new Date(Date.now() - 6 * 3_600_000).toISOString();
    const daysAgo = new Date(Date.now() - 6 * 24 * 3_600_000).toISOString();
    const mail = (id: string, since: string) => ({ to, subject: id, text: 'x', html: '<p>x</p>', messageId: `<${id}@luxemotors.local>`, failures: { count: 20, since } });
    const longOutage = mail(`outage-hours-${Date.now()}`, hoursAgo);
    const tooLong = mail(`outage-days-${Date.now()}`, daysAgo);
    const before = Date.now();
    await t.app.jobs.enqueue(t.app.db, 'mail.send', longOutage);
    await t.app.jobs.enqueue(t.app.db, 'mail.send', tooLong);
    await waitUntil(async () => (await queuedAttempts(longOutage.messageId)).length === 1, 15_000, 'the next attempt queued');
    const [next] = await queuedAttempts(longOutage.messageId);
    // Twenty failures would mean a delay of days if it kept doubling; it is capped at 10 minutes (+ up to 25 % spread).
    expect(next!.startAfter.getTime() - before).toBeGreaterThan(9 * 60_000);
    expect(next!.startAfter.getTime() - Date.now()).toBeLessThanOrEqual(12.5 * 60_000);
    expect(next!.failures).toEqual({ count: 21, since: hoursAgo });
    await waitForJobsDone(tooLong.messageId);
    expect(await queuedAttempts(tooLong.messageId)).toEqual([]);
    expect(mailbox.refused.filter((address) => address === to)).toHaveLength(2);
  });

  it('writes mail only when the change that causes it commits', async () => {
    const [buyer, seller] = [await createUser(t), await createUser(t)];
    const car = await createListing(t, seller);
    expect((await orderApi(t).place(buyer, car)).statusCode).toBe(201);
    // The same buyer again: the order is refused, and so is its "Payment due" mail.
    expect((await orderApi(t).place(buyer, car)).json().code).toBe('ORDER_EXISTS');
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Payment due'), 15_000);
    // Every mail due has gone out: a second one, had it been written, would be among them.
    await mailSettled(t);
    expect(mailbox.to(buyer.email).filter((m) => m.subject.startsWith('Payment due'))).toHaveLength(1);
  });
});
