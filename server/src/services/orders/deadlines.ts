import { and, eq, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../../../db/client.ts';
import { orders } from '../../../../db/schema/index.ts';
import { DEADLINE_REMINDER_DAYS, type OrderStatus } from '@common/order-lifecycle.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';

/** The deadlines the job runner watches for each order. */
export type OrderDeadline = 'payment-window' | 'payment-reminder' | 'inspection-period' | 'inspection-reminder';

declare module '../../jobs/job-runner.ts' {
  interface JobPayloads {
    'order.deadline': { orderId: number; deadline: OrderDeadline };
  }
}

/** The period that ends at a deadline, and the reminder sent a day before it. */
const REMINDER_OF = { 'payment-window': 'payment-reminder', 'inspection-period': 'inspection-reminder' } as const satisfies Partial<Record<OrderDeadline, OrderDeadline>>;

export interface OrderDeadlinesDeps {
  jobs: JobRunner;
  /** Length of an escrow day in seconds (`ESCROW_DAY_SECONDS`). */
  escrowDaySeconds: number;
}

/**
 * An order's periods (the payment window, the inspection period), counted in escrow days on the
 * database's clock, and the jobs that act when one ends or is about to.
 */
export class OrderDeadlines {
  constructor(private readonly deps: OrderDeadlinesDeps) {}

  /** `days` escrow days as an SQL interval. */
  interval(days: number) {
    return sql`make_interval(secs => ${days * this.deps.escrowDaySeconds})`;
  }

  /** The end of a period of `days` escrow days starting now. */
  fromNow(days: number) {
    return sql`now() + ${this.interval(days)}`;
  }

  /** In the transaction that starts a period: the job at its end, and the reminder before it. */
  async schedulePeriod(tx: Transaction, orderId: number, deadline: keyof typeof REMINDER_OF, endsAt: Date, periodDays: number): Promise<void> {
    await this.schedule(tx, orderId, deadline, endsAt);
    await this.schedule(tx, orderId, REMINDER_OF[deadline], this.reminderTime(endsAt, periodDays));
  }

  async schedule(tx: Transaction, orderId: number, deadline: OrderDeadline, at: Date | null): Promise<void> {
    if (!at) return;
    await this.deps.jobs.enqueue(tx, 'order.deadline', { orderId, deadline }, { startAfter: at });
  }

  /** Notes that a reminder went out; false when one already had, so a job run twice reminds once. */
  async markReminded(tx: Transaction, orderId: number, which: 'payment' | 'inspection'): Promise<boolean> {
    const column = which === 'payment' ? orders.paymentReminderSentAt : orders.inspectionReminderSentAt;
    const set = which === 'payment' ? { paymentReminderSentAt: sql`now()` } : { inspectionReminderSentAt: sql`now()` };
    const marked = await tx.update(orders).set(set).where(and(eq(orders.id, orderId), sql`${column} is null`)).returning({ id: orders.id });
    return marked.length > 0;
  }

  /** Orders whose payment window or inspection period has ended while they still wait on it. */
  overdue(executor: Executor): Promise<{ id: number; status: OrderStatus }[]> {
    return executor
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(
        sql`(${orders.status} = 'awaiting_payment' and ${orders.paymentDueAt} <= now()) or (${orders.status} = 'inspection' and ${orders.inspectionEndsAt} <= now())`,
      );
  }

  /** A reminder one escrow day before `deadline`, when the period is longer than that. */
  private reminderTime(deadline: Date, periodDays: number): Date | null {
    if (periodDays <= DEADLINE_REMINDER_DAYS) return null;
    return new Date(deadline.getTime() - DEADLINE_REMINDER_DAYS * this.deps.escrowDaySeconds * 1000);
  }
}
