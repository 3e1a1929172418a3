import { CHAT_RATE_LIMIT } from '../../common/discussion.ts';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.ts';
import { PrivateRedis, redisServerAvailable } from '../helpers/private-redis.ts';
import { http, insertAccounts, signIn } from '../helpers/server-database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { connectSocket, emitAck, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';

/**
 * The workers of one host (WEB_CONCURRENCY=2) share events only through Redis, as processes on
 * different hosts do. While Redis is away each worker goes on delivering what is posted through it
 * to every viewer it holds, at once, and its sibling's viewers miss it; when Redis is back,
 * delivery between them resumes by itself.
 */

const haveRedis = redisServerAvailable();
const onPostgres = Boolean(process.env.DATABASE_URL);
if (!haveRedis || !onPostgres) {
  console.log('[redis-outage-workers] skipped: two workers on one host need PostgreSQL and redis-server; it runs in .ci/run\'s PostgreSQL pass.');
}

const sockets: ClientSocket[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * One request on a connection of its own: the primary hands each new connection to the next
 * worker, so requests in a row reach both (fetch would reuse one connection, and one worker).
 */
function onNewConnection<T>(base: string, token: string | null, method: string, path: string, body?: object): Promise<{ status: number; body: { data: T } }> {
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method,
      agent: false,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { data: T } }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The worker slot that holds a socket's session: session ids start with it (`1.Qx8…`). */
const slotOf = (socket: ClientSocket) => Number((socket.io.engine as unknown as { id: string }).id.split('.')[0]);

describe.skipIf(!haveRedis || !onPostgres)('two workers on one host while Redis is away', () => {
  it('delivers each chat message to every viewer of the worker it was posted through during the outage, and to everyone before and after it', async () => {
    const redis = await PrivateRedis.start();
    cleanups.push(() => redis.stop());
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    // Nine messages: more than one user may post on a car in the discussion's rate-limit window.
    const authors = await insertAccounts(database.db, ['Worker Author', 'Second Worker Author']);
    const server: ServerProcess = await startServerProcess({
      DATABASE_URL: database.url!,
      REDIS_URL: redis.url,
      REDIS_PREFIX: `lmtest-row-${process.pid}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-row-')),
      WEB_CONCURRENCY: '2',
      JWT_SECRET: 'redis-outage-workers-secret-0123456789ab',
    });
    cleanups.push(() => server.kill('SIGKILL'));
    const tokens = [await signIn(server.url, authors[0]!), await signIn(server.url, authors[1]!)];
    const carId = ((await http<{ cars: { id: number }[] }>(server.url, null, 'GET', '/api/cars?limit=1')).body.data.cars[0]!).id;

    // The primary hands connections to the workers in turn: enough viewers land on both.
    const viewers: ClientSocket[] = [];
    for (let i = 0; i < 8; i += 1) {
      const socket = await connectSocket(server.url, { transports: ['websocket'] });
      sockets.push(socket);
      expect(await emitAck(socket, 'car:join', { carId })).toMatchObject({ ok: true });
      viewers.push(socket);
    }
    expect(new Set(viewers.map(slotOf)).size, 'viewers on both workers').toBe(2);
    const received = viewers.map((socket) => record<{ message: string }>(socket, 'chat:message'));

    let posted = 0;
    const post = async (message: string) => {
      const token = tokens[Math.floor(posted++ / CHAT_RATE_LIMIT.messages)]!;
      const res = await onNewConnection(server.url, token, 'POST', '/api/chat', { carId, message });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    // Health answers come from either worker in turn: several alike in a row are both workers' view.
    const redisSeenAs = async (state: 'ok' | 'unreachable') => {
      let alike = 0;
      await waitUntil(
        async () => {
          const health = await onNewConnection<{ redis: string }>(server.url, null, 'GET', '/api/health');
          alike = health.body.data.redis === state ? alike + 1 : 0;
          return alike >= 4;
        },
        20_000,
        `both workers to see Redis ${state}`,
      );
    };
    const everyoneHas = (message: string) => waitUntil(() => received.every((list) => list.some((m) => m.message === message)), 5_000, `"${message}" at every viewer`);

    await post('before the outage');
    await everyoneHas('before the outage');

    await redis.stop();
    await redisSeenAs('unreachable');
    // Several posts, so they land on both workers (connections are handed out in turn).
    const slots = viewers.map(slotOf);
    const viewersOfOneWorkerHave = (message: string) =>
      waitUntil(
        () => [0, 1].some((slot) => received.every((list, i) => slots[i] !== slot || list.some((m) => m.message === message))),
        5_000,
        `"${message}" at every viewer of one worker`,
      );
    for (let i = 0; i < 4; i += 1) await post(`during the outage ${i}`);
    for (let i = 0; i < 4; i += 1) await viewersOfOneWorkerHave(`during the outage ${i}`);

    await redis.start();
    await redisSeenAs('ok');
    for (let i = 0; i < 4; i += 1) await post(`after the outage ${i}`);
    for (let i = 0; i < 4; i += 1) await everyoneHas(`after the outage ${i}`);
    // By now anything relayed late would have arrived: each outage message reached exactly the
    // viewers of the worker it was posted through.
    const servedBy = new Set<number>();
    for (let i = 0; i < 4; i += 1) {
      const holders = new Set(received.flatMap((list, v) => (list.some((m) => m.message === `during the outage ${i}`) ? [slots[v]!] : [])));
      expect(holders.size, `worker(s) whose viewers got "during the outage ${i}"`).toBe(1);
      for (const slot of holders) servedBy.add(slot);
    }
    expect(servedBy.size, 'outage messages posted through both workers, each served to its own viewers').toBe(2);
    // Nothing twice.
    for (const list of received) expect(list.map((m) => m.message)).toEqual([...new Set(list.map((m) => m.message))]);
  }, 90_000);
});
