import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { orders, payments } from '../../../../db/schema/index.ts';
import type { PaymentMethod } from '@common/enums.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { OrderChanges } from './announcements.ts';
import type { OrderRecord } from './order-views.ts';
import { PaymentDeclined, type PaymentProvider } from './payment-provider.ts';
import { amountCharged } from '@common/escrow-plans.ts';
import { ErrorCode } from '@common/error-codes.ts';

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    /** Moves an order's pending payout or refund through the payment provider. */
    'payment.settle': { orderId: number };
  }
}

type OrderRow = OrderRecord['order'];
export type PaymentRow = typeof payments.$inferSelect;

export interface OrderMoneyDeps {
  db: Database;
  jobs: JobRunner;
  provider: PaymentProvider;
}

/**
 * Where an order's money moves: the buyer's charge into escrow, then either the payout to the
 * seller (the escrow fee kept) or the refund to the buyer. Each goes through the payment provider
 * under an idempotency key derived from the order, so a call repeated after a crash moves the
 * money once, and each is recorded in the payments ledger.
 */
export class OrderMoney {
  constructor(private readonly deps: OrderMoneyDeps) {}

  /** Charges the buyer the price plus the escrow fee and records the charge, in the pay move's transaction. */
  async charge(tx: Transaction, order: OrderRow, method: PaymentMethod): Promise<{ amount: number; reference: string }> {
    const amount = amountCharged(order);
    let reference: string;
    try {
      // The provider's idempotency key makes a retry after a crash charge nothing twice.
      ({ reference } = await this.deps.provider.charge({ idempotencyKey: `order-${order.id}-charge`, orderId: order.id, amount, method }));
    } catch (error) {
      if (error instanceof PaymentDeclined) throw new AppError(ErrorCode.PAYMENT_DECLINED, error.message);
      throw error;
    }
    await tx.insert(payments).values({ orderId: order.id, kind: 'charge', amount, method, provider: this.deps.provider.name, reference, status: 'settled', settledAt: sql`now()` });
    return { amount, reference };
  }

  /** Writes the payout or refund as pending, with the job that moves it, in the move's transaction. */
  async startDisbursement(tx: Transaction, changes: OrderChanges, order: OrderRow, kind: 'payout' | 'refund'): Promise<void> {
    const amount = kind === 'payout' ? order.amount : amountCharged(order);
    await tx.insert(payments).values({ orderId: order.id, kind, amount, provider: this.deps.provider.name, status: 'pending' });
    await this.deps.jobs.enqueue(tx, 'payment.settle', { orderId: order.id });
    changes.settle = true;
  }

  /** The order's payout or refund that the provider has not made yet, if any. */
  async pendingDisbursement(orderId: number): Promise<PaymentRow | null> {
    const [pending] = await this.deps.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), inArray(payments.kind, ['payout', 'refund']), eq(payments.status, 'pending')));
    return pending ?? null;
  }

  /** Has the provider make a pending payout or refund; answers its reference. */
  async disburse(pending: PaymentRow): Promise<string> {
    const { orderId } = pending;
    const [context] = await this.deps.db
      .select({ sellerId: orders.sellerId, chargeReference: payments.reference })
      .from(orders)
      .innerJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.kind, 'charge')))
      .where(eq(orders.id, orderId));
    if (!context) throw new Error(`order ${orderId} has a pending ${pending.kind} but no charge`);
    const idempotencyKey = `order-${orderId}-${pending.kind}`;
    const { reference } =
      pending.kind === 'payout'
        ? await this.deps.provider.payout({ idempotencyKey, orderId, sellerId: context.sellerId, amount: pending.amount })
        : await this.deps.provider.refund({ idempotencyKey, orderId, chargeReference: context.chargeReference!, amount: pending.amount });
    return reference;
  }

  /** Records the provider's reference on the pending row; false when another run recorded it first. */
  async markSettled(tx: Transaction, pending: PaymentRow, reference: string): Promise<boolean> {
    const settled = await tx
      .update(payments)
      .set({ status: 'settled', reference, settledAt: sql`now()` })
      .where(and(eq(payments.id, pending.id), eq(payments.status, 'pending')))
      .returning();
    return settled.length > 0;
  }

  /** Once the seller is paid: the escrow fee the platform keeps. */
  async keepFee(tx: Transaction, order: OrderRow): Promise<void> {
    if (order.escrowFee <= 0) return;
    await tx.insert(payments).values({ orderId: order.id, kind: 'fee', amount: order.escrowFee, provider: 'luxemotors', reference: `LM-FEE-${order.id}`, status: 'settled', settledAt: sql`now()` });
  }

  /** Orders whose payout or refund is still pending (its job gave up, or never ran). */
  async unsettledOrders(): Promise<number[]> {
    const unsettled = await this.deps.db.select({ orderId: payments.orderId }).from(payments).where(eq(payments.status, 'pending'));
    return unsettled.map((row) => row.orderId);
  }
}
