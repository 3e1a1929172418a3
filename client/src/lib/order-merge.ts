import type { Order } from '@common/schemas/orders.ts';

/**
 * Orders reach the client as REST snapshots and as pushed `order:updated` events, in any order.
 * Every change moves `updatedAt` forward and adds an event, except a payout or refund landing,
 * which only settles a payment leg; so an order's version is those three, compared in turn.
 * A copy that is older than the one held is never shown over it.
 */

type Versioned = Pick<Order, 'updatedAt' | 'payout' | 'refund'> & { events?: readonly unknown[] };

function settledLegs(order: Versioned): number {
  return (order.payout?.status === 'settled' ? 1 : 0) + (order.refund?.status === 'settled' ? 1 : 0);
}

/** Negative when `a` is older than `b`, 0 when they are the same version, positive when newer. */
export function compareOrderVersions(a: Versioned, b: Versioned): number {
  const time = (Date.parse(a.updatedAt) || 0) - (Date.parse(b.updatedAt) || 0);
  if (time !== 0) return time;
  // A list entry carries no events: only compare them when both copies have them.
  if (a.events && b.events && a.events.length !== b.events.length) return a.events.length - b.events.length;
  return settledLegs(a) - settledLegs(b);
}

/** The copy to show: `incoming` unless it is older than `current` (or the very same data). */
export function mergeOrder<T extends Order & { events?: readonly unknown[] }>(current: T | null | undefined, incoming: T): T {
  if (!current || current.id !== incoming.id) return incoming;
  if (compareOrderVersions(incoming, current) < 0) return current;
  return JSON.stringify(incoming) === JSON.stringify(current) ? current : incoming;
}

/** `list` with `incoming` merged in by id (newest first by creation, as the server lists them). */
export function mergeOrderList<T extends Order>(list: readonly T[], incoming: readonly T[]): T[] {
  const byId = new Map(list.map((o) => [o.id, o]));
  let changed = false;
  for (const order of incoming) {
    const held = byId.get(order.id);
    const next = mergeOrder(held, order);
    if (next !== held) {
      byId.set(order.id, next);
      changed = true;
    }
  }
  if (!changed) return list as T[];
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}
