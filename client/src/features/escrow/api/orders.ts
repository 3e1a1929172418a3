import type { PlaceOrder } from '@common/schemas/commerce.ts';
import type { Order } from '@common/schemas/orders.ts';
import { api } from '../../../lib/api-client.ts';

export type { Order } from '@common/schemas/orders.ts';

export function placeOrder(body: PlaceOrder): Promise<Order> {
  return api.post<Order>('/api/orders', body);
}
