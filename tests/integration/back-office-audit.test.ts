import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellers } from '../../db/schema/index.ts';
import type { AuditEntry } from '@common/schemas/admin.ts';
import { verifyAuditChain } from '../../server/src/services/audit.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { apiCalls, auditEntries, createStaff, type StaffUser } from '../helpers/staff.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * The audit log (contract §Operator back office): what operators did, filterable, hash-chained
 * and append-only, with tampering behind the application's back found by the verifier.
 */

let t: TestApp;
let api: ReturnType<typeof apiCalls>;
let admin: StaffUser;
let alice: StaffUser;
let bruno: StaffUser;
let suspendedUser: SignedInUser;
let verifiedUser: SignedInUser;
let promotedUser: SignedInUser;
let car: { id: number };
let orderId: number;
/** Ids of the entries each operator's actions wrote, in the order they were made. */
const written: { by: StaffUser; action: string; targetType: string; targetId: number; reason: string }[] = [];

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_SECONDS: '0.5', RATE_LIMIT_LOGIN_PER_IP: '10000' });
  api = apiCalls(t);
  admin = await createStaff(t, 'admin');
  alice = await createStaff(t, 'operator', { name: 'Alice Audit' });
  bruno = await createStaff(t, 'operator', { name: 'Bruno Audit' });
  const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
  [suspendedUser, verifiedUser, promotedUser] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
  car = await createListing(t, seller);
  await createListing(t, verifiedUser);
  await t.database.db.update(sellers).set({ verified: false }).where(eq(sellers.userId, verifiedUser.id));
  orderId = (await orderIn(t, 'disputed', buyer, seller)).id;

  const act = async (by: StaffUser, path: string, body: Record<string, string>, entry: Omit<(typeof written)[number], 'by' | 'reason'>) => {
    const reason = body.reason ?? body.message!;
    const res = await api.post(by, path, body);
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    written.push({ by, reason, ...entry });
  };
  await act(alice, `/api/admin/users/${suspendedUser.id}/suspend`, { reason: 'Chargebacks on three cards' }, { action: 'user.suspend', targetType: 'user', targetId: suspendedUser.id });
  await act(bruno, `/api/admin/cars/${car.id}/hide`, { reason: 'Stock photos' }, { action: 'car.hide', targetType: 'car', targetId: car.id });
  await act(alice, `/api/admin/users/${suspendedUser.id}/unsuspend`, { reason: 'The bank confirmed the payments' }, { action: 'user.unsuspend', targetType: 'user', targetId: suspendedUser.id });
  await act(bruno, `/api/admin/cars/${car.id}/restore`, { reason: 'Real photos uploaded' }, { action: 'car.restore', targetType: 'car', targetId: car.id });
  await act(alice, `/api/admin/users/${verifiedUser.id}/verify-seller`, { reason: 'Dealer licence checked' }, { action: 'user.verify-seller', targetType: 'user', targetId: verifiedUser.id });
  await act(admin, `/api/admin/users/${promotedUser.id}/role`, { role: 'operator', reason: 'Joins the support team' }, { action: 'user.role', targetType: 'user', targetId: promotedUser.id });
  await act(bruno, `/api/admin/orders/${orderId}/resolve`, { outcome: 'refund', reason: 'Damage confirmed' }, { action: 'dispute.resolve', targetType: 'order', targetId: orderId });
});
afterAll(async () => {
  await t?.close();
});

const read = (query: Record<string, string | number> = {}) => auditEntries(t, admin, query);
const key = (e: { action: string; targetType: string; targetId: number; reason: string }) => `${e.action} ${e.targetType}#${e.targetId}: ${e.reason}`;

