import type { Order } from '@common/api-types.ts';

/** A deadline the order is running against right now. */
export interface OrderDeadline {
  kind: 'payment' | 'inspection';
  /** ISO time. */
  at: string;
}

/** The payment window while awaiting payment; the inspection period during inspection; else none. */
export function orderDeadline(order: Pick<Order, 'status' | 'paymentDueAt' | 'inspectionEndsAt'>): OrderDeadline | null {
  if (order.status === 'awaiting_payment') return { kind: 'payment', at: order.paymentDueAt };
  if (order.status === 'inspection' && order.inspectionEndsAt) return { kind: 'inspection', at: order.inspectionEndsAt };
  return null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Time left, to the precision that matters: "2 days 4 h", "3 h 12 min", "4 min 05 s", "45 s".
 * Rounds up, so it reads "1 s" until the deadline itself, then "0 s".
 */
export function formatCountdown(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 0;
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${hours} h` : plural(days, 'day');
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
  return `${seconds} s`;
}

/** Milliseconds from `now` until `iso` (negative once it has passed; 0 for an unreadable time). */
export function msUntil(iso: string, now: number): number {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? 0 : time - now;
}
