import { and, asc, count, eq, gte, inArray, isNotNull, lte, sql, sum, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bids, orders, payments, supportTickets } from '../../../../db/schema/index.ts';
import type { AdminOverview, DisputeCase, LedgerEntry, LedgerKind, LedgerTotals } from '@common/schemas/admin.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import { readOrder } from '../orders/order-views.ts';
import { readDisputeDossier } from '../dossier/dossier-records.ts';

const LEDGER_KINDS: LedgerKind[] = ['charge', 'payout', 'refund'];
const DISPUTES_LIMIT = 100;
const LEDGER_LIMIT = 10_000;

export interface LedgerPeriod {
  from?: string | undefined;
  to?: string | undefined;
}

/** The money side of the console: the overview's figures, open disputes, and the ledger. */
export class MoneyDesk {
  constructor(private readonly db: Database) {}

  async overview(): Promise<AdminOverview> {
    const [byStatus, legs, [disputes], [flagged], [tickets]] = await Promise.all([
      this.db.select({ status: orders.status, n: count() }).from(orders).groupBy(orders.status),
      this.db
        .select({ kind: payments.kind, status: payments.status, n: count(), amount: sum(payments.amount).mapWith(Number) })
        .from(payments)
        .groupBy(payments.kind, payments.status),
      this.db.select({ n: count() }).from(orders).where(eq(orders.status, 'disputed')),
      this.db.select({ n: count() }).from(bids).where(isNotNull(bids.flagReason)),
      this.db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.status, 'open')),
    ]);
    const amountOf = (kind: string, status?: string) =>
      legs.filter((l) => l.kind === kind && (status === undefined || l.status === status)).reduce((total, l) => total + (l.amount ?? 0), 0);
    const countOf = (kind: string, status: string) => legs.find((l) => l.kind === kind && l.status === status)?.n ?? 0;
    return {
      ordersByStatus: Object.fromEntries(byStatus.map((row) => [row.status, row.n])) as Partial<Record<OrderStatus, number>>,
      escrowHeld: amountOf('charge', 'settled') - amountOf('payout', 'settled') - amountOf('refund', 'settled'),
      payoutsPending: countOf('payout', 'pending'),
      refundsPending: countOf('refund', 'pending'),
      disputesOpen: disputes?.n ?? 0,
      flaggedBids: flagged?.n ?? 0,
      ticketsOpen: tickets?.n ?? 0,
    };
  }

  /** Open disputes, the longest waiting first, each with its timeline (the parties' notes included). */
  async disputes(): Promise<DisputeCase[]> {
    const open = await this.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.status, 'disputed'))
      .orderBy(asc(orders.updatedAt), asc(orders.id))
      .limit(DISPUTES_LIMIT);
    const read = await Promise.all(open.map(({ id }) => readOrder(this.db, id)));
    const found = read.filter((order): order is OrderWithEvents => order !== null);
    return Promise.all(found.map(async (order) => ({ ...order, dossier: await readDisputeDossier(this.db, order.id) })));
  }

  /**
   * Every charge, payout and refund in the period (by `at`: settled, or recorded while pending), oldest first, and
   * their totals. `held` is what was charged and has not left: orders still in escrow, payouts
   * and refunds not yet settled, and the escrow fees kept, so charged = paidOut + refunded + held.
   */
  async ledger(period: LedgerPeriod): Promise<{ entries: LedgerEntry[]; totals: LedgerTotals }> {
    // An entry's moment is when the money moved (settled), or when it was recorded while pending.
    const at = sql<Date>`coalesce(${payments.settledAt}, ${payments.createdAt})`;
    const conditions: SQL[] = [inArray(payments.kind, LEDGER_KINDS)];
    const moment = (iso: string) => sql`${new Date(iso).toISOString()}::timestamptz`;
    if (period.from) conditions.push(gte(at, moment(period.from)));
    if (period.to) conditions.push(lte(at, moment(period.to)));
    const rows = await this.db
      .select()
      .from(payments)
      .where(and(...conditions))
      .orderBy(asc(at), asc(payments.id))
      .limit(LEDGER_LIMIT);
    const entries: LedgerEntry[] = rows.map((row) => ({
      id: row.id,
      orderId: row.orderId,
      kind: row.kind as LedgerKind,
      amount: row.amount,
      reference: row.reference,
      status: row.status,
      at: (row.settledAt ?? row.createdAt).toISOString(),
    }));
    const total = (kind: LedgerKind) => entries.filter((e) => e.kind === kind && (kind === 'charge' || e.status === 'settled')).reduce((n, e) => n + e.amount, 0);
    const charged = total('charge');
    const paidOut = total('payout');
    const refunded = total('refund');
    const [fees] = await this.db
      .select({ amount: sum(payments.amount).mapWith(Number) })
      .from(payments)
      .where(and(eq(payments.kind, 'fee'), ...conditions.slice(1)));
    return { entries, totals: { charged, paidOut, refunded, held: charged - paidOut - refunded, feesKept: fees?.amount ?? 0 } };
  }
}

const CSV_COLUMNS: (keyof LedgerEntry)[] = ['id', 'orderId', 'kind', 'amount', 'reference', 'status', 'at'];

/** RFC 4180, with cells that a spreadsheet would run as a formula made inert. */
export function ledgerCsv(entries: LedgerEntry[]): string {
  const cell = (value: unknown) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [CSV_COLUMNS.join(','), ...entries.map((e) => CSV_COLUMNS.map((c) => cell(e[c])).join(','))].join('\r\n') + '\r\n';
}
