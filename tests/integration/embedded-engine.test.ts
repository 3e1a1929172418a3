import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../db/client.ts';
import { waitUntil } from '../helpers/sockets.ts';

/**
 * The embedded database (PGlite) runs in a worker thread of its own, reached through the same
 * driver as PostgreSQL: a statement that takes long occupies that thread, never the event loop
 * that reads requests and pushes events. Whatever DATABASE_URL says, these open the embedded one.
 */
describe('the embedded database in its own thread', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('keeps timers firing while a statement runs, and counts the statement queued behind it as waiting', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    try {
      // drizzle sends a query when it is awaited or `then` is called: both go out now.
      const long = handle.db.execute(sql`select pg_sleep(1.5) as slept`).then(rowsOf);
      const behind = handle.db.execute(sql`select 41 + 1 as answer`).then(rowsOf);
      // Observed from a timer: on the engine's own thread nothing here could run until the end.
      await waitUntil(() => handle.queueMs() >= 500, 10_000, 'the statement behind the long one to have waited 500 ms');
      expect(ticks).toBeGreaterThanOrEqual(10);
      const [, answered] = await Promise.all([long, behind]);
      expect(answered).toEqual([{ answer: 42 }]);
      expect(handle.queueMs()).toBe(0);
    } finally {
      clearInterval(timer);
    }
  });

  it('answers statements sent at once in the order they were sent, each with its own rows', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => handle.db.execute(sql`select ${i}::int as n`)));
    expect(answers.map((answer) => rowsOf(answer)[0]!.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('rolls back a failed transaction and goes on serving the next statement', async () => {
    await handle.db.execute(sql`create table if not exists engine_probe (id int primary key)`);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into engine_probe (id) values (1)`);
        await tx.execute(sql`insert into engine_probe (id) values (1)`);
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(rowsOf(await handle.db.execute(sql`select count(*)::int as n from engine_probe`))).toEqual([{ n: 0 }]);
  });
});

describe('the embedded database in a folder', () => {
  const folder = mkdtempSync(join(tmpdir(), 'lm-engine-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps what was written after it is closed, and opens again once closed', async () => {
    const first = await openDatabase({ databaseUrl: null, dataDir: folder });
    await first.db.execute(sql`create table kept (note text)`);
    await first.db.execute(sql`insert into kept (note) values ('still here')`);
    await first.close();
    // The lock is given back.
    expect(readdirSync(folder)).not.toContain('pglite.lock');

    const second = await openDatabase({ databaseUrl: null, dataDir: folder });
    try {
      expect(rowsOf(await second.db.execute(sql`select note from kept`))).toEqual([{ note: 'still here' }]);
    } finally {
      await second.close();
    }
  });
});
