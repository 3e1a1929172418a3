/**
 * The escrow lifecycle (contract §"The escrow lifecycle") as one table: every status an order
 * can have, every move between them, and who may make each move. The server applies moves only
 * through this table (endpoints, due jobs and the operator command alike), the database refuses
 * any other status change, and the web app reads it to show who acts next.
 */

export const ORDER_STATUSES = [
  'awaiting_payment',
  'funded',
  'in_transit',
  'inspection',
  'accepted',
  'disputed',
  'released',
  'cancelled',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Who made a move, as recorded in `OrderEvent.actor`. */
export const ORDER_ACTORS = ['buyer', 'seller', 'system', 'operator'] as const;
export type OrderActor = (typeof ORDER_ACTORS)[number];

export interface OrderTransition {
  action: OrderAction;
  from: OrderStatus;
  to: OrderStatus;
  by: readonly OrderActor[];
  /** The move that carries the order forward (as opposed to cancelling or disputing it). */
  forward: boolean;
}

/** Moves the parties request through the API (`POST /api/orders/:id/<action>`). */
export const PARTY_ACTIONS = ['pay', 'ship', 'confirm-delivery', 'accept', 'dispute', 'cancel'] as const;
export type PartyAction = (typeof PARTY_ACTIONS)[number];

/** Moves only the server makes: deadlines passing, payouts landing, a car selling to someone else. */
export const SYSTEM_ACTIONS = ['expire-payment-window', 'void', 'end-inspection', 'record-payout'] as const;
export type SystemAction = (typeof SYSTEM_ACTIONS)[number];

/** An operator's decision on a dispute (`npm run escrow -- resolve <id> refund|release`). */
export const OPERATOR_ACTIONS = ['refund', 'release'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

export type OrderAction = PartyAction | SystemAction | OperatorAction;

export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  { action: 'pay', from: 'awaiting_payment', to: 'funded', by: ['buyer'], forward: true },
  { action: 'cancel', from: 'awaiting_payment', to: 'cancelled', by: ['buyer', 'seller'], forward: false },
  { action: 'expire-payment-window', from: 'awaiting_payment', to: 'cancelled', by: ['system'], forward: false },
  // Another order for the same car was funded, or the listing was withdrawn.
  { action: 'void', from: 'awaiting_payment', to: 'cancelled', by: ['system'], forward: false },
  { action: 'ship', from: 'funded', to: 'in_transit', by: ['seller'], forward: true },
  { action: 'confirm-delivery', from: 'in_transit', to: 'inspection', by: ['buyer'], forward: true },
  { action: 'accept', from: 'inspection', to: 'accepted', by: ['buyer'], forward: true },
  // Silence is acceptance: the inspection period ended without a dispute.
  { action: 'end-inspection', from: 'inspection', to: 'accepted', by: ['system'], forward: false },
  { action: 'dispute', from: 'inspection', to: 'disputed', by: ['buyer'], forward: false },
  { action: 'record-payout', from: 'accepted', to: 'released', by: ['system'], forward: true },
  { action: 'refund', from: 'disputed', to: 'refunded', by: ['operator'], forward: false },
  { action: 'release', from: 'disputed', to: 'released', by: ['operator'], forward: true },
];

/** Statuses no move leaves. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (status) => !ORDER_TRANSITIONS.some((t) => t.from === status),
);

/** Statuses in which the buyer's money is held (or has been paid out): the car is taken. */
export const FUNDED_ORDER_STATUSES: readonly OrderStatus[] = ['funded', 'in_transit', 'inspection', 'accepted', 'disputed', 'released'];

export function transitionFor(action: OrderAction, from: OrderStatus): OrderTransition | undefined {
  return ORDER_TRANSITIONS.find((t) => t.action === action && t.from === from);
}

/** The actions `actor` may take on an order in `status`. */
export function actionsFor(status: OrderStatus, actor: OrderActor): OrderAction[] {
  return ORDER_TRANSITIONS.filter((t) => t.from === status && t.by.includes(actor)).map((t) => t.action);
}

/** Who the order is waiting on: the party whose move carries it forward; null once it is over. */
export function waitingOn(status: OrderStatus): OrderActor | null {
  return ORDER_TRANSITIONS.find((t) => t.from === status && t.forward)?.by[0] ?? null;
}

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Length of each timed period, in escrow days (`ESCROW_DAY_SECONDS` long each). */
export const PAYMENT_WINDOW_DAYS = 3;
/** Reminders go out this long before a deadline (when the period is longer than that). */
export const DEADLINE_REMINDER_DAYS = 1;
