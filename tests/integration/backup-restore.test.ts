import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupRefused, readBackupHeader, restoreBackup, writeBackup, type BackupSummary } from '../../db/backup.ts';
import { MIGRATIONS_FOLDER, openDatabase, rowsOf as rowsOfResult, type Database } from '../../db/client.ts';
import { auditLog, bids, cars, orderEvents, orders, payments, users } from '../../db/schema/index.ts';
import { installJobSchema } from '../../server/src/cli/job-schema.ts';
import { verifyAuditChain } from '../../server/src/services/audit.ts';
import { MoneyDesk } from '../../server/src/services/back-office/money.ts';
import { runOperatorCommand } from '../../server/src/services/operator-commands.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createPostgresDatabase, type TestDatabase } from '../helpers/database.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { createUser, TEST_PASSWORD, type SignedInUser } from '../helpers/users.ts';
import { waitUntil } from '../helpers/wait.ts';

/**
 * A backup taken while bids keep arriving restores into a new, empty database (embedded by
 * default, PostgreSQL with DATABASE_URL) and the app started on it finds everything again.
 */

const folder = mkdtempSync(join(tmpdir(), 'lm-backup-'));
const file = join(folder, 'backup.jsonl.gz');
let source: TestApp;
let restored: TestApp | undefined;
const targets: TestDatabase[] = [];
let buyer: SignedInUser;
let seller: SignedInUser;
let bidders: SignedInUser[];
let backup: BackupSummary;
let bidsPosted = 0;
let bidCarId = 0;

/** A new, empty database of the kind the tests run on. */
async function emptyDatabase(): Promise<TestDatabase> {
  const server = process.env.DATABASE_URL;
  let url: string | null = null;
  let drop = async () => {};
  if (server) ({ url, drop } = await createPostgresDatabase(server, `lm_restore_${process.pid}_${randomBytes(4).toString('hex')}`));
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 5 });
  const database: TestDatabase = {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
  targets.push(database);
  return database;
}

beforeAll(async () => {
  source = await startTestApp({ JOB_POLL_SECONDS: '0.5' });
  buyer = await createUser(source);
  seller = await createUser(source);
  bidders = [await createUser(source), await createUser(source), await createUser(source)];
  // Orders in several states, each with its timeline and payments.
  await orderIn(source, 'inspection', buyer, seller);
  await orderIn(source, 'funded', buyer, seller);
  await orderIn(source, 'cancelled', buyer, seller);
  const disputed = await orderIn(source, 'disputed', buyer, seller);
  const desk = { db: source.app.db, orders: source.app.services.orders, accounts: source.app.services.accounts };
  // Operator actions: audited with actor `cli`.
  expect(await runOperatorCommand(desk, { command: 'resolve', orderId: disputed.id, decision: 'refund', note: 'Paint does not match.' })).toMatchObject({ ok: true });
  const staff = await createUser(source);
  expect(await runOperatorCommand(desk, { command: 'grant', email: staff.email, role: 'operator' })).toMatchObject({ ok: true });

  // The refund the resolution queued settles first, so the orders compared below stand still.
  await waitUntil(async () => !(await source.app.db.select().from(payments)).some((p) => p.status === 'pending'), 30_000, 'the refund to settle');

  // The backup is taken while bids keep arriving, one after another.
  const car = await createListing(source, seller, { price: 50_000 });
  bidCarId = car.id;
  let bidding = true;
  let failure: unknown = null;
  const waitForBids = (n: number) =>
    waitUntil(
      () => {
        if (failure) throw failure;
        return bidsPosted >= n;
      },
      60_000,
      `${n} bids posted`,
    );
  const bidLoop = (async () => {
    let amount = 40_000;
    while (bidding) {
      amount += 1_000;
      const bidder = bidders[bidsPosted % bidders.length]!;
      const res = await source.app.inject({ method: 'POST', url: '/api/bids', headers: bidder.auth, payload: { carId: car.id, amount } });
      if (res.statusCode !== 201) {
        failure = new Error(`bid refused: ${res.body}`);
        return;
      }
      bidsPosted += 1;
    }
  })();
  await waitForBids(5);
  backup = await writeBackup(source.app.db, file);
  await waitForBids(backup.header.tables.find((t) => t.name === 'bids')!.rows + 5);
  bidding = false;
  await bidLoop;
}, 120_000);

