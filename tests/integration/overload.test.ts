import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '@common/schemas/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { signedIn, visitor, type SignedInClient } from '../helpers/api.ts';
import { listCar } from '../helpers/cars.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * Contract "Operations at scale (v4)": when the database falls behind, writes are refused at once
 * with 503 and Retry-After, reads still answer, health does not wait, and nothing is half-written.
 * The database is held by transactions of the test's own: on PostgreSQL they take every pooled
 * connection, on the embedded database one holds the engine itself.
 */

// Long enough that the app's own start and the setup below never pass it on a busy machine.
const LIMIT_MS = 1_000;
let t: TestApp;
let seller: SignedInClient;
let bidder: SignedInClient;

beforeAll(async () => {
  t = await startTestApp({ DB_QUEUE_LIMIT_MS: String(LIMIT_MS) });
  await waitFor(async () => (await visitor(t).get<Health>('/api/health')).data?.db === 'ok', { message: 'the database to keep up' });
  seller = await signedIn(t, { name: 'Sheila Seller' });
  bidder = await signedIn(t, { name: 'Bram Bidder' });
});
afterAll(async () => {
  await t?.close();
});

/** The test database's pool on PostgreSQL (tests/helpers/database.ts). */
const POOL_SIZE = 10;

/**
 * Holds the database until `release()`: on PostgreSQL every connection of the pool is taken by
 * an open transaction, on the embedded database the first of them holds the engine. Anything
 * else then waits for the database.
 */
async function holdDatabase(): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holders = t.database.driver === 'postgres' ? POOL_SIZE : 1;
  const begun: Promise<void>[] = [];
  const done = Array.from({ length: holders }, () => {
    let begin!: () => void;
    begun.push(new Promise<void>((resolve) => (begin = resolve)));
    return t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      begin();
      await released;
    });
  });
  await Promise.all(begun);
  return {
    release: async () => {
      release();
      await Promise.all(done);
    },
  };
}

describe('overload', () => {
  it('refuses writes with 503 and Retry-After while the database is behind, keeps reads and health answering, and writes nothing it refused', async () => {
    const held = await listCar(t, seller, { price: 80_000 });
    const other = await listCar(t, seller, { price: 90_000 });
    const hold = await holdDatabase();

    // A write that gets in before the queue is old: it waits for the database, and makes the queue.
    const waiting = bidder.post('/api/bids', { carId: held.id, amount: 80_000 });
    const health = await waitFor(
      async () => {
        const answer = await visitor(t).get<Health>('/api/health');
        return answer.data?.db === 'busy' ? answer : null;
      },
      { timeoutMs: 10_000, message: 'health to report the database busy' },
    );
    expect(health.status).toBe(200);
    expect(health.data).toEqual({ status: 'degraded', db: 'busy', redis: 'off', queueMs: expect.any(Number) });
    expect(health.data.queueMs).toBeGreaterThan(LIMIT_MS);

    const refusedBid = await bidder.post('/api/bids', { carId: other.id, amount: 90_000 });
    expect(refusedBid.status).toBe(503);
    expect(refusedBid.failure?.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(refusedBid.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const refusedChat = await bidder.post('/api/chat', { carId: other.id, message: 'Is the service history complete?' });
    expect(refusedChat.status).toBe(503);
    expect(refusedChat.failure?.code).toBe('SERVICE_UNAVAILABLE');
    expect(refusedChat.headers['retry-after']).toBeDefined();

    // Reads are not refused: they wait their turn and answer once the database is free again.
    const listing = visitor(t).get('/api/cars');
    const page = visitor(t).get(`/api/cars/${other.id}`);
    await hold.release();
    expect((await listing).status).toBe(200);
    expect((await page).status).toBe(200);

    // The write that was let in completes; the refused ones left nothing behind.
    expect((await waiting).status).toBe(201);
    const bidsOnOther = await visitor(t).get<{ bids: unknown[] }>(`/api/bids/car/${other.id}`);
    expect(bidsOnOther.data.bids).toEqual([]);
    const chatOnOther = await visitor(t).get<{ messages: unknown[] }>(`/api/chat/car/${other.id}`);
    expect(chatOnOther.data.messages).toEqual([]);

    // Once the queue has drained, writes are taken again.
    await waitFor(async () => (await visitor(t).get<Health>('/api/health')).data?.db === 'ok', { timeoutMs: 10_000, message: 'health to report the database ok' });
    expect((await bidder.post('/api/chat', { carId: other.id, message: 'Is the service history complete?' })).status).toBe(201);
  });
});
