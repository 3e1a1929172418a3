/**
 * A listing's lifecycle as one table, like orders' (order-lifecycle.ts) and offers': every status
 * a car can have, every move between them, and who may make each move. The server moves cars only
 * through this table (the seller's requests, the auction clock, escrow orders and the back office
 * alike), and the database refuses any other status change.
 *
 * `pending` while an escrow order holds the buyer's money, `ended` once an auction closed unsold
 * (or sold, until the winner pays). Only `active` cars are listed; a `draft` is seen by its seller
 * only; a `hidden` car is off the market until it returns to the status it was hidden from.
 */
export const CAR_STATUSES = ['draft', 'active', 'pending', 'sold', 'ended', 'withdrawn', 'hidden'] as const;
export type CarStatus = (typeof CAR_STATUSES)[number];

/** The statuses a car is listed in: a draft, or straight on the market (the sample catalogue too). */
export const INITIAL_CAR_STATUSES: readonly CarStatus[] = ['draft', 'active'];

/**
 * Who makes a move: the car's seller, the buyer whose payment takes it, the server (the auction
 * clock, a payout landing), or staff in the back office (hiding, suspending an account, deciding
 * a dispute).
 */
export const CAR_ACTORS = ['seller', 'buyer', 'system', 'operator'] as const;
export type CarActor = (typeof CAR_ACTORS)[number];

/** Why a car is hidden: an operator hid it, or its seller's account was suspended. */
export const CAR_HIDERS = ['operator', 'suspension'] as const;
export type CarHider = (typeof CAR_HIDERS)[number];

export const CAR_ACTIONS = ['publish', 'withdraw', 'close-auction', 'pay', 'sell', 'relist', 'hide', 'restore', 'suspend', 'unsuspend'] as const;
export type CarAction = (typeof CAR_ACTIONS)[number];

export interface CarTransition {
  action: CarAction;
  from: CarStatus;
  to: CarStatus;
  by: readonly CarActor[];
  /** Into or out of `hidden`: who hides the car, and so which move may bring it back. */
  hiddenBy?: CarHider;
  /**
   * Money has moved, so the move happens even while the car is hidden: the car stays hidden and
   * the status it returns to (`hiddenFromStatus`) moves instead.
   */
  whileHidden?: boolean;
}

/** Every status but `hidden`: the ones a car can be hidden from and returns to. */
const VISIBLE_STATUSES = CAR_STATUSES.filter((status) => status !== 'hidden');

export const CAR_TRANSITIONS: readonly CarTransition[] = [
  { action: 'publish', from: 'draft', to: 'active', by: ['seller'] },
  // An auction that ended may still be withdrawn; a funded order locks the car (pending, sold).
  { action: 'withdraw', from: 'draft', to: 'withdrawn', by: ['seller'] },
  { action: 'withdraw', from: 'active', to: 'withdrawn', by: ['seller'] },
  { action: 'withdraw', from: 'ended', to: 'withdrawn', by: ['seller'] },
  { action: 'close-auction', from: 'active', to: 'ended', by: ['system'] },
  // An order for the car was funded: a listed car, or an ended auction sold to its winner, a
  // bidder the seller accepted after a reserve was not met, or an accepted offer.
  { action: 'pay', from: 'active', to: 'pending', by: ['buyer'] },
  { action: 'pay', from: 'ended', to: 'pending', by: ['buyer'] },
  // The payout landed (the buyer accepted, or the inspection period passed), or an operator
  // released a disputed order's funds to the seller.
  { action: 'sell', from: 'pending', to: 'sold', by: ['system', 'operator'], whileHidden: true },
  // An operator refunded a disputed order: the sale fell through and the car is back on the market.
  { action: 'relist', from: 'pending', to: 'active', by: ['operator'], whileHidden: true },
  ...VISIBLE_STATUSES.map((from): CarTransition => ({ action: 'hide', from, to: 'hidden', by: ['operator'], hiddenBy: 'operator' })),
  ...VISIBLE_STATUSES.map((to): CarTransition => ({ action: 'restore', from: 'hidden', to, by: ['operator'], hiddenBy: 'operator' })),
  // A suspended seller's live listings leave the market and come back with the account.
  { action: 'suspend', from: 'active', to: 'hidden', by: ['operator'], hiddenBy: 'suspension' },
  { action: 'unsuspend', from: 'hidden', to: 'active', by: ['operator'], hiddenBy: 'suspension' },
];

/** Where a car stands: its status and, while hidden, the status it returns to and who hid it. */
export interface CarPosition {
  status: CarStatus;
  hiddenFromStatus: CarStatus | null;
  hiddenBy: CarHider | null;
}

/**
 * The move `action` makes from where the car stands. Out of `hidden` there is exactly one: back
 * to the status it was hidden from, by the move that undoes the one that hid it.
 */
export function carTransitionFor(action: CarAction, car: CarPosition): CarTransition | undefined {
  return CAR_TRANSITIONS.find(
    (t) => t.action === action && t.from === car.status && (t.from !== 'hidden' || (t.to === car.hiddenFromStatus && t.hiddenBy === car.hiddenBy)),
  );
}

/** The move `action` makes beneath a hidden car, from the status it was hidden from (only moves made `whileHidden`). */
export function hiddenCarTransitionFor(action: CarAction, car: CarPosition): CarTransition | undefined {
  if (car.status !== 'hidden') return undefined;
  return CAR_TRANSITIONS.find((t) => t.action === action && t.from === car.hiddenFromStatus && t.whileHidden);
}

/** Whether `actor` may make `action` on the car as it stands (visibly, or beneath its hiding). */
export function carMayMove(action: CarAction, car: CarPosition, actor: CarActor): boolean {
  const transition = carTransitionFor(action, car) ?? hiddenCarTransitionFor(action, car);
  return transition?.by.includes(actor) ?? false;
}

/** The statuses `action` moves a car out of. */
export function carStatusesFor(action: CarAction): CarStatus[] {
  return [...new Set(CAR_TRANSITIONS.filter((t) => t.action === action).map((t) => t.from))];
}

/** Every (from, to) pair of statuses some move makes: what the database's guard lets through. */
export const CAR_STATUS_MOVES: readonly (readonly [CarStatus, CarStatus])[] = [
  ...new Map(CAR_TRANSITIONS.map((t) => [`${t.from}>${t.to}`, [t.from, t.to] as const])).values(),
];

/** The pairs a hidden car's `hiddenFromStatus` may move between while it stays hidden. */
export const HIDDEN_CAR_STATUS_MOVES: readonly (readonly [CarStatus, CarStatus])[] = CAR_TRANSITIONS.filter((t) => t.whileHidden).map((t) => [t.from, t.to] as const);
