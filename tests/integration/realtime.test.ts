import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { seededCars } from '../helpers/cars.ts';
import { TestSockets, connectionError, emitAck, nextEvent, record, waitUntil } from '../helpers/sockets.ts';
import { caughtUp } from '../helpers/wait.ts';
import { requestsTo } from '../helpers/api.ts';
import { createUser, makeSellerOf } from '../helpers/users.ts';

let t: TestApp;
let url: string;
const sockets = new TestSockets(() => url);
const cars = seededCars();

beforeAll(async () => {
  t = await startTestApp();
  url = await t.listen();
  await cars.load(t);
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await t?.close();
});

const connect = (options: { token?: string; origin?: string } = {}) => sockets.connect(options);

const api = requestsTo(() => t);

/** A car of its own for each test, so counters and rooms start clean. */
const freshCar = cars.next;

async function carDetail(carId: number) {
  return (await api('GET', `/api/cars/${carId}`)).json().data as { price: number; currentBids: number; highestBid: number | null; viewingCount: number };
}

describe('connecting', () => {
  it('lets anonymous viewers join a car room and tells them the viewer count', async () => {
    const carId = freshCar();
    const socket = await connect();
    expect(await emitAck(socket, 'car:join', { carId })).toEqual({ ok: true, data: { carId, viewers: 1 } });
    const second = await connect();
    expect(await emitAck(second, 'car:join', { carId })).toEqual({ ok: true, data: { carId, viewers: 2 } });
    // Joining twice does not count twice.
    expect(await emitAck(second, 'car:join', { carId })).toEqual({ ok: true, data: { carId, viewers: 2 } });
    expect(await emitAck(second, 'car:leave', { carId })).toEqual({ ok: true, data: { carId, viewers: 1 } });
  });

  it('refuses unknown cars and malformed payloads in the ack', async () => {
    const socket = await connect();
    expect(await emitAck(socket, 'car:join', { carId: 999_999 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    for (const payload of [{}, { carId: '1' }, { carId: 1.5 }, { carId: -1 }, { carId: 1, extra: true }, null, 'car', [1]]) {
      expect(await emitAck(socket, 'car:join', payload), JSON.stringify(payload)).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', error: expect.any(String) });
    }
  });

  it('accepts a valid access token and refuses a bad or expired one with "unauthorized"', async () => {
    const user = await createUser(t);
    await connect({ token: user.accessToken });
    expect(await connectionError(url, { token: 'not-a-jwt' })).toBe('unauthorized');
    const [h, p, s] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const edited = `${h}.${Buffer.from(JSON.stringify({ ...claims, exp: 1 })).toString('base64url')}.${s}`;
    expect(await connectionError(url, { token: edited })).toBe('unauthorized');
  });

  it('refuses connections from other sites, on both transports', async () => {
    expect(await connectionError(url, { origin: 'https://evil.example.com' })).not.toBe('connected');
    expect(await connectionError(url, { origin: 'https://evil.example.com', transports: ['polling'] })).not.toBe('connected');
    await connect({ origin: t.config.appUrl });
  });

  it('lets in a page served from the host and port it connects to, though APP_URL names another', async () => {
    // The site opened as http://localhost:<port> while APP_URL says 127.0.0.1.
    const port = new URL(url).port;
    const asLocalhost = { origin: `http://localhost:${port}`, host: `localhost:${port}` };
    expect(t.config.appUrl).not.toContain('localhost');
    expect(await connectionError(url, asLocalhost)).toBe('connected');
    // Same name, another port (another site on that machine), or another name: still refused.
    expect(await connectionError(url, { origin: `http://localhost:${Number(port) + 1}`, host: `localhost:${port}` })).not.toBe('connected');
    expect(await connectionError(url, { origin: 'https://evil.example.com', host: `localhost:${port}` })).not.toBe('connected');
  });

  it('drops a client that sends a payload over 16 KB', async () => {
    const socket = await connect();
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.emit('car:join', { carId: 1, padding: 'x'.repeat(20_000) });
    expect(await closed).toBeTruthy();
  });

  it('rate-limits client events, then drops a client that keeps flooding', async () => {
    const carId = freshCar();
    const socket = await connect();
    const acks = await Promise.all(Array.from({ length: 40 }, () => emitAck(socket, 'car:join', { carId })));
    expect(acks.filter((a) => a.ok).length).toBeGreaterThanOrEqual(10);
    expect(acks.filter((a) => a.code === 'RATE_LIMITED').length).toBeGreaterThan(0);
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    for (let i = 0; i < 200; i++) socket.emit('car:join', { carId });
    await closed;
  });
});

describe('live chat', () => {
  it('stores messages and pushes them to every viewer of the car', async () => {
    const carId = freshCar();
    const author = await createUser(t, { name: 'Morgan <b>Bold</b>' });
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const otherCarViewer = await connect();
    await emitAck(otherCarViewer, 'car:join', { carId: freshCar() });
    const elsewhere = record(otherCarViewer, 'chat:message');

    const pushed = nextEvent<{ id: number }>(viewer, 'chat:message');
    const text = 'Is the <script>alert(1)</script> service history complete?';
    const res = await api('POST', '/api/chat', author, { carId, message: text, type: 'question' });
    expect(res.statusCode).toBe(201);
    const message = res.json().data;
    expect(message).toEqual({ id: expect.any(Number), carId, userId: author.id, userName: 'Morgan <b>Bold</b>', message: text, timestamp: expect.any(String), type: 'question', role: null, parentId: null, replyCount: 0, upvotes: 0, upvotedByMe: false, authorTags: [], status: 'visible' });
    expect(await pushed).toEqual({ ...message, emittedAt: expect.any(Number) });

    const history = (await api('GET', `/api/chat/car/${carId}`)).json().data.messages;
    expect(history.at(-1)).toEqual(message);
    // The same broadcast would have reached the other car's room: once that socket has caught up, nothing came.
    await caughtUp(otherCarViewer);
    expect(elsewhere).toEqual([]);
  });

  it('pages history with after and limit, oldest first', async () => {
    const carId = freshCar();
    const author = await createUser(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api('POST', '/api/chat', author, { carId, message: `message ${i}` })).json().data.id);
    const after = (await api('GET', `/api/chat/car/${carId}?after=${ids[1]}`)).json().data.messages;
    expect(after.map((m: { id: number }) => m.id)).toEqual(ids.slice(2));
    const latestTwo = (await api('GET', `/api/chat/car/${carId}?limit=2`)).json().data.messages;
    expect(latestTwo.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    expect((await api('GET', `/api/chat/car/${carId}?limit=101`)).statusCode).toBe(400);
    expect((await api('GET', '/api/chat/car/999999')).statusCode).toBe(404);
  });

  it('requires a signed-in, verified author and a real message', async () => {
    const carId = freshCar();
    const verified = await createUser(t);
    expect((await api('POST', '/api/chat', undefined, { carId, message: 'hi' })).statusCode).toBe(401);

    const unverified = await createUser(t, { verified: false });
    const [row] = await t.database.db.query.users.findMany({ where: (u, { eq }) => eq(u.email, unverified.email) });
    const { accessToken } = await signInAnyway(row!.id);
    const forbidden = await api('POST', '/api/chat', { ...unverified, auth: { authorization: `Bearer ${accessToken}` } }, { carId, message: 'hi' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('EMAIL_NOT_VERIFIED');

    for (const payload of [
      { carId, message: '' },
      { carId, message: '   \n\t ' },
      { carId, message: 'x'.repeat(1_001) },
      { carId, message: 'hi', type: 'bid' },
      { carId, message: 'hi', extra: 1 },
      { carId: String(carId), message: 'hi' },
    ]) {
      expect((await api('POST', '/api/chat', verified, payload)).statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
    }
    expect((await api('POST', '/api/chat', verified, { carId, message: 'x'.repeat(1_000) })).statusCode).toBe(201);
    expect((await api('POST', '/api/chat', verified, { carId: 999_999, message: 'hi' })).statusCode).toBe(404);
  });
});

/** Unverified accounts cannot sign in; tests reach the verified-only guard with a session made directly. */
async function signInAnyway(userId: number) {
  const { sessions } = await import('../../db/schema/index.ts');
  const [session] = await t.database.db.insert(sessions).values({ userId, expiresAt: new Date(Date.now() + 3_600_000) }).returning();
  return { accessToken: await t.app.accessTokens.sign({ userId, sessionId: session!.id }) };
}

describe('bids', () => {
  it('accepts a bid at the minimum, pushes it, announces it in chat and notifies the seller and the outbid leader', async () => {
    const carId = freshCar();
    const seller = await createUser(t, { name: 'Sam Seller' });
    await makeSellerOf(t, carId, seller.id);
    const alice = await createUser(t, { name: 'Alice' });
    const bob = await createUser(t, { name: 'Bob' });
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const sellerSocket = await connect({ token: seller.accessToken });
    const aliceSocket = await connect({ token: alice.accessToken });
    const bids = record<{ bid: { amount: number } }>(viewer, 'bid:placed');
    const chat = record<{ type: string; message: string }>(viewer, 'chat:message');

    const { price } = await carDetail(carId);
    const opening = Math.ceil((price * 0.5) / 100) * 100;
    const tooLow = await api('POST', '/api/bids', alice, { carId, amount: opening - 1 });
    expect(tooLow.statusCode).toBe(409);
    expect(tooLow.json()).toMatchObject({ code: 'BID_TOO_LOW', details: { minimumAmount: opening, highestBid: null } });

    const sellerNotified = nextEvent<{ type: string; title: string; carId: number }>(sellerSocket, 'notification:new');
    const first = await api('POST', '/api/bids', alice, { carId, amount: opening });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toEqual({
      bid: { id: expect.any(Number), carId, userId: alice.id, userName: 'Alice', amount: opening, timestamp: expect.any(String), auto: false },
      car: { id: carId, currentBids: 1, highestBid: opening, endsAt: null, reserveMet: null },
      // v3: a bid without a maximum counts as one equal to its amount; private to the bidder.
      maxAmount: opening,
      leading: true,
    });
    expect(await sellerNotified).toMatchObject({ type: 'bid', carId });

    const outbid = nextEvent<{ title: string }>(aliceSocket, 'notification:new');
    const second = await api('POST', '/api/bids', bob, { carId, amount: opening + 10_000 });
    expect(second.statusCode).toBe(201);
    expect((await outbid).title).toMatch(/outbid/i);

    await waitUntil(() => bids.length === 2 && chat.length === 2, 3_000, 'pushed bids');
    expect(bids.map((b) => b.bid.amount)).toEqual([opening, opening + 10_000]);
    expect(chat.every((m) => m.type === 'bid')).toBe(true);
    expect(await carDetail(carId)).toMatchObject({ currentBids: 2, highestBid: opening + 10_000 });

    // The leader may raise their own bid.
    const minimum = (await api('POST', '/api/bids', bob, { carId, amount: opening + 10_001 })).json().details.minimumAmount;
    expect((await api('POST', '/api/bids', bob, { carId, amount: minimum })).statusCode).toBe(201);

    const history = (await api('GET', `/api/bids/car/${carId}`)).json().data.bids;
    expect(history.map((b: { amount: number }) => b.amount)).toEqual([minimum, opening + 10_000, opening]);
    const mine = (await api('GET', '/api/bids/user', alice)).json().data.bids;
    expect(mine).toEqual([expect.objectContaining({ amount: opening, status: 'outbid', car: expect.objectContaining({ id: carId, highestBid: minimum }) })]);
    expect((await api('GET', '/api/bids/user', bob)).json().data.bids[0].status).toBe('leading');
  });

  it('refuses the seller, strangers to the rules and bad amounts', async () => {
    const carId = freshCar();
    const seller = await createUser(t);
    await makeSellerOf(t, carId, seller.id);
    const { price } = await carDetail(carId);
    const own = await api('POST', '/api/bids', seller, { carId, amount: price });
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('CANNOT_BID_OWN_CAR');
    expect((await api('POST', '/api/bids', undefined, { carId, amount: price })).statusCode).toBe(401);
    const bidder = await createUser(t);
    for (const amount of [0, -5, 1.5, '250000', 100_000_001, null]) {
      expect((await api('POST', '/api/bids', bidder, { carId, amount })).statusCode, String(amount)).toBe(400);
    }
    expect((await api('POST', '/api/bids', bidder, { carId: 999_999, amount: price })).statusCode).toBe(404);
    expect((await api('GET', '/api/bids/car/999999')).statusCode).toBe(404);
  });

  it('honours Idempotency-Key per user: a repeat returns the first result and counts once', async () => {
    const carId = freshCar();
    const user = await createUser(t);
    const other = await createUser(t);
    const { price } = await carDetail(carId);
    const headers = { 'idempotency-key': 'retry-123' };
    const results = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/api/bids', user, { carId, amount: price }, headers)));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const bodies = results.map((r) => r.json().data);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect((await carDetail(carId)).currentBids).toBe(1);
    // The same key from another user is a different request.
    expect((await api('POST', '/api/bids', other, { carId, amount: price + 5_000 }, headers)).statusCode).toBe(201);
    expect((await carDetail(carId)).currentBids).toBe(2);
  });

  it('keeps every invariant under a storm of concurrent bids', async () => {
    const carId = freshCar();
    const bidders = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    const pushed = record<{ bid: { id: number; amount: number } }>(viewer, 'bid:placed');
    const { price } = await carDetail(carId);
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const amount = Math.round(price * (0.5 + Math.random() * 1.5));
        return api('POST', '/api/bids', bidders[i % bidders.length], { carId, amount });
      }),
    );
    expect(responses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const accepted = responses.filter((r) => r.statusCode === 201).map((r) => r.json().data.bid as { id: number; amount: number });
    expect(accepted.length).toBeGreaterThan(0);
    const inCommitOrder = [...accepted].sort((a, b) => a.id - b.id).map((b) => b.amount);
    for (let i = 1; i < inCommitOrder.length; i++) expect(inCommitOrder[i]!).toBeGreaterThan(inCommitOrder[i - 1]!);
    const detail = await carDetail(carId);
    expect(detail.currentBids).toBe(accepted.length);
    expect(detail.highestBid).toBe(Math.max(...inCommitOrder));
    const stored = (await api('GET', `/api/bids/car/${carId}`)).json().data.bids;
    expect(stored).toHaveLength(accepted.length);
    await waitUntil(() => pushed.length === accepted.length, 5_000, 'every accepted bid pushed');
    expect(pushed.map((p) => p.bid.id)).toEqual([...accepted].sort((a, b) => a.id - b.id).map((b) => b.id));
    for (const rejected of responses.filter((r) => r.statusCode === 409)) {
      expect(rejected.json().details.minimumAmount).toBeGreaterThan(rejected.json().details.highestBid ?? 0);
    }
  });
});

describe('notifications', () => {
  it('lists newest first, marks read one or all, and syncs unread counts to other tabs', async () => {
    const carId = freshCar();
    const seller = await createUser(t);
    await makeSellerOf(t, carId, seller.id);
    const buyer = await createUser(t);
    const otherTab = await connect({ token: seller.accessToken });
    for (let i = 0; i < 3; i++) await api('POST', '/api/chat', buyer, { carId, message: `question ${i}` });
    await waitUntil(async () => (await api('GET', '/api/notifications', seller)).json().data.unreadCount === 3, 3_000, 'three notifications');
    const { notifications } = (await api('GET', '/api/notifications', seller)).json().data;
    expect(notifications[0]).toEqual({ id: expect.any(Number), type: 'message', event: 'question_received', title: expect.any(String), message: expect.stringContaining('question 2'), timestamp: expect.any(String), read: false, carId });
    expect(notifications.map((n: { id: number }) => n.id)).toEqual([...notifications.map((n: { id: number }) => n.id)].sort((a, b) => b - a));

    const synced = nextEvent<{ unreadCount: number }>(otherTab, 'notification:unread');
    const one = await api('PUT', `/api/notifications/${notifications[0].id}/read`, seller);
    expect(one.json().data.read).toBe(true);
    expect((await synced).unreadCount).toBe(2);

    expect((await api('PUT', `/api/notifications/${notifications[1].id}/read`, buyer)).statusCode).toBe(404);
    expect((await api('PUT', '/api/notifications/999999/read', seller)).statusCode).toBe(404);

    const cleared = nextEvent<{ unreadCount: number }>(otherTab, 'notification:unread');
    expect((await api('PUT', '/api/notifications/read-all', seller)).json().data).toEqual({ updated: 2 });
    expect((await cleared).unreadCount).toBe(0);
    expect((await api('GET', '/api/notifications')).statusCode).toBe(401);
  });
});

describe('session revocation', () => {
  it('logout sends session:revoked to that session only and disconnects it', async () => {
    const user = await createUser(t);
    const socket = await connect({ token: user.accessToken });
    const anonymous = await connect();
    const revoked = nextEvent(socket, 'session:revoked');
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    await api('POST', '/api/auth/logout', user, { refreshToken: user.refreshToken });
    await revoked;
    await disconnected;
    expect(anonymous.connected).toBe(true);
    expect(await connectionError(url, { token: user.accessToken })).toBe('unauthorized');
  });
});

describe('presence', () => {
  it('counts viewers live in the listing and the detail, coalescing updates during a join storm', async () => {
    const carId = freshCar();
    const observer = await connect();
    await emitAck(observer, 'car:join', { carId });
    const updates = record<{ carId: number; count: number }>(observer, 'car:viewers');
    const storm = await Promise.all(Array.from({ length: 40 }, () => connect()));
    await Promise.all(storm.map((s) => emitAck(s, 'car:join', { carId })));
    await waitUntil(() => updates.at(-1)?.count === 41, 4_000, 'count of 41');
    // 40 joins cost the observer a handful of updates, not 40.
    expect(updates.length).toBeLessThanOrEqual(4);
    expect((await carDetail(carId)).viewingCount).toBe(41);
    const listed = (await api('GET', '/api/cars?limit=50')).json().data.cars.find((c: { id: number }) => c.id === carId);
    expect(listed.viewing_count).toBe(41);
    expect((await api('GET', '/api/cars?sort=popular&limit=1')).json().data.cars[0].id).toBe(carId);

    for (const s of storm.slice(0, 30)) s.close();
    await waitUntil(() => updates.at(-1)?.count === 11, 4_000, 'count back to 11');
    expect((await carDetail(carId)).viewingCount).toBe(11);
    for (const s of storm) s.close();
  });

  it('lets listing cards watch counters without counting as viewers', async () => {
    const carId = freshCar();
    const grid = await connect();
    expect(await emitAck(grid, 'cars:watch', { carIds: [carId] })).toEqual({ ok: true, data: { carIds: [carId] } });
    const summaries = record<{ carId: number; viewers?: number; currentBids?: number }>(grid, 'car:summary');
    const viewer = await connect();
    await emitAck(viewer, 'car:join', { carId });
    await waitUntil(() => summaries.some((s) => s.viewers === 1), 3_000, 'viewer summary');
    expect((await carDetail(carId)).viewingCount).toBe(1);
    const bidder = await createUser(t);
    await api('POST', '/api/bids', bidder, { carId, amount: (await carDetail(carId)).price });
    await waitUntil(() => summaries.some((s) => s.currentBids === 1), 3_000, 'bid summary');
    expect(await emitAck(grid, 'cars:watch', { carIds: Array.from({ length: 61 }, (_, i) => i + 1) })).toMatchObject({ ok: false });
  });
});

describe('plain WebSocket feed', () => {
  const wsUrl = () => `${url.replace('http', 'ws')}/api/stream`;

  function open(options: { origin?: string; host?: string; token?: string } = {}): Promise<{ ws: WebSocket; frames: { event: string; data: Record<string, unknown> }[] }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(options.token ? `${wsUrl()}?token=${options.token}` : wsUrl(), {
        ...(options.origin ? { origin: options.origin } : {}),
        ...(options.host ? { headers: { host: options.host } } : {}),
      });
      const frames: { event: string; data: Record<string, unknown> }[] = [];
      ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
      ws.once('open', () => resolve({ ws, frames }));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  it('streams a car’s events after a subscribe, as JSON text frames', async () => {
    const carId = freshCar();
    const { ws, frames } = await open();
    ws.send(JSON.stringify({ subscribe: carId }));
    await waitUntil(() => frames.some((f) => f.event === 'subscribed'), 3_000, 'subscribed');
    const author = await createUser(t);
    await api('POST', '/api/chat', author, { carId, message: 'Hello feed' });
    await api('POST', '/api/bids', author, { carId, amount: (await carDetail(carId)).price });
    await waitUntil(() => frames.some((f) => f.event === 'bid:placed'), 3_000, 'bid frame');
    expect(frames.find((f) => f.event === 'chat:message')?.data).toMatchObject({ carId, message: 'Hello feed' });
    ws.send('not json');
    ws.send(JSON.stringify({ subscribe: 999_999 }));
    await waitUntil(() => frames.filter((f) => f.event === 'error').length === 2, 3_000, 'error frames');
    ws.close();
  });

  it('applies the origin and token rules before upgrading', async () => {
    await expect(open({ origin: 'https://evil.example.com' })).rejects.toThrow('HTTP 403');
    const port = new URL(url).port;
    await expect(open({ origin: 'https://evil.example.com', host: `localhost:${port}` })).rejects.toThrow('HTTP 403');
    await expect(open({ origin: `http://localhost:${Number(port) + 1}`, host: `localhost:${port}` })).rejects.toThrow('HTTP 403');
    // A page served from the host and port it connects to, whatever APP_URL says.
    (await open({ origin: `http://localhost:${port}`, host: `localhost:${port}` })).ws.close();
    await expect(open({ token: 'bad' })).rejects.toThrow('HTTP 401');
    const user = await createUser(t);
    const { ws } = await open({ token: user.accessToken });
    ws.close();
  });
});

describe('metrics', () => {
  it('exposes Prometheus metrics for requests, sockets, events and bids', async () => {
    const socket = await connect();
    await emitAck(socket, 'car:join', { carId: freshCar() });
    await api('GET', '/api/cars');
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const name of ['http_request_duration_seconds_bucket{', 'socketio_connected_sockets', 'socketio_rooms', 'realtime_events_emitted_total', 'bids_total', 'nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(res.body, name).toContain(name);
    }
    expect(res.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/cars",status_code="200"\} [1-9]/);
    expect(Number(/^socketio_connected_sockets (\d+)/m.exec(res.body)?.[1])).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatch(/bids_total\{result="accepted"\} [1-9]/);
  });
});
