import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carPath } from '@common/paths.ts';
import type { Preferences, PushSubscriptionList } from '@common/schemas/notifications.ts';
import { startTestApp, freePort, type TestApp } from '../helpers/app.ts';
import { signedIn, visitor, type SignedInClient } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { jobsSettled, quietFor, waitFor } from '../helpers/wait.ts';

/**
 * Web Push of notifications (issue 31, contract "Notifications beyond the open tab (v4)"),
 * against web-push-testing: a local push service that checks each push's VAPID signature and
 * decrypts its aes128gcm payload. A small proxy in front of it records each push's headers and
 * can answer in its place (410, 503), as a real push service would.
 */

const require = createRequire(import.meta.url);
const WebPushTestingServer = require('web-push-testing/src/server.js') as new (model: unknown, port: number) => { startServer(): void; _server: Server };
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => { notifyUrl: string } };

interface Received {
  headers: IncomingHttpHeaders;
  status: number;
}

let t: TestApp;
let receiverPort: number;
let proxyPort: number;
let receiver: { startServer(): void; _server: Server };
let proxy: Server;
/** Every push that reached the proxy, by client hash. */
const seen = new Map<string, Received[]>();
/** Answers the proxy gives instead of the receiver, by client hash, in turn. */
const scripted = new Map<string, number[]>();

async function receiverCall<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${receiverPort}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return ((await res.json()) as { data: T }).data;
}

/** A new device subscribed at the receiver with the server's VAPID key, registered for `user`. */
async function device(user: SignedInClient): Promise<{ hash: string; endpoint: string; messages: () => Promise<Record<string, unknown>[]> }> {
  const { data: key } = await user.get<{ publicKey: string }>('/api/push/public-key');
  const sub = await receiverCall<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>('/subscribe', { userVisibleOnly: 'true', applicationServerKey: key.publicKey });
  const endpoint = `http://127.0.0.1:${proxyPort}/notify/${sub.clientHash}`;
  const res = await user.post<{ id: number }>('/api/push/subscriptions', { endpoint, expirationTime: null, keys: sub.keys });
  expect(res.status, res.body).toBe(201);
  const hash = sub.clientHash;
  return {
    hash,
    endpoint,
    messages: async () => (await receiverCall<{ messages: string[] }>('/get-notifications', { clientHash: hash })).messages.map((m) => JSON.parse(m) as Record<string, unknown>),
  };
}

