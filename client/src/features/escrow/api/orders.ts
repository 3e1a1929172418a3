import type { EscrowPlanId } from '@common/escrow-plans.ts';
import { api } from '../../../lib/api-client.ts';

/** Contract §Orders. */
export interface Order {
  id: number;
  carId: number;
  buyerId: number;
  sellerId: number;
  amount: number;
  plan: EscrowPlanId;
  escrowFee: number;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export function placeOrder(body: { carId: number; amount: number; plan: EscrowPlanId }): Promise<Order> {
  return api.post<Order>('/api/orders', body);
}
