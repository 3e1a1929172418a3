import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { requestsTo } from '../helpers/api.ts';
import { seededCars } from '../helpers/cars.ts';
import { TestSockets, emitAck, nextEvent } from '../helpers/sockets.ts';
import { auditEntries, createStaff, newestAuditId, type StaffUser } from '../helpers/staff.ts';
import { createUser, makeSellerOf, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let url: string;
const cars = seededCars();
let admin: StaffUser;
let operator: StaffUser;
let operator2: StaffUser;
const sockets = new TestSockets(() => url);

beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  await cars.load(t);
  admin = await createStaff(t, 'admin');
  operator = await createStaff(t, 'operator');
  operator2 = await createStaff(t, 'operator');
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await t?.close();
});

const freshCar = cars.next;
const call = requestsTo(() => t);
const visibleIds = async (carId: number, user?: SignedInUser) =>
  ((await call('GET', `/api/chat/car/${carId}?limit=100`, user)).json().data.messages as { id: number }[]).map((m) => m.id);
const notificationTitles = async (user: SignedInUser) => ((await call('GET', '/api/notifications', user)).json().data.notifications as { title: string }[]).map((n) => n.title);

describe('the moderation queue', () => {
  it('lists held messages with their reason, and reported ones with their reports; guarded like the rest of the console', async () => {
    const carId = freshCar();
    const [author, reporter] = [await createUser(t), await createUser(t)];
    const held = (await call('POST', '/api/chat', author, { carId, message: 'email me: jay at gmail dot com' })).json().data;
    const reported = (await call('POST', '/api/chat', author, { carId, message: 'Worth every penny of the reserve' })).json().data;
    await call('POST', `/api/chat/${reported.id}/report`, reporter, { reason: 'spam', note: 'shill' });
    const queue = (await call('GET', '/api/admin/chat', operator)).json().data.messages as { id: number; heldBy: string | null; reports: unknown[]; status: string }[];
    const car = (await call('GET', `/api/cars/${carId}`)).json().data as { year: number; make: string; model: string };
    expect(queue.find((m) => m.id === held.id)).toMatchObject({ status: 'held', heldBy: 'guard', reports: [], carTitle: `${car.year} ${car.make} ${car.model}` });
    expect(queue.find((m) => m.id === reported.id)).toMatchObject({ status: 'visible', heldBy: null, reports: [{ reason: 'spam', note: 'shill', at: expect.any(String) }] });
    const onlyHeld = (await call('GET', '/api/admin/chat?status=held', operator)).json().data.messages as { id: number }[];
    expect(onlyHeld.map((m) => m.id)).toContain(held.id);
    expect(onlyHeld.map((m) => m.id)).not.toContain(reported.id);
    expect((await call('GET', '/api/admin/chat', author)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/chat')).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/chat?status=removed', operator)).statusCode).toBe(400);
  });

  it('approves a held message: visible, pushed to the room, the seller notified; audited', async () => {
    const carId = freshCar();
    const [seller, author] = [await createUser(t), await createUser(t)];
    await makeSellerOf(t, carId, seller.id);
    const held = (await call('POST', '/api/chat', author, { carId, message: 'WhatsApp me, I take crypto' })).json().data;
    expect(held.status).toBe('held');
    expect(await notificationTitles(seller)).not.toContain('New message about your car');
    const viewer = await sockets.connect();
    await emitAck(viewer, 'car:join', { carId });
    const pushed = nextEvent<{ id: number; status: string }>(viewer, 'chat:message', (m) => m.id === held.id);
    const approved = await call('POST', `/api/admin/chat/${held.id}/approve`, operator, { reason: 'A collector club handle, not a contact' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ id: held.id, status: 'visible' });
    expect(await pushed).toMatchObject({ status: 'visible' });
    expect(await visibleIds(carId)).toContain(held.id);
    expect(await notificationTitles(seller)).toContain('New message about your car');
    const [entry] = await auditEntries(t, admin, { action: 'chat.approve', targetType: 'chat_message', targetId: held.id });
    expect(entry).toMatchObject({ action: 'chat.approve', reason: 'A collector club handle, not a contact' });
  });

  it('with two operators at once: one wins, the other gets 409, one audit entry', async () => {
    const carId = freshCar();
    const author = await createUser(t);
    for (const action of ['approve', 'remove'] as const) {
      const held = (await call('POST', '/api/chat', author, { carId, message: `Telegram @dealer_${action} for a better price` })).json().data;
      const answers = await Promise.all([operator, operator2].map((op) => call('POST', `/api/admin/chat/${held.id}/${action}`, op, { reason: `Both at once (${action})` })));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('INVALID_TRANSITION');
      expect(await auditEntries(t, admin, { action: `chat.${action}`, targetId: held.id })).toHaveLength(1);
    }
  });

  it('removes a message for everyone, pushes chat:removed, tells its author why; refuses bad input writing nothing', async () => {
    const carId = freshCar();
    const author = await createUser(t);
    const message = (await call('POST', '/api/chat', author, { carId, message: 'Rude remark about the seller' })).json().data;
    const before = await newestAuditId(t, admin);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      expect((await call('POST', `/api/admin/chat/${message.id}/remove`, operator, body)).statusCode).toBe(400);
    }
    expect((await call('POST', '/api/admin/chat/2000000000/remove', operator, { reason: 'gone' })).statusCode).toBe(404);
    expect((await call('POST', `/api/admin/chat/${message.id}/remove`, author, { reason: 'mine' })).statusCode).toBe(403);
    expect(await newestAuditId(t, admin)).toBe(before);
    expect(await visibleIds(carId)).toContain(message.id);

    const viewer = await sockets.connect();
    await emitAck(viewer, 'car:join', { carId });
    const removed = nextEvent<{ id: number }>(viewer, 'chat:removed');
    const res = await call('POST', `/api/admin/chat/${message.id}/remove`, operator, { reason: 'Abuse' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('removed');
    expect(await removed).toEqual({ carId, id: message.id, emittedAt: expect.any(Number) });
    expect(await visibleIds(carId)).not.toContain(message.id);
    expect(await visibleIds(carId, author)).not.toContain(message.id);
    expect(await visibleIds(carId, operator)).toContain(message.id);
    expect(await notificationTitles(author)).toContain('Your message was removed');
  });

  it('mutes and unmutes a user with audit entries; refuses bad hours and a second unmute', async () => {
    const carId = freshCar();
    const user = await createUser(t);
    const before = await newestAuditId(t, admin);
    for (const body of [{ reason: 'spam', hours: 0 }, { reason: 'spam', hours: 721 }, { reason: 'spam', hours: 1.5 }, { hours: 2 }]) {
      expect((await call('POST', `/api/admin/users/${user.id}/mute`, operator, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', '/api/admin/users/2000000000/mute', operator, { reason: 'spam', hours: 2 })).statusCode).toBe(404);
    expect(await newestAuditId(t, admin)).toBe(before);

    const muted = await call('POST', `/api/admin/users/${user.id}/mute`, operator, { reason: 'Spam on five cars', hours: 24 });
    expect(muted.statusCode, muted.body).toBe(200);
    const until = muted.json().data.mutedUntil as string;
    const refused = await call('POST', '/api/chat', user, { carId, message: 'Still here' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'MUTED', details: { until } });
    expect((await auditEntries(t, admin, { action: 'user.mute', targetId: user.id }))[0]).toMatchObject({ reason: 'Spam on five cars' });

    expect((await call('POST', `/api/admin/users/${user.id}/unmute`, operator, { reason: 'Appeal accepted' })).json().data).toEqual({ userId: user.id, mutedUntil: null });
    expect((await call('POST', '/api/chat', user, { carId, message: 'Back again' })).statusCode).toBe(201);
    const again = await call('POST', `/api/admin/users/${user.id}/unmute`, operator, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('NOT_MUTED');
    expect(await auditEntries(t, admin, { action: 'user.unmute', targetId: user.id })).toHaveLength(1);
  });
});
