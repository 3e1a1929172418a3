import type { Order, OrderWithEvents } from '@common/schemas/orders.ts';

/** For tests: an order just placed (premium plan, awaiting the buyer's payment), with `patch` over it. */
export function sampleOrder(patch: Partial<Order> = {}): Order {
  return {
    id: 1,
    carId: 3,
    buyerId: 10,
    sellerId: 2,
    amount: 100_000,
    plan: 'premium',
    escrowFee: 399,
    status: 'awaiting_payment',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    paymentDueAt: '2025-01-04T10:00:00.000Z',
    inspectionDays: 7,
    inspectionEndsAt: null,
    shipment: null,
    payment: null,
    payout: null,
    refund: null,
    waitingOn: 'buyer',
    car: { id: 3, year: 2022, make: 'Porsche', model: '911', primaryImage: null, status: 'active' },
    buyerName: 'Bea',
    sellerName: 'Sam',
    ...patch,
  };
}

/** `sampleOrder` with its history: the one event of its placing. */
export function sampleOrderWithEvents(patch: Partial<OrderWithEvents> = {}): OrderWithEvents {
  return {
    ...sampleOrder(),
    events: [{ id: 1, from: null, to: 'awaiting_payment', actor: 'buyer', note: null, at: '2025-01-01T10:00:00.000Z' }],
    ...patch,
  };
}
