import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatReports, chatVotes, notifications, userMutes } from '../../db/schema/index.ts';
import { HELD_MESSAGE_NOTICE } from '@common/discussion.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { requestsTo } from '../helpers/api.ts';
import { seededCars } from '../helpers/cars.ts';
import { caughtUp } from '../helpers/wait.ts';
import { TestSockets, emitAck, nextEvent, record, waitUntil } from '../helpers/sockets.ts';
import { createUser, makeSellerOf, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let url: string;
const cars = seededCars();
const sockets = new TestSockets(() => url);

beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true' });
  url = await t.listen();
  await cars.load(t);
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await t?.close();
});

const freshCar = cars.next;

const call = requestsTo(() => t);
const post = (user: SignedInUser, carId: number, message: string, extra: object = {}) => call('POST', '/api/chat', user, { carId, message, ...extra });
const messagesOf = async (carId: number, user?: SignedInUser) => (await call('GET', `/api/chat/car/${carId}?limit=100`, user)).json().data.messages as { id: number; status: string; message: string; replyCount: number; upvotes: number; upvotedByMe: boolean; authorTags: string[] }[];

const connect = (user?: SignedInUser) => sockets.connect(user ? { token: user.accessToken } : {});

/** Rows of every discussion table: unchanged means a refused request wrote nothing. */
async function tableCounts() {
  const db = t.database.db;
  const n = async (table: typeof chatMessages | typeof chatVotes | typeof chatReports | typeof notifications | typeof userMutes) => Number((await db.select({ n: count() }).from(table))[0]!.n);
  return { messages: await n(chatMessages), votes: await n(chatVotes), reports: await n(chatReports), notifications: await n(notifications), mutes: await n(userMutes) };
}
/** The smallest bid the car takes now, as the server words it when it refuses a bid of $1. */
const lowestBidOn = async (carId: number) => (await call('POST', '/api/bids', await createUser(t), { carId, amount: 1 })).json().details.minimumAmount as number;
const upvotesIn = async (id: number) => (await t.database.db.select({ upvotes: chatMessages.upvotes }).from(chatMessages).where(eq(chatMessages.id, id)))[0]!.upvotes;

async function mute(userId: number, hours = 2) {
  const until = new Date(Date.now() + hours * 3_600_000);
  await t.database.db.insert(userMutes).values({ userId, until, reason: 'test' }).onConflictDoUpdate({ target: userMutes.userId, set: { until } });
  return until;
}

describe('replies and their parent', () => {
  it('threads a reply under its message, counts it and pushes the new count', async () => {
    const carId = freshCar();
    const [asker, other] = [await createUser(t), await createUser(t)];
    const question = (await post(asker, carId, 'Has the gearbox been rebuilt?', { type: 'question' })).json().data;
    expect(question).toMatchObject({ parentId: null, replyCount: 0, upvotes: 0, upvotedByMe: false, status: 'visible', authorTags: [] });
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const updated = nextEvent<{ id: number; replyCount: number }>(viewer, 'chat:updated');
    const reply = await post(other, carId, 'Mine was done at 40,000 miles', { parentId: question.id });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().data).toMatchObject({ parentId: question.id, replyCount: 0 });
    expect(await updated).toMatchObject({ carId, id: question.id, replyCount: 1, upvotes: 0 });
    const listed = await messagesOf(carId);
    expect(listed.find((m) => m.id === question.id)?.replyCount).toBe(1);
  });

  it('refuses a reply to a reply, to another car, to a removed or unknown message with 400 naming parentId, and writes nothing', async () => {
    const carId = freshCar();
    const otherCar = freshCar();
    const user = await createUser(t);
    const top = (await post(user, carId, 'Top-level note on the paint')).json().data;
    const reply = (await post(user, carId, 'A reply to it', { parentId: top.id })).json().data;
    const elsewhere = (await post(user, otherCar, 'A note on another car')).json().data;
    const removed = (await post(user, carId, 'A note that will be removed')).json().data;
    await t.database.db.update(chatMessages).set({ status: 'removed' }).where(eq(chatMessages.id, removed.id));
    const before = await tableCounts();
    for (const parentId of [reply.id, elsewhere.id, removed.id, 2_000_000_000]) {
      const res = await post(user, carId, `Answer to ${parentId}`, { parentId });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'parentId' }] });
    }
    expect(await tableCounts()).toEqual(before);
  });

  it('refuses an empty, whitespace or over-long message and NUL with 400, writing nothing', async () => {
    const carId = freshCar();
    const user = await createUser(t);
    const before = await tableCounts();
    for (const message of ['', '   ', 'x'.repeat(1001), 'nul \u0000 inside']) {
      expect((await post(user, carId, message)).statusCode).toBe(400);
    }
    expect(await tableCounts()).toEqual(before);
  });
});

