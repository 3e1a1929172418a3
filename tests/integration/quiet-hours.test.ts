import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carPath } from '@common/paths.ts';
import type { Preferences } from '@common/schemas/notifications.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { signedIn, type SignedInClient } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { orderApi } from '../helpers/escrow.ts';
import { PushReceiver, type PushDevice } from '../helpers/push-receiver.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { jobsDone, jobsSettled, waitFor } from '../helpers/wait.ts';

/**
 * Quiet hours (issue 31, contract "Notifications beyond the open tab (v4)"): email and push are
 * held while they last, in the user's own time zone, and sent as one summary per event when they
 * end; in-app is never held; an order's news, and an outbid on an auction that ends before the
 * quiet hours do, are not held.
 *
 * How the end is decided: each dispatch reads the wall clock, and when the user's quiet hours
 * hold a notice it queues the next dispatch as a due job at the end they compute
 * (`quietHoursEnd`, common/notifications.ts). Quiet hours are whole minutes, so the test sets
 * them to end at the next minute boundary at least 15 seconds away: the due job, the clock and
 * the setting are the real ones, and the wait is under a minute and a quarter.
 */

const ZONE = 'Asia/Kathmandu'; // UTC+05:45: the hours are read in the user's zone, not the server's
const PUSH_JOBS = ['notify.dispatch', 'mail.send', 'push.send'];

let t: TestApp;
let mailbox: TestMailbox;
let receiver: PushReceiver;

beforeAll(async () => {
  mailbox = new TestMailbox();
  receiver = await new PushReceiver().start();
  t = await startTestApp({ SMTP_URL: await mailbox.start(), PUSH_ENDPOINT_HOSTS_ALLOWED: receiver.host, NOTIFY_COALESCE_SECONDS: '2', AUCTION_MIN_SECONDS: '60' });
});

afterAll(async () => {
  await t?.close();
  await receiver?.stop();
  await mailbox?.stop();
});

