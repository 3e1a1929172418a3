import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlowConsumerGuard } from '../../server/src/realtime/slow-consumers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectSocket, emitAck, openStalledClient, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { CHAT_RATE_LIMIT } from '../../common/discussion.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * A client that stops reading is let go once its backlog passes the limit. The kernel takes
 * megabytes per TCP connection before the server buffers anything itself, so a stalled
 * WebSocket needs far more traffic than a test suite should send: the 1,000 stalled
 * WebSockets are `npm run faults`. Here long-polling, where nothing sits in the kernel.
 */
let t: TestApp;
let url: string;
// A user may post only a few messages a car in a short window: the flood comes from several.
let authors: SignedInUser[];
let carId: number;
const MAX_MESSAGES = 50;

beforeAll(async () => {
  t = await startTestApp({ SOCKET_MAX_BACKLOG_MESSAGES: String(MAX_MESSAGES) });
  url = await t.listen();
  const authorCount = Math.ceil((MAX_MESSAGES + 20) / CHAT_RATE_LIMIT.messages);
  authors = await Promise.all(Array.from({ length: authorCount }, (_, i) => createUser(t, { name: `Chatty Buyer ${i + 1}` })));
  carId = (await t.app.inject({ method: 'GET', url: '/api/cars?limit=1' })).json().data.cars[0].id;
});
afterAll(async () => {
  await t?.close();
});

async function droppedCount(transport: string): Promise<number> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`realtime_slow_consumers_dropped_total{transport="${transport}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('clients that stop reading', () => {
  it('are disconnected once their backlog passes the limit, while readers get every message', async () => {
    const reader: ClientSocket = await connectSocket(url);
    await emitAck(reader, 'car:join', { carId });
    const received = record<{ id: number }>(reader, 'chat:message');
    const stalled = await openStalledClient(url, carId, 'polling');
    const connectionsBefore = t.app.io.engine.clientsCount;

    const posted = MAX_MESSAGES + 20;
    for (let i = 0; i < posted; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/chat', headers: authors[Math.floor(i / CHAT_RATE_LIMIT.messages)]!.auth, payload: { carId, message: `Message ${i} about the service history` } });
      expect(res.statusCode, res.body).toBe(201);
    }

    await waitUntil(() => received.length === posted, 10_000, 'the reading client to receive every message');
    // Connections are checked a few times a second.
    await waitUntil(async () => (await droppedCount('socket.io')) === 1, 10_000, 'the stalled client to be let go');
    expect(t.app.io.engine.clientsCount).toBe(connectionsBefore - 1);
    // When it polls again, it learns its session is over instead of collecting a backlog.
    stalled.resume();
    await stalled.closed;
    expect(reader.connected).toBe(true);
    reader.close();
  });

  it('are judged by bytes waiting and by messages queued, each limit on its own', () => {
    const guard = new SlowConsumerGuard({ maxBytes: 1_024, maxMessages: 10 }, () => {});
    expect(guard.isOverLimit(1_024, 10)).toBe(false);
    expect(guard.isOverLimit(1_025, 0)).toBe(true);
    expect(guard.isOverLimit(0, 11)).toBe(true);
    const unlimited = new SlowConsumerGuard({ maxBytes: 0, maxMessages: 0 }, () => {});
    expect(unlimited.isOverLimit(1e9, 1e6)).toBe(false);
  });
});
