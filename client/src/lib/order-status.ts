/** Order statuses of the escrow lifecycle (contract `Order.status`) as people read them. */
const ORDER_STATUS_LABELS: Record<string, string> = {
  awaiting_payment: 'Awaiting payment',
  funded: 'Funded',
  in_transit: 'In transit',
  inspection: 'Inspection',
  accepted: 'Accepted',
  disputed: 'Disputed',
  released: 'Released',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

export type OrderStatusTone = 'pending' | 'active' | 'done' | 'problem' | 'closed';

const TONES: Record<string, OrderStatusTone> = {
  awaiting_payment: 'pending',
  funded: 'active',
  in_transit: 'active',
  inspection: 'active',
  accepted: 'active',
  disputed: 'problem',
  released: 'done',
  cancelled: 'closed',
  refunded: 'closed',
};

/** "awaiting_payment" → "Awaiting payment"; an unknown status is shown in words too. */
export function orderStatusLabel(status: string): string {
  const known = ORDER_STATUS_LABELS[status];
  if (known) return known;
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
}

export function orderStatusTone(status: string): OrderStatusTone {
  return TONES[status] ?? 'pending';
}
