import type { OrderActionBodies } from '@common/schemas/commerce.ts';
import type { Inspection, InspectionEdit } from '@common/schemas/dossier.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { isOrderStatus, type PartyAction } from '@common/order-lifecycle.ts';
import { api } from '../../../lib/api-client.ts';

export type { Order, OrderEvent, OrderWithEvents, PaymentLeg } from '@common/schemas/orders.ts';

/** One order with its history (oldest event first). 404 for anyone but its buyer and seller. */
export function getOrder(orderId: number, signal?: AbortSignal): Promise<OrderWithEvents> {
  return api.get<OrderWithEvents>(`/api/orders/${orderId}`, { signal });
}

/** Bodies of the lifecycle moves (contract §The escrow lifecycle). */
export type { OrderActionBodies as ActionBodies } from '@common/schemas/commerce.ts';

/** Asks for a move; the answer is the order after it. `idempotencyKey` makes a retry count once. */
export function postOrderAction<A extends PartyAction>(orderId: number, action: A, body: OrderActionBodies[A], idempotencyKey: string): Promise<OrderWithEvents> {
  return api.post<OrderWithEvents>(`/api/orders/${orderId}/${action}`, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The order of an `order:updated` push (`{order}`), or null when the payload is not one. */
export function toPushedOrder(raw: unknown): OrderWithEvents | null {
  if (!isObject(raw) || !isObject(raw.order)) return null;
  const order = raw.order;
  if (
    typeof order.id !== 'number' ||
    typeof order.status !== 'string' ||
    !isOrderStatus(order.status) ||
    typeof order.updatedAt !== 'string' ||
    !Array.isArray(order.events) ||
    !isObject(order.car)
  ) {
    return null;
  }
  return order as unknown as OrderWithEvents;
}


export type { Inspection, InspectionEdit, InspectionItem } from '@common/schemas/dossier.ts';

/** The checklist of the dossier frozen into the order, with the buyer's marks (parties and staff). */
export function getInspection(orderId: number, signal?: AbortSignal): Promise<Inspection> {
  return api.get<Inspection>(`/api/orders/${orderId}/inspection`, { signal });
}

/** The buyer's marks (only in `inspection`); items left out keep theirs. Answers the checklist. */
export function saveInspection(orderId: number, body: InspectionEdit): Promise<Inspection> {
  return api.put<Inspection>(`/api/orders/${orderId}/inspection`, body);
}
