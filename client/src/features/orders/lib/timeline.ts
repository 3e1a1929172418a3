import type { OrderEvent } from '@common/schemas/orders.ts';
import { FINAL_ORDER_STATUSES, type OrderActor, type OrderStatus } from '@common/order-lifecycle.ts';
import type { OrderRole } from '../../../lib/order-progress.ts';

/**
 * The order's history as a list of lifecycle steps: the steps it went through (from its events,
 * with when, who and why), then the steps of the usual path still ahead of it. Side branches
 * (disputed, refunded, cancelled) appear only when they happened.
 */

/** The usual path of an escrow order. */
export const MAIN_PATH: readonly OrderStatus[] = ['awaiting_payment', 'funded', 'in_transit', 'inspection', 'accepted', 'released'];

export type StepState = 'done' | 'current' | 'upcoming';

export interface TimelineStep {
  status: OrderStatus;
  state: StepState;
  /** Off the usual path (a dispute, a refund, a cancellation). */
  branch: boolean;
  /** When the order reached this step; null for steps ahead (or a history that was not sent). */
  at: string | null;
  actor: OrderActor | null;
  note: string | null;
}

const isFinal = (status: OrderStatus) => FINAL_ORDER_STATUSES.includes(status);

function byTime(a: OrderEvent, b: OrderEvent): number {
  return (Date.parse(a.at) || 0) - (Date.parse(b.at) || 0) || a.id - b.id;
}

export function buildTimeline(status: OrderStatus, events: readonly OrderEvent[]): TimelineStep[] {
  const steps: TimelineStep[] = [];
  const seen = new Set<OrderStatus>();
  for (const event of [...events].sort(byTime)) {
    if (seen.has(event.to)) continue;
    seen.add(event.to);
    steps.push({ status: event.to, state: 'done', branch: !MAIN_PATH.includes(event.to), at: event.at, actor: event.actor, note: event.note });
  }
  // The history may lag behind the status (or be missing): the status is the truth.
  if (!seen.has(status)) {
    steps.push({ status, state: 'done', branch: !MAIN_PATH.includes(status), at: null, actor: null, note: null });
  }
  // A step listed after the current status would be history from a copy out of step: drop it.
  const currentIndex = steps.findIndex((s) => s.status === status);
  steps.length = currentIndex + 1;

  if (isFinal(status)) return steps;
  steps[currentIndex] = { ...steps[currentIndex]!, state: 'current' };
  const pathIndex = MAIN_PATH.indexOf(status);
  if (pathIndex >= 0) {
    for (const next of MAIN_PATH.slice(pathIndex + 1)) {
      steps.push({ status: next, state: 'upcoming', branch: false, at: null, actor: null, note: null });
    }
  }
  return steps;
}

/** What each step means, in a few words. */
export const STEP_DESCRIPTIONS: Record<OrderStatus, string> = {
  awaiting_payment: 'Order placed; the buyer pays into escrow',
  funded: 'Payment secured in escrow',
  in_transit: 'The seller shipped the car',
  inspection: 'Car delivered; the buyer inspects it',
  accepted: 'The car is accepted',
  released: 'Funds released to the seller',
  disputed: 'The buyer opened a dispute',
  refunded: 'Payment refunded to the buyer',
  cancelled: 'Order cancelled',
};

/** "by you", "by the seller", "automatically", "by our escrow team". */
export function actorPhrase(actor: OrderActor, role: OrderRole): string {
  switch (actor) {
    case 'buyer':
    case 'seller':
      return actor === role ? 'by you' : `by the ${actor}`;
    case 'system':
      return 'automatically';
    case 'operator':
      return 'by our escrow team';
  }
}