describe('the audit log', () => {
  it('holds one entry per action, newest first, in the contract shape', async () => {
    const entries = await read();
    expect(entries.map(key)).toEqual(written.map(key).reverse());
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.id).toBeLessThan(entries[i - 1]!.id);
    for (const [i, entry] of entries.entries()) {
      const made = written[written.length - 1 - i]!;
      expect(entry).toEqual({
        id: expect.any(Number),
        at: expect.any(String),
        actor: { id: made.by.id, email: made.by.email },
        action: made.action,
        targetType: made.targetType,
        targetId: made.targetId,
        reason: made.reason,
        before: expect.anything(),
        after: expect.anything(),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        prevHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(new Date(entry.at).toISOString()).toBe(entry.at);
    }
    const role = entries.find((e) => e.action === 'user.role')!;
    expect(role.before).toEqual(expect.objectContaining({ role: 'user' }));
    expect(role.after).toEqual(expect.objectContaining({ role: 'operator' }));
    const hide = entries.find((e) => e.action === 'car.hide')!;
    expect(hide.before).toEqual(expect.objectContaining({ status: 'active' }));
    expect(hide.after).toEqual(expect.objectContaining({ status: 'hidden' }));
  });

  it('chains each entry onto the one before it, from 64 zeros', async () => {
    const oldestFirst = (await read()).reverse();
    expect(oldestFirst[0]!.prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < oldestFirst.length; i++) expect(oldestFirst[i]!.prevHash, `entry #${oldestFirst[i]!.id}`).toBe(oldestFirst[i - 1]!.hash);
    expect(new Set(oldestFirst.map((e) => e.hash)).size).toBe(oldestFirst.length);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true, count: oldestFirst.length });
  });

  it('filters by actor (id or email), action, target, and pages with before and limit', async () => {
    const all = await read();
    const ids = (entries: AuditEntry[]) => entries.map((e) => e.id);
    const expected = (predicate: (e: AuditEntry) => boolean) => ids(all.filter(predicate));

    const byAlice = expected((e) => typeof e.actor === 'object' && e.actor.id === alice.id);
    expect(byAlice).toHaveLength(3);
    expect(ids(await read({ actor: alice.id }))).toEqual(byAlice);
    expect(ids(await read({ actor: alice.email }))).toEqual(byAlice);
    expect(ids(await read({ actor: alice.email.toUpperCase() }))).toEqual(byAlice);
    expect(ids(await read({ actor: bruno.email }))).toEqual(expected((e) => typeof e.actor === 'object' && e.actor.id === bruno.id));
    expect(await read({ actor: 'cli' })).toEqual([]);
    expect(await read({ actor: 'nobody@example.com' })).toEqual([]);

    expect(ids(await read({ action: 'car.hide' }))).toEqual(expected((e) => e.action === 'car.hide'));
    expect(ids(await read({ targetType: 'car' }))).toEqual(expected((e) => e.targetType === 'car'));
    const suspension = await read({ targetType: 'user', targetId: suspendedUser.id });
    expect(suspension.map((e) => e.action)).toEqual(['user.unsuspend', 'user.suspend']);
    expect(ids(await read({ targetId: orderId, targetType: 'order' }))).toEqual(expected((e) => e.targetType === 'order' && e.targetId === orderId));
    expect(ids(await read({ actor: alice.id, action: 'user.suspend' }))).toEqual(expected((e) => e.action === 'user.suspend'));

    const firstPage = await read({ limit: 3 });
    expect(ids(firstPage)).toEqual(ids(all).slice(0, 3));
    const secondPage = await read({ limit: 3, before: firstPage.at(-1)!.id });
    expect(ids(secondPage)).toEqual(ids(all).slice(3, 6));
    expect(ids(await read({ before: all[1]!.id }))).toEqual(ids(all).slice(2));
    expect(await read({ before: all.at(-1)!.id })).toEqual([]);
  });

  it('refuses bad filters with 400', async () => {
    for (const query of ['action=user.delete', 'targetType=planet', 'limit=0', 'limit=201', 'limit=ten', 'before=abc', 'targetId=-1', 'targetId=1.5']) {
      const res = await api.get(admin, `/api/admin/audit?${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('keeps one unbroken chain when operators act at the same moment', async () => {
    const count = (await read()).length;
    const seller = await createUser(t);
    const cars = [await createListing(t, seller)];
    for (let i = 1; i < 6; i++) cars.push(await createListing(t, seller));
    const results = await Promise.all(cars.map((c, i) => api.post(i % 2 ? alice : bruno, `/api/admin/cars/${c.id}/hide`, { reason: `Concurrent ${i}` })));
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const oldestFirst = (await read()).reverse();
    expect(oldestFirst).toHaveLength(count + cars.length);
    for (let i = 1; i < oldestFirst.length; i++) expect(oldestFirst[i]!.prevHash, `entry #${oldestFirst[i]!.id}`).toBe(oldestFirst[i - 1]!.hash);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true, count: oldestFirst.length });
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const before = await read();
    const target = before[1]!.id;
    const db = t.database.db;
    await expect(db.execute(sql`update audit_log set reason = 'rewritten' where id = ${target}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_log where id = ${target}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log`)).rejects.toThrow();
    expect(await read()).toEqual(before);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: before.length });
  });

  it('finds a row changed or removed behind the application\'s back (trigger disabled)', async () => {
    const db = t.database.db;
    const oldestFirst = (await read()).reverse();
    const changed = oldestFirst[2]!;
    const behindTheBack = (statement: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_log disable trigger user`);
        await tx.execute(statement);
        await tx.execute(sql`alter table audit_log enable trigger user`);
      });

    await behindTheBack(sql`update audit_log set reason = 'Nothing to see here' where id = ${changed.id}`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, entryId: changed.id });
    // Put back as it was: the chain is whole again.
    await behindTheBack(sql`update audit_log set reason = ${changed.reason} where id = ${changed.id}`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: oldestFirst.length });

    // The trigger is back on.
    await expect(db.execute(sql`update audit_log set reason = 'again' where id = ${changed.id}`)).rejects.toThrow();

    // A removed entry breaks the link of the one after it.
    const removed = oldestFirst[4]!;
    await behindTheBack(sql`delete from audit_log where id = ${removed.id}`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, entryId: oldestFirst[5]!.id });
  });
});