describe('the contact guard', () => {
  it('holds a disguised phone number: 201 held for its author, absent for everyone else, pushed to the author only, notifying nobody', async () => {
    const carId = freshCar();
    const [seller, author, stranger] = [await createUser(t), await createUser(t), await createUser(t)];
    await makeSellerOf(t, carId, seller.id);
    const authorSocket = await connect(author);
    const strangerSocket = await connect(stranger);
    const anonymous = await connect();
    for (const s of [authorSocket, strangerSocket, anonymous]) await emitAck(s, 'car:join', { carId });
    const strangerHeard = record(strangerSocket, 'chat:message');
    const anonymousHeard = record(anonymous, 'chat:message');
    const sellerNotificationsBefore = (await call('GET', '/api/notifications', seller)).json().data.notifications.length;

    const authorHeard = nextEvent<{ status: string }>(authorSocket, 'chat:message');
    const res = await post(author, carId, 'Call me on five five five, zero one three four, skip the escrow fee');
    expect(res.statusCode, res.body).toBe(201);
    const held = res.json().data;
    expect(held.status).toBe('held');
    expect(await authorHeard).toMatchObject({ id: held.id, status: 'held' });

    expect((await messagesOf(carId, author)).map((m) => m.id)).toContain(held.id);
    expect((await messagesOf(carId, stranger)).map((m) => m.id)).not.toContain(held.id);
    expect((await messagesOf(carId)).map((m) => m.id)).not.toContain(held.id);
    const page = await t.app.inject({ method: 'GET', url: `/car/${carId}` });
    expect(page.body).not.toContain('zero one three four');
    await caughtUp(strangerSocket);
    await caughtUp(anonymous);
    expect(strangerHeard).toEqual([]);
    expect(anonymousHeard).toEqual([]);
    expect((await call('GET', '/api/notifications', seller)).json().data.notifications.length).toBe(sellerNotificationsBefore);
    expect(HELD_MESSAGE_NOTICE).toContain('escrow');
  });

  it('lets car talk full of numbers through, and notifies the seller of a visible question', async () => {
    const carId = freshCar();
    const [seller, asker] = [await createUser(t), await createUser(t)];
    await makeSellerOf(t, carId, seller.id);
    const res = await post(asker, carId, 'Is the 911 GT3 RS at 12,400 miles on its 2023 service ($3,250)? Chassis WP0ZZZ99Z?', { type: 'question' });
    expect(res.json().data.status).toBe('visible');
    await waitUntil(async () => (await call('GET', '/api/notifications', seller)).json().data.notifications.some((n: { title: string }) => n.title === 'New question about your car'));
  });
});

describe('limits and mutes', () => {
  it('refuses a sixth message in 30 seconds with 429 and Retry-After, and the same text within 60 seconds with 409', async () => {
    const carId = freshCar();
    const user = await createUser(t);
    expect((await post(user, carId, 'First thought on the interior')).statusCode).toBe(201);
    const repeat = await post(user, carId, 'First thought on the interior');
    expect(repeat.statusCode).toBe(409);
    expect(repeat.json().code).toBe('DUPLICATE_MESSAGE');
    for (let i = 2; i <= 5; i++) expect((await post(user, carId, `Thought number ${i}`)).statusCode).toBe(201);
    const before = await tableCounts();
    const sixth = await post(user, carId, 'Thought number 6');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('RATE_LIMITED');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(30);
    expect(await tableCounts()).toEqual(before);
    // Another car is another limit.
    expect((await post(user, freshCar(), 'Thought number 6')).statusCode).toBe(201);
  });

  it('does not count a bidder\'s bids in the stream against their message limit', async () => {
    const carId = freshCar();
    const [bidder, rival] = [await createUser(t), await createUser(t)];
    // A bidder never outbids themselves, so a rival answers each bid.
    for (const user of [bidder, rival, bidder, rival, bidder, rival, bidder, rival, bidder, rival, bidder]) {
      const bid = await call('POST', '/api/bids', user, { carId, amount: await lowestBidOn(carId) });
      expect(bid.statusCode, bid.body).toBe(201);
    }
    expect((await post(bidder, carId, 'Six bids in, still keen on it')).statusCode).toBe(201);
  });

  it('refuses a muted user with 403 MUTED and the end time on post, reply, vote and report, writing nothing', async () => {
    const carId = freshCar();
    const [author, muted] = [await createUser(t), await createUser(t)];
    const target = (await post(author, carId, 'The brakes were done last spring')).json().data;
    const until = await mute(muted.id);
    const before = await tableCounts();
    const answers = [
      await post(muted, carId, 'Hello there'),
      await post(muted, carId, 'A reply', { parentId: target.id }),
      await call('POST', `/api/chat/${target.id}/upvote`, muted),
      await call('DELETE', `/api/chat/${target.id}/upvote`, muted),
      await call('POST', `/api/chat/${target.id}/report`, muted, { reason: 'spam' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'MUTED', details: { until: expect.any(String) } });
      expect(Math.abs(new Date(res.json().details.until).getTime() - until.getTime())).toBeLessThan(1000);
    }
    expect(await tableCounts()).toEqual(before);
  });
});

