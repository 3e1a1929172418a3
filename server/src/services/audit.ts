import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { auditLog } from '../../../db/schema/index.ts';
import { AUDIT_PAGE_DEFAULT } from '@common/back-office.ts';
import type { AuditEntry, AuditQuery } from '@common/schemas/admin.ts';

/** Who did it: a signed-in operator, or the operator command line on the server. */
export type AuditActor = { userId: number; email: string } | 'cli';

/** What an entry says; the log adds when, the actor's label, and the chain. */
export type AuditRecord = Pick<AuditEntry, 'action' | 'targetType' | 'targetId' | 'reason' | 'before' | 'after'> & { actor: AuditActor };

/** The first entry's `prevHash`. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Any two writers of the log take this transaction-scoped lock first, so each entry chains onto
 * the one committed before it (two concurrent actions never both chain onto the same entry).
 */
const CHAIN_LOCK_KEY = 0x4c4d_4175; // "LMAu"

type AuditRow = typeof auditLog.$inferSelect;

/**
 * Appends an entry in the caller's transaction: the action and its record commit or roll back
 * together. The hash covers the previous entry's hash and every stored field of this one.
 */
export async function recordAudit(tx: Executor, record: AuditRecord, at: Date = new Date()): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  const fields = {
    at: new Date(Math.floor(at.getTime())),
    actorUserId: record.actor === 'cli' ? null : record.actor.userId,
    actorLabel: record.actor === 'cli' ? 'cli' : record.actor.email,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    reason: record.reason,
    before: canonicalJson(record.before ?? null),
    after: canonicalJson(record.after ?? null),
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  await tx.insert(auditLog).values({ ...fields, hash: entryHash(fields) });
}

/** SHA-256 (hex) over the previous hash and the entry's fields, in a fixed order. */
export function entryHash(row: Omit<AuditRow, 'id' | 'hash'>): string {
  const material = JSON.stringify([
    row.prevHash,
    row.at.toISOString(),
    row.actorUserId,
    row.actorLabel,
    row.action,
    row.targetType,
    row.targetId,
    row.reason,
    row.before,
    row.after,
  ]);
  return createHash('sha256').update(material).digest('hex');
}

/** JSON with object keys sorted at every level, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export type ChainCheck = { ok: true; count: number } | { ok: false; count: number; entryId: number; problem: string };

/**
 * Recomputes the chain from the first entry. The first entry that does not match its own hash,
 * or does not point at the previous entry's hash, is named: it, or one before it, was changed
 * or removed behind the application's back.
 */
export async function verifyAuditChain(db: Executor, batchSize = 1_000): Promise<ChainCheck> {
  let previous = GENESIS_HASH;
  let afterId = 0;
  let count = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, afterId)).orderBy(asc(auditLog.id)).limit(batchSize);
    for (const row of rows) {
      if (row.prevHash !== previous) return { ok: false, count, entryId: row.id, problem: 'does not follow the entry before it (one was changed or removed)' };
      if (entryHash(row) !== row.hash) return { ok: false, count, entryId: row.id, problem: 'does not match its hash (its fields were changed)' };
      previous = row.hash;
      count += 1;
    }
    if (rows.length < batchSize) return { ok: true, count };
    afterId = rows[rows.length - 1]!.id;
  }
}


/** Entries newest first; `before` pages back. `actor` is a user id, an email, or `cli`. */
export async function listAudit(db: Executor, filters: AuditQuery): Promise<AuditEntry[]> {
  const conditions: SQL[] = [];
  if (filters.actor !== undefined) {
    const actor = filters.actor.trim().toLowerCase();
    conditions.push(/^\d{1,10}$/.test(actor) ? eq(auditLog.actorUserId, Number(actor)) : eq(auditLog.actorLabel, actor));
  }
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.targetType) conditions.push(eq(auditLog.targetType, filters.targetType));
  if (filters.targetId !== undefined) conditions.push(eq(auditLog.targetId, filters.targetId));
  if (filters.before !== undefined) conditions.push(lt(auditLog.id, filters.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(filters.limit ?? AUDIT_PAGE_DEFAULT);
  return rows.map(toAuditEntry);
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actorLabel === 'cli' && row.actorUserId === null ? 'cli' : { id: row.actorUserId, email: row.actorLabel },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    reason: row.reason,
    before: JSON.parse(row.before) as unknown,
    after: JSON.parse(row.after) as unknown,
    hash: row.hash,
    prevHash: row.prevHash,
  };
}