afterAll(async () => {
  await restored?.close();
  await source?.close();
  for (const target of targets) await target.close().catch(() => {});
  rmSync(folder, { recursive: true, force: true });
});

async function rowsOf(db: Database) {
  return {
    users: await db.select({ id: users.id, email: users.email, passwordHash: users.passwordHash, role: users.role }).from(users).orderBy(asc(users.id)),
    cars: await db.select().from(cars).orderBy(asc(cars.id)),
    orders: await db.select().from(orders).orderBy(asc(orders.id)),
    events: await db.select().from(orderEvents).orderBy(asc(orderEvents.id)),
    payments: await db.select().from(payments).orderBy(asc(payments.id)),
    bids: await db.select().from(bids).orderBy(asc(bids.id)),
    audit: await db.select().from(auditLog).orderBy(asc(auditLog.id)),
  };
}

describe('backup and restore', () => {
  it('describes the snapshot in its header', async () => {
    const header = await readBackupHeader(file);
    expect(header).toMatchObject({ format: 'luxemotors-backup', formatVersion: 1 });
    expect(header.migration.tag).toMatch(/^\d{4}_/);
    const counted = Object.fromEntries(header.tables.map((t) => [t.name, t.rows]));
    expect(counted.users).toBeGreaterThanOrEqual(5);
    expect(counted.orders).toBe(4);
    expect(counted.audit_log).toBeGreaterThanOrEqual(2);
    // Snapshot taken mid-activity: some bids in, more after.
    expect(counted.bids).toBeGreaterThanOrEqual(5);
    expect(counted.bids).toBeLessThan(bidsPosted);
    // Parents come before the tables that refer to them.
    const at = (name: string) => header.tables.findIndex((t) => t.name === name);
    expect(at('users')).toBeLessThan(at('orders'));
    expect(at('orders')).toBeLessThan(at('order_events'));
  });

  it('restores into an empty database, and the app started on it finds everything again', async () => {
    const target = await emptyDatabase();
    const summary = await restoreBackup(target, file, { installJobSchema });
    expect(summary.rows).toBe(backup.header.tables.reduce((n, t) => n + t.rows, 0));
    expect(summary.jobsSkipped).toBeNull();
    restored = await startTestApp({ JOB_POLL_SECONDS: '0.5' }, target);

    const before = await rowsOf(source.app.db);
    const after = await rowsOf(restored.app.db);
    expect(after.users).toEqual(before.users);
    // The car being bid on moved on after the snapshot; the restored one agrees with its restored bids.
    expect(after.cars.filter((c) => c.id !== bidCarId)).toEqual(before.cars.filter((c) => c.id !== bidCarId));
    const bidCar = after.cars.find((c) => c.id === bidCarId)!;
    expect(bidCar.currentBids).toBe(after.bids.length);
    expect(bidCar.highestBid).toBe(Math.max(...after.bids.map((b) => b.amount)));
    expect(after.orders).toEqual(before.orders);
    expect(after.events).toEqual(before.events);
    // Bids were posted one after another: the snapshot holds exactly the first N.
    expect(after.bids.length).toBe(backup.header.tables.find((t) => t.name === 'bids')!.rows);
    expect(after.bids).toEqual(before.bids.slice(0, after.bids.length));
    expect(after.audit).toEqual(before.audit);
    expect(after.payments).toEqual(before.payments);
    // Pending jobs (the inspection deadline of the order in inspection, at least) came along.
    expect(backup.header.jobs.jobs).toBeGreaterThan(0);
    expect(summary.jobs).toBe(backup.header.jobs.jobs);

    // Sign-in works with the same password.
    const login = await restored.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: buyer.email, password: TEST_PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const token = { authorization: `Bearer ${login.json().data.accessToken}` };
    const mine = await restored.app.inject({ method: 'GET', url: '/api/orders', headers: token });
    expect(mine.statusCode, mine.body).toBe(200);

    // The ledger balances: every charge is paid out, refunded, or still held in escrow for an
    // order that holds money (charge = payout + refund + held).
    const overview = await new MoneyDesk(restored.app.db).overview();
    const settled = (kind: string) => after.payments.filter((p) => p.kind === kind && p.status === 'settled').reduce((n, p) => n + p.amount, 0);
    const holding = new Set(after.orders.filter((o) => ['funded', 'in_transit', 'inspection', 'accepted', 'disputed'].includes(o.status)).map((o) => o.id));
    const held = after.payments.filter((p) => p.kind === 'charge' && p.status === 'settled' && holding.has(p.orderId)).reduce((n, p) => n + p.amount, 0);
    expect(settled('refund')).toBeGreaterThan(0);
    expect(settled('charge')).toBe(settled('payout') + settled('refund') + held);
    expect(overview.escrowHeld).toBe(held);
    // The same money figures as the source (flagged bids aside: bidding went on after the snapshot).
    const { flaggedBids: _restored, ...money } = overview;
    const { flaggedBids: _source, ...sourceMoney } = await new MoneyDesk(source.app.db).overview();
    expect(money).toEqual(sourceMoney);

    // The audit chain verifies, entry by entry.
    const chain = await verifyAuditChain(restored.app.db);
    expect(chain).toEqual({ ok: true, count: before.audit.length });

    // New rows do not collide with restored ones: the identity sequences were moved past them.
    const newcomer = await createUser(restored);
    expect(newcomer.id).toBeGreaterThan(Math.max(...after.users.map((u) => u.id)));
    const car = after.cars.at(-1)!;
    const bid = await restored.app.inject({ method: 'POST', url: '/api/bids', headers: newcomer.auth, payload: { carId: car.id, amount: Math.max(...after.bids.map((b) => b.amount)) + 1_000 } });
    expect(bid.statusCode, bid.body).toBe(201);
    expect(bid.json().data.bid.id).toBeGreaterThan(after.bids.at(-1)!.id);
  }, 120_000);

  it('refuses a backup from a newer schema, saying why', async () => {
    const [headerLine, ...rest] = readFileSync(join(folder, 'plain.jsonl'), 'utf8').split('\n');
    const header = JSON.parse(headerLine!);
    header.migration = { ...header.migration, index: header.migration.index + 1, tag: '9999_from_the_future', createdAt: header.migration.createdAt + 86_400_000 };
    const newer = join(folder, 'newer.jsonl');
    writeFileSync(newer, [JSON.stringify(header), ...rest].join('\n'));
    const target = await emptyDatabase();
    const attempt = restoreBackup(target, newer, { installJobSchema });
    await expect(attempt).rejects.toBeInstanceOf(BackupRefused);
    await expect(attempt).rejects.toThrow(/newer than this code: it was taken at migration 9999_from_the_future/);
  }, 120_000);

  it('refuses to restore into a database that is not empty, saying why', async () => {
    await expect(restoreBackup(source.database, file, { installJobSchema })).rejects.toThrow(/The database is not empty: .* rows/);
    // Nothing was written to it.
    expect((await rowsOf(source.app.db)).bids.length).toBe(bidsPosted);
  }, 120_000);

  it('restores a backup from an older schema at its own level, then migrates it forward', async () => {
    const older = await emptyDatabase();
    const all = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
    const db = older.db as unknown as { dialect: { migrate(m: unknown[], session: unknown, config: object): Promise<void> }; session: unknown };
    await db.dialect.migrate(all.slice(0, -1), db.session, { migrationsFolder: MIGRATIONS_FOLDER });
    const [user] = await older.db.insert(users).values({ email: `older-${process.pid}@example.com`, name: 'Older', passwordHash: 'x', emailVerified: true }).returning({ id: users.id });
    const olderFile = join(folder, 'older.jsonl');
    const taken = await writeBackup(older.db, olderFile);
    expect(taken.header.migration.index).toBe(all.length - 2);

    const target = await emptyDatabase();
    const summary = await restoreBackup(target, olderFile, { installJobSchema });
    expect(summary.migratedForward).toBe(1);
    expect(await target.db.select({ id: users.id }).from(users)).toEqual([user]);
    const [level] = rowsOfResult(await target.db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`));
    expect(Number(level!.created_at)).toBe(all.at(-1)!.folderMillis);
  }, 120_000);

  it('refuses a file cut short', async () => {
    const text = readFileSync(join(folder, 'plain.jsonl'), 'utf8');
    const cut = join(folder, 'cut.jsonl');
    writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.8)));
    const target = await emptyDatabase();
    await expect(restoreBackup(target, cut, { installJobSchema })).rejects.toThrow(/damaged|incomplete/);
  }, 120_000);
});

// A plain (not gzipped) copy for the tests that edit the file.
beforeAll(async () => {
  await writeBackup(source.app.db, join(folder, 'plain.jsonl'));
});