describe('posting while bidding', () => {
  // A post locks its author while a bid locks the car; each then inserts a row that references
  // the other's locked row. On PostgreSQL that was a deadlock and a 500 for one of them.
  it('takes a message and a bid sent by the same users at the same moment, every one answered without a server error, bids not counted as messages', async () => {
    const carId = freshCar();
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
    const statuses: number[] = [];
    // Three rounds of a message and an accepted bid each: six lines in the stream, three typed.
    for (let round = 1; round <= 3; round++) {
      const amount = await lowestBidOn(carId);
      const answers = await Promise.all(
        users.flatMap((user, i) => [
          post(user, carId, `Round ${round}: bidder ${i} likes the exhaust note`),
          call('POST', '/api/bids', user, { carId, amount: amount + i * 1000 }),
        ]),
      );
      for (const [i, res] of answers.entries()) {
        statuses.push(res.statusCode);
        if (i % 2 === 0) expect(res.statusCode, res.body).toBe(201);
        else expect([201, 409], res.body).toContain(res.statusCode);
      }
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});

describe('votes', () => {
  it('counts a vote once, takes it back, refuses one on one’s own (403) and on an unseen message (404)', async () => {
    const carId = freshCar();
    const [author, voter] = [await createUser(t), await createUser(t)];
    const message = (await post(author, carId, 'Original paint, documented')).json().data;
    const first = await call('POST', `/api/chat/${message.id}/upvote`, voter);
    expect(first.json().data).toEqual({ id: message.id, upvotes: 1, upvotedByMe: true });
    expect((await call('POST', `/api/chat/${message.id}/upvote`, voter)).json().data).toEqual({ id: message.id, upvotes: 1, upvotedByMe: true });
    expect((await messagesOf(carId, voter)).find((m) => m.id === message.id)).toMatchObject({ upvotes: 1, upvotedByMe: true });
    expect((await messagesOf(carId)).find((m) => m.id === message.id)).toMatchObject({ upvotes: 1, upvotedByMe: false });
    expect((await call('DELETE', `/api/chat/${message.id}/upvote`, voter)).json().data).toEqual({ id: message.id, upvotes: 0, upvotedByMe: false });
    expect((await call('DELETE', `/api/chat/${message.id}/upvote`, voter)).json().data).toEqual({ id: message.id, upvotes: 0, upvotedByMe: false });

    const held = (await post(author, carId, 'text me at 555 013 4477')).json().data;
    expect(held.status).toBe('held');
    const before = await tableCounts();
    const own = await call('POST', `/api/chat/${message.id}/upvote`, author);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('NOT_ALLOWED');
    expect((await call('POST', `/api/chat/${held.id}/upvote`, voter)).statusCode).toBe(404);
    expect((await call('POST', '/api/chat/2000000000/upvote', voter)).statusCode).toBe(404);
    expect((await call('POST', `/api/chat/${message.id}/upvote`)).statusCode).toBe(401);
    expect(await tableCounts()).toEqual(before);
  });

  it('counts thirty voters at once exactly thirty, and pushes once each', async () => {
    const carId = freshCar();
    const author = await createUser(t);
    const message = (await post(author, carId, 'Matching numbers engine, 1973')).json().data;
    const voters = await Promise.all(Array.from({ length: 30 }, () => createUser(t)));
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const pushes = record<{ id: number; upvotes: number }>(viewer, 'chat:updated');
    const answers = await Promise.all(voters.map((v) => call('POST', `/api/chat/${message.id}/upvote`, v)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(new Set(answers.map((a) => a.json().data.upvotes)).size).toBe(30);
    expect(await upvotesIn(message.id)).toBe(30);
    expect((await messagesOf(carId)).find((m) => m.id === message.id)?.upvotes).toBe(30);
    await waitUntil(() => pushes.filter((p) => p.id === message.id).length >= 30);
    await caughtUp(viewer);
    const mine = pushes.filter((p) => p.id === message.id);
    expect(mine).toHaveLength(30);
    expect(Math.max(...mine.map((p) => p.upvotes))).toBe(30);
  });
});

describe('reports', () => {
  it('holds a message on the third reporter, pushes chat:removed, refuses a second report, one’s own and bad notes', async () => {
    const carId = freshCar();
    const [author, r1, r2, r3] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const message = (await post(author, carId, 'This car is a bargain, buy it now')).json().data;
    const before = await tableCounts();
    expect((await call('POST', `/api/chat/${message.id}/report`, author, { reason: 'spam' })).statusCode).toBe(403);
    for (const body of [{ reason: 'nonsense' }, { reason: 'spam', note: 'x'.repeat(501) }, { reason: 'spam', note: 'a\u0000b' }, {}, { reason: 'spam', extra: 1 }]) {
      expect((await call('POST', `/api/chat/${message.id}/report`, r1, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', '/api/chat/2000000000/report', r1, { reason: 'spam' })).statusCode).toBe(404);
    expect(await tableCounts()).toEqual(before);

    expect((await call('POST', `/api/chat/${message.id}/report`, r1, { reason: 'spam', note: 'Posted on every car' })).statusCode).toBe(201);
    const again = await call('POST', `/api/chat/${message.id}/report`, r1, { reason: 'abuse' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_REPORTED');
    expect((await call('POST', `/api/chat/${message.id}/report`, r2, { reason: 'off_platform' })).statusCode).toBe(201);
    expect((await messagesOf(carId)).map((m) => m.id)).toContain(message.id);

    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const removed = nextEvent<{ id: number }>(viewer, 'chat:removed');
    expect((await call('POST', `/api/chat/${message.id}/report`, r3, { reason: 'other' })).statusCode).toBe(201);
    expect(await removed).toMatchObject({ carId, id: message.id });
    expect((await messagesOf(carId)).map((m) => m.id)).not.toContain(message.id);
    expect((await messagesOf(carId, author)).find((m) => m.id === message.id)?.status).toBe('held');
  });
});

describe('author tags and Seller Q&A', () => {
  it('tags the seller and a bidder, and lists answered questions first with the seller’s answers', async () => {
    const carId = freshCar();
    const [seller, asker, later] = [await createUser(t), await createUser(t), await createUser(t)];
    await makeSellerOf(t, carId, seller.id);
    const answered = (await post(asker, carId, 'Any accident history?', { type: 'question' })).json().data;
    const unanswered = (await post(later, carId, 'Is the spare tyre original?', { type: 'question' })).json().data;
    const answer = await post(seller, carId, 'None: the Carfax is clean', { parentId: answered.id });
    expect(answer.json().data).toMatchObject({ role: 'seller', authorTags: ['seller'], parentId: answered.id });
    await waitUntil(async () => (await call('GET', '/api/notifications', asker)).json().data.notifications.some((n: { title: string }) => n.title === 'The seller answered'));

    const qa = (await call('GET', `/api/cars/${carId}/questions`)).json().data.questions as { question: { id: number }; answers: { id: number }[] }[];
    // The car's earlier questions (other tests) are unanswered and older: they come after these.
    expect(qa.map((q) => q.question.id).slice(0, 2)).toEqual([answered.id, unanswered.id]);
    expect(qa[0]!.answers.map((a) => a.id)).toEqual([answer.json().data.id]);
    expect(qa.slice(1).every((q) => q.answers.length === 0)).toBe(true);
    expect((await call('GET', '/api/cars/2000000000/questions')).statusCode).toBe(404);

    const page = await t.app.inject({ method: 'GET', url: `/car/${carId}` });
    expect(page.body).toContain('Any accident history?');
    expect(page.body).toContain('None: the Carfax is clean');
    expect(page.body).toContain('"FAQPage"');
  });
});