beforeAll(async () => {
  receiverPort = await freePort();
  proxyPort = await freePort();
  receiver = new WebPushTestingServer(new PushApiModel(), receiverPort);
  const log = console.log;
  console.log = () => undefined;
  receiver.startServer();
  console.log = log;
  proxy = createServer((req, res) => {
    const hash = req.url?.split('/').pop() ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = scripted.get(hash)?.shift();
      if (answer !== undefined) {
        seen.set(hash, [...(seen.get(hash) ?? []), { headers: req.headers, status: answer }]);
        res.writeHead(answer).end();
        return;
      }
      const forward = httpRequest({ host: '127.0.0.1', port: receiverPort, path: req.url, method: 'POST', headers: req.headers }, (upstream) => {
        seen.set(hash, [...(seen.get(hash) ?? []), { headers: req.headers, status: upstream.statusCode ?? 0 }]);
        res.writeHead(upstream.statusCode ?? 502);
        upstream.pipe(res);
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  t = await startTestApp({ PUSH_ENDPOINT_HOSTS_ALLOWED: `127.0.0.1:${proxyPort}`, NOTIFY_COALESCE_SECONDS: '3' });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await new Promise((resolve) => receiver?._server.close(resolve));
});

describe('a bid reaches the seller by Web Push', () => {
  it('with the title, body and page of the bid, signed and encrypted as the receiver checks', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    const car = await listCar(t, seller, { make: 'Ferrari', model: `SF90 Stradale ${Date.now()}`, year: 2021, price: 300_000 });
    expect((await bidder.post('/api/bids', { carId: car.id, amount: 300_000 })).status).toBe(201);
    const [push] = await waitFor(async () => {
      const messages = await phone.messages();
      return messages.length > 0 ? messages : null;
    });
    expect(push).toEqual({ title: 'New bid on your car', body: expect.stringContaining('$300,000'), url: carPath(car.id), event: 'bid_received', carId: car.id });
    const headers = seen.get(phone.hash)![0]!.headers;
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(Number(headers.ttl)).toBeGreaterThan(0);
    expect(headers.urgency).toBe('normal');
    expect(headers.topic).toBeUndefined();
    // The receiver holds the push a moment before the server has recorded the answer.
    const lastSuccessAt = await waitFor(async () => (await seller.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions[0]!.lastSuccessAt, { message: "the device's last success recorded" });
    expect(lastSuccessAt).not.toBeNull();
  });

  it('gathers further bids within the window into one push saying how many and the highest', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    const model = `SF90 Stradale C${Date.now()}`;
    const car = await listCar(t, seller, { make: 'Ferrari', model, year: 2021, price: 300_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 300_000 });
    await waitFor(async () => (await phone.messages()).length === 1);
    await bidder.post('/api/bids', { carId: car.id, amount: 305_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 310_000 });
    const messages = await waitFor(async () => {
      const all = await phone.messages();
      return all.length >= 2 ? all : null;
    });
    expect(messages[1]!.body).toBe(`2 more bids on your 2021 Ferrari ${model}, the highest $310,000`);
    await jobsSettled(t, ['notify.dispatch', 'push.send']);
    expect(await phone.messages()).toHaveLength(2);
  });

  it('sends an outbid as urgent, with the car as its Topic', async () => {
    const seller = await signedIn(t);
    const first = await signedIn(t);
    const second = await signedIn(t);
    const car = await listCar(t, seller, { price: 150_000 });
    await first.post('/api/bids', { carId: car.id, amount: 150_000 });
    const phone = await device(first);
    await second.post('/api/bids', { carId: car.id, amount: 155_000 });
    const [push] = await waitFor(async () => {
      const m = await phone.messages();
      return m.length > 0 ? m : null;
    });
    expect(push).toMatchObject({ event: 'outbid', carId: car.id, url: carPath(car.id) });
    const headers = seen.get(phone.hash)![0]!.headers;
    expect(headers.urgency).toBe('high');
    expect(headers.topic).toBe(`outbid-car-${car.id}`);
  });
});

describe('what the push service answers', () => {
  it('410: the subscription is removed and the push not tried again', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    scripted.set(phone.hash, [410, 410, 410]);
    const car = await listCar(t, seller, { price: 100_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 100_000 });
    await waitFor(async () => (await seller.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions.length === 0);
    await jobsSettled(t, ['notify.dispatch', 'push.send']);
    expect(seen.get(phone.hash)).toHaveLength(1);
  });

  it('503 then 201: delivered once', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    scripted.set(phone.hash, [503]);
    const car = await listCar(t, seller, { price: 100_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 100_000 });
    await waitFor(async () => (await phone.messages()).length === 1);
    await jobsSettled(t, ['notify.dispatch', 'push.send']);
    expect(seen.get(phone.hash)!.map((r) => r.status)).toEqual([503, 201]);
    expect(await phone.messages()).toHaveLength(1);
  });
});

describe('quiet hours', () => {
  it('hold a bid push while they last; in-app is not held', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    const now = new Date();
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const put = await seller.put<Preferences>('/api/users/notification-preferences', {
      quietHours: { start: hhmm(new Date(now.getTime() - 3_600_000)), end: hhmm(new Date(now.getTime() + 3_600_000)), timeZone: 'UTC' },
    });
    expect(put.status, put.body).toBe(200);
    const car = await listCar(t, seller, { price: 100_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 100_000 });
    await waitFor(async () => (await seller.get<{ notifications: { event: string }[] }>('/api/notifications')).data.notifications.some((n) => n.event === 'bid_received'));
    await quietFor(1_500, 'a push held by quiet hours must not arrive');
    expect(await phone.messages()).toHaveLength(0);
  });
});

describe('subscriptions that are refused, with nothing stored', () => {
  const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
  it.each([
    ['an http endpoint', { endpoint: 'http://push.example.com/x', keys }, 'endpoint'],
    ['an IP literal', { endpoint: 'https://93.184.216.34/x', keys }, 'endpoint'],
    ['an IPv6 literal', { endpoint: 'https://[::1]/x', keys }, 'endpoint'],
    ['a host resolving to 127.0.0.1', { endpoint: 'https://localhost/x', keys }, 'endpoint'],
    ['a p256dh key of the wrong length', { endpoint: 'https://localhost/x', keys: { ...keys, p256dh: 'BAAA' } }, 'keys.p256dh'],
    ['an auth key of the wrong length', { endpoint: `http://127.0.0.1:${0}/x`, keys: { ...keys, auth: 'AAAA' } }, 'keys.auth'],
  ])('%s: 400 naming %s', async (_name, body, field) => {
    const user = await signedIn(t);
    const res = await user.post('/api/push/subscriptions', body);
    expect(res.status, res.body).toBe(400);
    expect((res.failure!.details as { field: string }[]).map((d) => d.field)).toContain(field);
    expect((await user.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toEqual([]);
  });

  it('an 11th subscription: 409 TOO_MANY_SUBSCRIPTIONS; the same endpoint again: 200', async () => {
    const user = await signedIn(t);
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await device(user));
    const again = await user.post('/api/push/subscriptions', { endpoint: made[0]!.endpoint, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'B'.repeat(22) } });
    expect(again.status).toBe(200);
    const eleventh = await user.post('/api/push/subscriptions', { endpoint: `http://127.0.0.1:${proxyPort}/notify/eleventh`, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } });
    expect(eleventh.status).toBe(409);
    expect(eleventh.failure!.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    expect((await user.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toHaveLength(10);
    const removed = await user.call('DELETE', '/api/push/subscriptions', { endpoint: made[0]!.endpoint });
    expect(removed.statusCode).toBe(200);
    expect((await user.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toHaveLength(9);
  });
});

describe('devices and preferences as the wrong party', () => {
  it('refuses a visitor on every route with 401, storing and changing nothing', async () => {
    const owner = await signedIn(t);
    const own = await device(owner);
    const before = (await owner.get<Preferences>('/api/users/notification-preferences')).data;
    const guest = visitor(t);
    const answers = [
      await guest.get('/api/users/notification-preferences'),
      await guest.put('/api/users/notification-preferences', { events: { bid_received: { push: false } } }),
      await guest.post('/api/push/subscriptions', { endpoint: own.endpoint, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } }),
      await guest.get('/api/push/subscriptions'),
      await guest.call('DELETE', '/api/push/subscriptions', { endpoint: own.endpoint }).then((res) => ({ status: res.statusCode })),
      await guest.post('/api/push/test'),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await owner.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toHaveLength(1);
    expect((await owner.get<Preferences>('/api/users/notification-preferences')).data).toEqual(before);
  });

  it("lists only the user's own devices, and another user's removal leaves a device in place", async () => {
    const [owner, other] = [await signedIn(t), await signedIn(t)];
    const own = await device(owner);
    expect((await other.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toEqual([]);
    expect((await other.call('DELETE', '/api/push/subscriptions', { endpoint: own.endpoint })).statusCode).toBe(200);
    expect((await owner.get<PushSubscriptionList>('/api/push/subscriptions')).data.subscriptions).toHaveLength(1);
  });
});

describe("an email's one-click unsubscribe", () => {
  const oneClick = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/users/notification-preferences/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
  const emailOf = async (user: SignedInClient, event: keyof Preferences['events']) => (await user.get<Preferences>('/api/users/notification-preferences')).data.events[event].email;

  it("turns off that event's email without signing in; a forged or altered token is 400 and changes nothing; a locked email stays on", async () => {
    const user = await signedIn(t);
    const token = t.app.services.notificationPreferences.sign(user.id, 'bid_received');
    for (const forged of [`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, token.replace(`${user.id}.`, `${user.id + 1}.`), 'not-a-token']) {
      const refused = await oneClick(forged);
      expect(refused.statusCode, forged).toBe(400);
      expect(refused.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await emailOf(user, 'bid_received')).toBe(true);

    const done = await oneClick(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ event: 'bid_received' });
    expect(await emailOf(user, 'bid_received')).toBe(false);
    expect(await emailOf(user, 'outbid')).toBe(true);

    expect((await oneClick(t.app.services.notificationPreferences.sign(user.id, 'order_update'))).statusCode).toBe(200);
    expect(await emailOf(user, 'order_update')).toBe(true);
  });
});

describe('preferences', () => {
  it('answers the defaults, with the locked cells', async () => {
    const user = await signedIn(t);
    const { data } = await user.get<Preferences>('/api/users/notification-preferences');
    expect(data.events.bid_received).toEqual({ inApp: true, email: true, push: true });
    expect(data.events.saved_search).toEqual({ inApp: true, email: true, push: false });
    expect(data.events.moderation).toEqual({ inApp: true, email: false, push: false });
    expect(data.quietHours).toBeNull();
    expect(data.locked).toEqual([
      { event: 'order_update', channel: 'inApp' },
      { event: 'order_update', channel: 'email' },
    ]);
  });

  it.each([
    ['a locked cell turned off', { events: { order_update: { email: false } } }, 'events.order_update.email'],
    ['an unknown event', { events: { teleported: { push: true } } }, 'events.teleported'],
    ['an unknown channel', { events: { outbid: { pigeon: true } } }, 'events.outbid.pigeon'],
    ['a time of 25:00', { quietHours: { start: '25:00', end: '07:00', timeZone: 'Europe/Paris' } }, 'quietHours.start'],
    ['time zone Mars/Base', { quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Base' } }, 'quietHours.timeZone'],
  ])('%s: 400 naming %s, nothing changed', async (_name, body, field) => {
    const user = await signedIn(t);
    const before = (await user.get<Preferences>('/api/users/notification-preferences')).data;
    const res = await user.put('/api/users/notification-preferences', { ...body, events: { price_drop: { push: true }, ...(body as { events?: object }).events } });
    expect(res.status, res.body).toBe(400);
    expect((res.failure!.details as { field: string }[]).map((d) => d.field)).toContain(field);
    expect((await user.get<Preferences>('/api/users/notification-preferences')).data).toEqual(before);
  });

  it('keeps a change and the quiet hours; a turned-off push sends nothing', async () => {
    const seller = await signedIn(t);
    const bidder = await signedIn(t);
    const phone = await device(seller);
    const res = await seller.put<Preferences>('/api/users/notification-preferences', { events: { bid_received: { push: false } }, quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' } });
    expect(res.status, res.body).toBe(200);
    expect(res.data.events.bid_received).toEqual({ inApp: true, email: true, push: false });
    expect(res.data.quietHours).toEqual({ start: '22:00', end: '07:00', timeZone: 'Europe/Paris' });
    await seller.put('/api/users/notification-preferences', { quietHours: null });
    const car = await listCar(t, seller, { price: 100_000 });
    await bidder.post('/api/bids', { carId: car.id, amount: 100_000 });
    await jobsSettled(t, ['notify.dispatch', 'push.send']);
    expect(await phone.messages()).toHaveLength(0);
  });
});
