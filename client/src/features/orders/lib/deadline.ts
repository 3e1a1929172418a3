import type { Order } from '@common/schemas/orders.ts';

/** A deadline the order is running against right now. */
export interface RunningDeadline {
  kind: 'payment' | 'inspection';
  /** ISO time. */
  at: string;
}

/** The payment window while awaiting payment; the inspection period during inspection; else none. */
export function orderDeadline(order: Pick<Order, 'status' | 'paymentDueAt' | 'inspectionEndsAt'>): RunningDeadline | null {
  if (order.status === 'awaiting_payment') return { kind: 'payment', at: order.paymentDueAt };
  if (order.status === 'inspection' && order.inspectionEndsAt) return { kind: 'inspection', at: order.inspectionEndsAt };
  return null;
}
