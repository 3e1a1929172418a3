import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { connectSocket, emitAck, nextEvent, record, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { createUser, makeSellerOf } from '../helpers/users.ts';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const canRun = Boolean(databaseUrl && redisUrl);
if (!canRun) {
  console.log('[multi-process] skipped: needs DATABASE_URL (PostgreSQL) and REDIS_URL; .ci/run sets both for its second pass.');
}

/**
 * Two server processes sharing PostgreSQL and Redis: process A runs in the test, process B is a
 * real child process started like production. Whatever a client does on one, clients on the
 * other see.
 */
describe.skipIf(!canRun)('two server processes', () => {
  const secret = 'multi-process-test-secret-0123456789abcdef';
  const prefix = `lmtest-mp-${process.pid}`;
  let database: TestDatabase;
  let a: TestApp;
  let b: ServerProcess;
  let bUrl: string;
  const sockets: ClientSocket[] = [];
  let carId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startTestApp({ REDIS_URL: redisUrl!, REDIS_PREFIX: prefix, JWT_SECRET: secret }, database);
    await a.listen();
    b = await startServerProcess({
      DATABASE_URL: database.url!,
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: prefix,
      JWT_SECRET: secret,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-b-')),
    });
    bUrl = b.url;
    carId = (await a.app.inject({ method: 'GET', url: '/api/cars' })).json().data.cars[0].id;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await b?.kill();
    await a?.close();
    await database?.close();
  });

  const connect = async (url: string, token?: string) => {
    const socket = await connectSocket(url, token ? { token } : {});
    sockets.push(socket);
    return socket;
  };

  it('delivers chat messages and bids written through A to viewers on B', async () => {
    const viewerOnB = await connect(bUrl);
    await emitAck(viewerOnB, 'car:join', { carId });
    const author = await createUser(a);
    const chat = nextEvent<{ message: string }>(viewerOnB, 'chat:message', (m) => m.message === 'Seen on B?');
    const posted = await a.app.inject({ method: 'POST', url: '/api/chat', headers: author.auth, payload: { carId, message: 'Seen on B?' } });
    expect(posted.statusCode).toBe(201);
    expect((await chat).message).toBe('Seen on B?');

    const price = (await a.app.inject({ method: 'GET', url: `/api/cars/${carId}` })).json().data.price;
    const bid = nextEvent<{ bid: { amount: number } }>(viewerOnB, 'bid:placed');
    expect((await a.app.inject({ method: 'POST', url: '/api/bids', headers: author.auth, payload: { carId, amount: price } })).statusCode).toBe(201);
    expect((await bid).bid.amount).toBe(price);
  });

  it('notifies a seller connected to B about a bid placed through A', async () => {
    const seller = await createUser(a);
    const otherCar = (await a.app.inject({ method: 'GET', url: '/api/cars?sort=price-high' })).json().data.cars[0].id;
    await makeSellerOf(a, otherCar, seller.id);
    const sellerOnB = await connect(bUrl, seller.accessToken);
    const bidder = await createUser(a);
    const notified = nextEvent<{ type: string; carId: number }>(sellerOnB, 'notification:new');
    const price = (await a.app.inject({ method: 'GET', url: `/api/cars/${otherCar}` })).json().data.price;
    await a.app.inject({ method: 'POST', url: '/api/bids', headers: bidder.auth, payload: { carId: otherCar, amount: price } });
    expect(await notified).toMatchObject({ type: 'bid', carId: otherCar });
  });

  it('sums viewer counts across both processes without double counting', async () => {
    const countCar = (await a.app.inject({ method: 'GET', url: '/api/cars?sort=year-old' })).json().data.cars[0].id;
    const onA = await Promise.all([connect(a.url), connect(a.url)]);
    const onB = await Promise.all([connect(bUrl), connect(bUrl), connect(bUrl)]);
    const updatesOnA = record<{ count: number }>(onA[0]!, 'car:viewers');
    const updatesOnB = record<{ count: number }>(onB[0]!, 'car:viewers');
    for (const socket of [...onA, ...onB]) await emitAck(socket, 'car:join', { carId: countCar });
    const viewingCount = async (base: string) => ((await (await fetch(`${base}/api/cars/${countCar}`)).json()) as { data: { viewingCount: number } }).data.viewingCount;
    await waitUntil(async () => (await viewingCount(a.url)) === 5 && (await viewingCount(bUrl)) === 5, 8_000, 'both processes to count 5');
    await waitUntil(() => updatesOnA.at(-1)?.count === 5 && updatesOnB.at(-1)?.count === 5, 8_000, 'car:viewers of 5 on both');
    const listed = (await (await fetch(`${a.url}/api/cars?sort=year-old`)).json()) as { data: { cars: { id: number; viewing_count: number }[] } };
    expect(listed.data.cars.find((c) => c.id === countCar)?.viewing_count).toBe(5);
    for (const socket of onB) socket.close();
    await waitUntil(async () => (await viewingCount(a.url)) === 2, 8_000, 'count back to 2 on A');
  });

  it('disconnects a session on B when it logs out through A', async () => {
    const user = await createUser(a);
    const onB = await connect(bUrl, user.accessToken);
    const revoked = nextEvent(onB, 'session:revoked');
    const disconnected = new Promise<void>((resolve) => onB.once('disconnect', () => resolve()));
    await a.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: user.refreshToken } });
    await revoked;
    await disconnected;
  });

  it('forgets the viewers of a process that dies', async () => {
    const deadCar = (await a.app.inject({ method: 'GET', url: '/api/cars?sort=price-high' })).json().data.cars[1].id;
    const onB = await connect(bUrl);
    await emitAck(onB, 'car:join', { carId: deadCar });
    const viewingCount = async () => (await a.app.inject({ method: 'GET', url: `/api/cars/${deadCar}` })).json().data.viewingCount as number;
    await waitUntil(async () => (await viewingCount()) === 1, 8_000, 'A to see the viewer on B');
    await b.kill('SIGKILL');
    await waitUntil(async () => (await viewingCount()) === 0, 15_000, 'A to drop the dead process');
  });
});
