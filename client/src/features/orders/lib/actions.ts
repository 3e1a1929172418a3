import { actionsFor, PARTY_ACTIONS, type OrderStatus, type PartyAction } from '@common/order-lifecycle.ts';
import type { OrderRole } from '../../../lib/order-progress.ts';

/** The moves the viewer may make now (from the shared lifecycle table), forward moves first. */
export function availableActions(order: { status: OrderStatus }, role: OrderRole): PartyAction[] {
  const allowed = actionsFor(order.status, role);
  return PARTY_ACTIONS.filter((action) => allowed.includes(action));
}