/** "HH:MM" of `at` on the wall clock of `timeZone`. */
const wallTime = (at: number, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(new Date(at));

async function setQuietHours(user: SignedInClient, quietHours: { start: string; end: string; timeZone: string } | null): Promise<void> {
  const res = await user.put<Preferences>('/api/users/notification-preferences', { quietHours });
  expect(res.status, res.body).toBe(200);
  expect(res.data.quietHours).toEqual(quietHours);
}

/** A device of `user` at the local push receiver. */
async function device(user: SignedInClient): Promise<PushDevice> {
  const { data } = await user.get<{ publicKey: string }>('/api/push/public-key');
  const phone = await receiver.device(data.publicKey);
  const res = await user.post('/api/push/subscriptions', phone.subscription);
  expect(res.status, res.body).toBe(201);
  return phone;
}

const bid = async (user: SignedInClient, carId: number, amount: number) => {
  const res = await user.post('/api/bids', { carId, amount });
  expect(res.status, res.body).toBe(201);
};

const inApp = async (user: SignedInClient) => (await user.get<{ notifications: { event: string; carId: number | null }[] }>('/api/notifications')).data.notifications;

describe('quiet hours that end', () => {
  it('hold the email and push of each event until they end, then send one summary per event; in-app arrives at once', async () => {
    const seller = await signedIn(t);
    const [ann, bob] = [await signedIn(t, { name: 'Ann Bidder' }), await signedIn(t, { name: 'Bob Bidder' })];
    const phone = await device(seller);
    // Quiet hours that began three hours ago and end at the next whole minute at least 15 s
    // away, on the seller's wall clock in Kathmandu.
    const endAt = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
    await setQuietHours(seller, { start: wallTime(endAt - 3 * 3_600_000, ZONE), end: wallTime(endAt, ZONE), timeZone: ZONE });
    const model = `SF90 Stradale Q${Date.now()}`;
    const car = await listCar(t, seller, { make: 'Ferrari', model, year: 2021, price: 300_000 });

    // Three bids and two questions on the seller's car while the quiet hours last.
    await bid(ann, car.id, 300_000);
    await bid(bob, car.id, 305_000);
    await bid(ann, car.id, 310_000);
    for (const message of ['Is the service history complete?', 'Are the carbon ceramic brakes original?']) {
      const res = await bob.post('/api/chat', { carId: car.id, message });
      expect(res.status, res.body).toBe(201);
    }

    // In-app: every one at once, one per event.
    const bell = await inApp(seller);
    expect(bell.filter((n) => n.carId === car.id).map((n) => n.event).sort()).toEqual(['bid_received', 'bid_received', 'bid_received', 'question_received', 'question_received']);
    // The bidders keep no quiet hours: their outbid emails go at once.
    await waitFor(() => mailbox.to(ann.email).length === 1 && mailbox.to(bob.email).length === 1, { message: "the bidders' outbid emails" });
    // Every dispatch due now has run and held the seller's email and push.
    await jobsSettled(t, PUSH_JOBS);
    expect(Date.now(), 'the machine took until the end of the quiet hours to get here; nothing was shown to be held').toBeLessThan(endAt);
    expect(mailbox.to(seller.email)).toEqual([]);
    expect(await receiver.messages(phone.hash)).toEqual([]);

    // When they end: one email and one push per event, saying how many and the highest.
    const mails = await waitFor(() => (mailbox.to(seller.email).length >= 2 ? mailbox.to(seller.email) : null), { timeoutMs: endAt - Date.now() + 20_000, message: 'the summary emails after the quiet hours' });
    const pushes = await waitFor(async () => {
      const got = await receiver.messages(phone.hash);
      return got.length >= 2 ? got : null;
    }, { message: 'the summary pushes after the quiet hours' });
    const name = `2021 Ferrari ${model}`;
    expect(mails.map((m) => m.subject).sort()).toEqual([`2 messages: ${name}`, `3 bids: ${name}`]);
    expect(mails.find((m) => m.subject.startsWith('3 bids'))!.body).toContain(`3 bids on your ${name}, the highest $310,000`);
    expect(mails.find((m) => m.subject.startsWith('2 messages'))!.body).toContain(`2 messages about your ${name}`);
    for (const mail of mails) expect(mail.links).toContain(`${t.config.appUrl}${carPath(car.id)}`);
    expect(pushes.sort((a, b) => String(a.event).localeCompare(String(b.event)))).toEqual([
      { title: `3 bids: ${name}`, body: `3 bids on your ${name}, the highest $310,000`, url: carPath(car.id), event: 'bid_received', carId: car.id },
      { title: `2 messages: ${name}`, body: `2 messages about your ${name}`, url: carPath(car.id), event: 'question_received', carId: car.id },
    ]);
    // Not before the end, and within seconds of it.
    for (const push of receiver.accepted(phone.hash)) {
      expect(push.at).toBeGreaterThanOrEqual(endAt);
      expect(push.at - endAt).toBeLessThan(10_000);
    }
    console.log(`[quiet-hours] summaries pushed ${receiver.accepted(phone.hash).map((p) => p.at - endAt).join(', ')} ms after the quiet hours ended`);

    // Nothing more is to come: one summary each, nothing repeated.
    await jobsDone(t, PUSH_JOBS);
    expect(mailbox.to(seller.email)).toHaveLength(2);
    expect(await receiver.messages(phone.hash)).toHaveLength(2);
  }, 120_000);
});

describe('during quiet hours', () => {
  it("still sends an order's news, and an outbid on an auction that ends before the quiet hours do; an outbid on a fixed-price car waits", async () => {
    const user = await signedIn(t, { name: 'Quinn Quiet' });
    const [rival, buyer, seller] = [await signedIn(t), await signedIn(t), await signedIn(t)];
    const phone = await device(user);
    // Quiet for another two hours, on UTC.
    const now = Date.now();
    await setQuietHours(user, { start: wallTime(now - 3_600_000, 'UTC'), end: wallTime(now + 2 * 3_600_000, 'UTC'), timeZone: 'UTC' });
    const ownCar = await listCar(t, user, { price: 90_000 });
    const auction = await listCar(t, seller, { price: 150_000, auctionInSeconds: 3_600 });
    const fixed = await listCar(t, seller, { price: 150_000 });

    expect((await orderApi(t).place(buyer, ownCar, 'basic')).statusCode).toBe(201);
    await bid(user, auction.id, 150_000);
    await bid(rival, auction.id, 151_000);
    await bid(user, fixed.id, 150_000);
    await bid(rival, fixed.id, 151_000);

    const pushes = await waitFor(async () => {
      const got = await receiver.messages(phone.hash);
      return got.length >= 2 ? got : null;
    }, { message: 'the pushes quiet hours do not hold' });
    await jobsSettled(t, PUSH_JOBS);
    const got = (await receiver.messages(phone.hash)).map((p) => `${String(p.event)}:${String(p.carId)}`).sort();
    expect(got).toEqual([`order_update:${ownCar.id}`, `outbid:${auction.id}`].sort());
    expect(pushes.find((p) => p.event === 'outbid')).toMatchObject({ url: carPath(auction.id), carId: auction.id });
    // By email: the auction's outbid only (an order's news comes in the order's own email).
    const mails = mailbox.to(user.email);
    expect(mails.filter((m) => m.subject === "You've been outbid").flatMap((m) => m.links).some((l) => l.endsWith(carPath(fixed.id)))).toBe(false);
    expect(mails.filter((m) => m.subject === "You've been outbid").flatMap((m) => m.links)).toContain(`${t.config.appUrl}${carPath(auction.id)}`);
    // The fixed-price outbid is there in-app.
    expect((await inApp(user)).some((n) => n.event === 'outbid' && n.carId === fixed.id)).toBe(true);
  }, 60_000);

  it('sends what they held at once when the user turns them off, as one summary, not at their old end', async () => {
    const seller = await signedIn(t);
    const [ann, bob] = [await signedIn(t, { name: 'Ann Early' }), await signedIn(t, { name: 'Bob Early' })];
    const phone = await device(seller);
    const now = Date.now();
    await setQuietHours(seller, { start: wallTime(now - 3_600_000, ZONE), end: wallTime(now + 3 * 3_600_000, ZONE), timeZone: ZONE });
    const model = `296 GTB Off${now}`;
    const car = await listCar(t, seller, { make: 'Ferrari', model, year: 2023, price: 320_000 });
    await bid(ann, car.id, 320_000);
    await bid(bob, car.id, 325_000);
    await jobsSettled(t, PUSH_JOBS);
    expect(mailbox.to(seller.email)).toEqual([]);
    expect(await receiver.messages(phone.hash)).toEqual([]);

    const offAt = Date.now();
    await setQuietHours(seller, null);
    const pushes = await waitFor(async () => {
      const got = await receiver.messages(phone.hash);
      return got.length >= 1 ? got : null;
    }, { timeoutMs: 10_000, message: 'the held bids pushed once quiet hours are off' });
    const mail = await waitFor(() => mailbox.to(seller.email)[0] ?? null, { timeoutMs: 10_000, message: 'the held bids emailed once quiet hours are off' });
    const name = `2023 Ferrari ${model}`;
    expect(pushes).toEqual([{ title: `2 bids: ${name}`, body: `2 bids on your ${name}, the highest $325,000`, url: carPath(car.id), event: 'bid_received', carId: car.id }]);
    expect(mail.subject).toBe(`2 bids: ${name}`);
    console.log(`[quiet-hours] held bids pushed ${receiver.accepted(phone.hash)[0]!.at - offAt} ms after quiet hours were turned off`);
    // The dispatch queued for the old end is still waiting (hours away): what is due has run.
    await jobsSettled(t, PUSH_JOBS);
    expect(mailbox.to(seller.email)).toHaveLength(1);
    expect(await receiver.messages(phone.hash)).toHaveLength(1);
  }, 60_000);
});
