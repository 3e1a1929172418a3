import { isAbsolute } from 'node:path';
import { eq } from 'drizzle-orm';
import { describeBackup, writeBackup } from '../../../db/backup.ts';
import type { Database, Executor } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import { OPERATOR_ACTIONS, type OperatorAction } from '@common/order-lifecycle.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { AppError } from '../lib/errors.ts';
import { verifyAuditChain } from './audit.ts';
import type { AccountsAdmin } from './back-office/accounts.ts';
import type { OrdersService } from './orders/orders-service.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * What can be asked of the server from its own machine: `npm run escrow` (show, resolve),
 * `npm run operator` (grant, revoke: how the first admin is made) and `npm run audit:verify`.
 * Each runs through the running server's operator socket, or directly on the database when no
 * server runs; either way through the same services as the console, with actor `cli`.
 */
export type OperatorCommand =
  | { command: 'show'; orderId: number }
  | { command: 'resolve'; orderId: number; decision: OperatorAction; note: string }
  | { command: 'grant'; email: string; role: 'operator' | 'admin' }
  | { command: 'revoke'; email: string }
  | { command: 'audit-verify' }
  /** `npm run backup -- <file>`: the server writes the snapshot (the embedded database is its own). */
  | { command: 'backup'; file: string };

export type OperatorReply = { ok: true; text: string } | { ok: false; error: string; code: ErrorCode };

/** The services the commands use. */
export interface OperatorDesk {
  db: Executor;
  orders: OrdersService;
  accounts: AccountsAdmin;
}

export const ESCROW_USAGE = `Usage:
  npm run escrow -- show <orderId>
  npm run escrow -- resolve <orderId> refund|release --note "why"`;

export const ROLE_USAGE = `Usage:
  npm run operator -- grant <email> operator|admin
  npm run operator -- revoke <email>`;

/** Reads `npm run escrow` arguments, or explains what is wrong. */
export function parseEscrowCommand(args: string[]): OperatorCommand | { error: string } {
  const [command, rawId, ...rest] = args;
  const orderId = Number(rawId);
  if (command !== 'show' && command !== 'resolve') return { error: ESCROW_USAGE };
  if (!rawId || !/^\d{1,10}$/.test(rawId) || orderId < 1 || orderId > 2_147_483_647) return { error: `"${rawId ?? ''}" is not an order id.\n${ESCROW_USAGE}` };
  if (command === 'show') return rest.length === 0 ? { command, orderId } : { error: ESCROW_USAGE };
  const [decision, ...options] = rest;
  if (!(OPERATOR_ACTIONS as readonly string[]).includes(decision ?? '')) return { error: `Decide "refund" or "release".\n${ESCROW_USAGE}` };
  const noteAt = options.indexOf('--note');
  const note = noteAt >= 0 ? options[noteAt + 1]?.trim() : undefined;
  if (!note) return { error: `Explain the decision with --note "...".\n${ESCROW_USAGE}` };
  if (note.length > 2_000 || note.includes('\0')) return { error: 'The note must be at most 2,000 characters of text.' };
  return { command, orderId, decision: decision as OperatorAction, note };
}

/** Reads `npm run operator` arguments, or explains what is wrong. */
export function parseRoleCommand(args: string[]): OperatorCommand | { error: string } {
  const [command, rawEmail, role, ...rest] = args;
  const email = rawEmail?.trim().toLowerCase() ?? '';
  if (rest.length > 0 || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) return { error: ROLE_USAGE };
  if (command === 'grant' && (role === 'operator' || role === 'admin')) return { command, email, role };
  if (command === 'revoke' && role === undefined) return { command, email };
  return { error: ROLE_USAGE };
}

/** Runs a command; errors become a reply, never a throw. */
export async function runOperatorCommand(desk: OperatorDesk, command: OperatorCommand): Promise<OperatorReply> {
  try {
    switch (command.command) {
      case 'show': {
        const order = await desk.orders.timeline(command.orderId);
        return order ? { ok: true, text: formatTimeline(order) } : { ok: false, error: `There is no order #${command.orderId}`, code: ErrorCode.NOT_FOUND };
      }
      case 'resolve': {
        const order = await desk.orders.resolveDispute(command.orderId, command.decision, command.note, 'cli');
        return { ok: true, text: `${formatTimeline(order)}\n\nResolved: ${command.decision}. Both parties have been notified.` };
      }
      case 'grant':
      case 'revoke': {
        const [user] = await desk.db.select({ id: users.id }).from(users).where(eq(users.email, command.email));
        if (!user) return { ok: false, error: `There is no account with the email ${command.email}`, code: ErrorCode.NOT_FOUND };
        const role = command.command === 'grant' ? command.role : 'user';
        const changed = await desk.accounts.changeRole('cli', user.id, role, `npm run operator -- ${command.command}`);
        const next = role === 'user' ? '' : ' They must set up two-factor sign-in (Settings) before the console opens.';
        return { ok: true, text: `${changed.email} is now ${role === 'admin' ? 'an' : 'a'} ${role}; their sessions have ended.${next}` };
      }
      case 'audit-verify': {
        const check = await verifyAuditChain(desk.db);
        if (check.ok) return { ok: true, text: `Audit log intact: ${check.count} entries, each matching its hash and chained to the one before.` };
        return { ok: false, error: `Audit entry #${check.entryId} ${check.problem}. ${check.count} entries before it match.`, code: ErrorCode.AUDIT_CHAIN_BROKEN };
      }
      case 'backup': {
        if (!isAbsolute(command.file)) return { ok: false, error: 'The backup file must be an absolute path.', code: ErrorCode.BAD_REQUEST };
        return { ok: true, text: describeBackup(await writeBackup(desk.db as Database, command.file)) };
      }
    }
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
