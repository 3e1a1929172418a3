import { FINAL_ORDER_STATUSES, waitingOn as lifecycleWaitingOn, type OrderActor, type OrderStatus } from '@common/order-lifecycle.ts';

/**
 * Where an escrow order stands, in words, for one of its two parties. The rules (who moves next)
 * come from the shared lifecycle table; this module only words them.
 */

export type OrderRole = 'buyer' | 'seller';

/** The viewer is the buyer when the order is theirs as buyer, otherwise its seller. */
export function orderRole(order: { buyerId: number }, userId: number): OrderRole {
  return order.buyerId === userId ? 'buyer' : 'seller';
}

export function roleLabel(role: OrderRole): string {
  return role === 'buyer' ? 'You are buying' : 'You are selling';
}

/** The move each status waits for, as "Waiting for <someone> to <this>". */
const AWAITED_MOVE: Partial<Record<OrderStatus, string>> = {
  awaiting_payment: 'pay into escrow',
  funded: 'ship the car',
  in_transit: 'confirm delivery of the car',
  inspection: 'inspect the car, then accept it or open a dispute',
};

export function isFinalOrderStatus(status: string): boolean {
  return (FINAL_ORDER_STATUSES as readonly string[]).includes(status);
}

/**
 * "Waiting for the seller to ship the car", "Waiting for you to pay into escrow", or how the order
 * ended. `waitingOn` is the server's; without it the shared table says.
 */
export function nextStepText(order: { status: OrderStatus; waitingOn?: OrderActor | null }, role: OrderRole): string {
  const { status } = order;
  const actor = order.waitingOn !== undefined ? order.waitingOn : lifecycleWaitingOn(status);
  const other: OrderRole = role === 'buyer' ? 'seller' : 'buyer';

  if (actor === 'buyer' || actor === 'seller') {
    const who = actor === role ? 'you' : `the ${other}`;
    return `Waiting for ${who} to ${AWAITED_MOVE[status] ?? 'act'}`;
  }
  if (actor === 'system') {
    return role === 'seller' ? 'The funds are being released to you' : 'The funds are being released to the seller';
  }
  if (actor === 'operator') return 'Waiting for our escrow team to resolve the dispute';

  switch (status) {
    case 'released':
      return role === 'seller' ? 'Complete: the funds were released to you' : 'Complete: the funds were released to the seller';
    case 'refunded':
      return role === 'buyer' ? 'Closed: your payment was refunded to you' : 'Closed: the buyer was refunded';
    case 'cancelled':
      return 'Closed: this order was cancelled';
    default:
      return 'Nothing more to do';
  }
}
