import type { EscrowPlanId } from '@common/escrow-plans.ts';
import type { Order } from '@common/api-types.ts';
import { api } from '../../../lib/api-client.ts';

export type { Order } from '@common/api-types.ts';

export function placeOrder(body: { carId: number; amount: number; plan: EscrowPlanId }): Promise<Order> {
  return api.post<Order>('/api/orders', body);
}
