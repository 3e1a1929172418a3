import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from './helpers/app.ts';
import { createListing, orderApi } from './helpers/escrow.ts';
import { TestMailbox } from './helpers/smtp.ts';
import { sleep } from './helpers/sockets.ts';
import { createUser } from './helpers/users.ts';

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

describe('the mail outbox', () => {
  it('keeps mail while the mail server is down and delivers each once when it is back', async () => {
    const references: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ticket(i);
      // The request never waits for (or fails with) the mail server.
      expect(res.statusCode).toBe(201);
      references.push(res.json().data.id);
    }
    await sleep(3_000);
    expect(mailbox.messages).toEqual([]);
    await mailbox.start(smtpPort);
    for (const reference of references) await mailbox.waitFor((m) => m.subject.includes(reference), 30_000);
    await sleep(2_000);
    for (const reference of references) expect(mailbox.messages.filter((m) => m.subject.includes(reference))).toHaveLength(1);
    // Each mail carries the Message-ID it was given when queued, so a repeat would show as one.
    const ids = mailbox.messages.map((m) => /^Message-ID: (<[^>]+>)$/im.exec(m.body)?.[1]);
    expect(ids.every((id) => id && /^<[0-9a-f-]{36}@luxemotors\.local>$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it('writes mail only when the change that causes it commits', async () => {
    const [buyer, seller] = [await createUser(t), await createUser(t)];
    const car = await createListing(t, seller);
    expect((await orderApi(t).place(buyer, car)).statusCode).toBe(201);
    // The same buyer again: the order is refused, and so is its "Payment due" mail.
    expect((await orderApi(t).place(buyer, car)).json().code).toBe('ORDER_EXISTS');
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Payment due'), 15_000);
    await sleep(1_500);
    expect(mailbox.to(buyer.email).filter((m) => m.subject.startsWith('Payment due'))).toHaveLength(1);
  });
});
