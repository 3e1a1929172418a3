import { OPERATOR_ACTIONS, type OperatorAction } from '@common/order-lifecycle.ts';
import type { OrderWithEvents } from '@common/api-types.ts';
import { AppError } from '../../lib/errors.ts';
import type { OrdersService } from './orders-service.ts';

/** What the escrow operator can ask for (`npm run escrow -- ...`). */
export type OperatorCommand = { command: 'show'; orderId: number } | { command: 'resolve'; orderId: number; decision: OperatorAction; note: string };

export type OperatorReply = { ok: true; order: OrderWithEvents } | { ok: false; error: string; code: string };

export const OPERATOR_USAGE = `Usage:
  npm run escrow -- show <orderId>
  npm run escrow -- resolve <orderId> refund|release --note "why"`;

/** Reads a command from the command line's words, or explains what is wrong. */
export function parseOperatorCommand(args: string[]): OperatorCommand | { error: string } {
  const [command, rawId, ...rest] = args;
  const orderId = Number(rawId);
  if (command !== 'show' && command !== 'resolve') return { error: OPERATOR_USAGE };
  if (!rawId || !/^\d{1,10}$/.test(rawId) || orderId < 1 || orderId > 2_147_483_647) return { error: `"${rawId ?? ''}" is not an order id.\n${OPERATOR_USAGE}` };
  if (command === 'show') return rest.length === 0 ? { command, orderId } : { error: OPERATOR_USAGE };
  const [decision, ...options] = rest;
  if (!(OPERATOR_ACTIONS as readonly string[]).includes(decision ?? '')) return { error: `Decide "refund" or "release".\n${OPERATOR_USAGE}` };
  const noteAt = options.indexOf('--note');
  const note = noteAt >= 0 ? options[noteAt + 1]?.trim() : undefined;
  if (!note) return { error: `Explain the decision with --note "...".\n${OPERATOR_USAGE}` };
  if (note.length > 2_000 || note.includes('\0')) return { error: 'The note must be at most 2,000 characters of text.' };
  return { command, orderId, decision: decision as OperatorAction, note };
}

/** Runs an operator command against the order service; errors become a reply, never a throw. */
export async function runOperatorCommand(orders: OrdersService, command: OperatorCommand): Promise<OperatorReply> {
  try {
    if (command.command === 'show') {
      const order = await orders.timeline(command.orderId);
      return order ? { ok: true, order } : { ok: false, error: `There is no order #${command.orderId}`, code: 'NOT_FOUND' };
    }
    return { ok: true, order: await orders.resolveDispute(command.orderId, command.decision, command.note) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.message, code: error.code };
    throw error;
  }
}

/** The order's timeline as the operator reads it in a terminal. */
export function formatTimeline(order: OrderWithEvents): string {
  const usd = (n: number) => `$${n.toLocaleString('en-US')}`;
  const lines = [
    `Order #${order.id}: ${order.car.year} ${order.car.make} ${order.car.model} (car #${order.carId}, ${order.car.status})`,
    `  Status:   ${order.status}${order.waitingOn ? ` (waiting on the ${order.waitingOn})` : ''}`,
    `  Buyer:    ${order.buyerName} (user #${order.buyerId})`,
    `  Seller:   ${order.sellerName} (seller #${order.sellerId})`,
    `  Amount:   ${usd(order.amount)} + ${usd(order.escrowFee)} ${order.plan} plan fee`,
  ];
  if (order.payment) lines.push(`  Paid:     ${usd(order.payment.amountCharged)} by ${order.payment.method}, ${order.payment.reference}, ${order.payment.paidAt}`);
  if (order.shipment) lines.push(`  Shipped:  ${order.shipment.carrier} ${order.shipment.trackingNumber}, ${order.shipment.shippedAt}`);
  if (order.inspectionEndsAt) lines.push(`  Inspection ends: ${order.inspectionEndsAt}`);
  for (const [label, leg] of [['Payout', order.payout], ['Refund', order.refund]] as const) {
    if (leg) lines.push(`  ${label}:   ${usd(leg.amount)} ${leg.status}${leg.reference ? `, ${leg.reference}` : ''}${leg.settledAt ? `, ${leg.settledAt}` : ''}`);
  }
  lines.push('  Timeline:');
  for (const event of order.events) {
    lines.push(`    ${event.at}  ${(event.from ?? '-').padEnd(16)} → ${event.to.padEnd(16)} by ${event.actor}${event.note ? `: ${event.note}` : ''}`);
  }
  return lines.join('\n');
}
