import type { AuditEntry } from '@common/schemas/admin.ts';
import type { AuditAction, AuditTargetType, UserRole } from '@common/back-office.ts';
import { parseId } from '@common/ids.ts';

/** Words and short forms the console shows for the back office's records. */

export const ROLE_LABELS: Record<UserRole, string> = { user: 'User', operator: 'Operator', admin: 'Admin' };

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'dispute.resolve': 'Dispute resolved',
  'user.suspend': 'User suspended',
  'user.unsuspend': 'User unsuspended',
  'user.verify-seller': 'Seller verified',
  'user.role': 'Role changed',
  'car.hide': 'Listing hidden',
  'car.restore': 'Listing restored',
  'ticket.reply': 'Ticket answered',
  'chat.approve': 'Message approved',
  'chat.remove': 'Message removed',
  'user.mute': 'User muted',
  'user.unmute': 'User unmuted',
};

export const TARGET_LABELS: Record<AuditTargetType, string> = { order: 'Order', user: 'User', car: 'Car', ticket: 'Ticket', chat_message: 'Message' };

/** Who did it: the operator's email, or `cli` for the command line on the server. */
export const actorLabel = (actor: AuditEntry['actor']): string => (actor === 'cli' ? 'cli' : actor.email);

/** The first 12 hex digits of a hash: enough to tell entries apart and to find one in `audit:verify`'s output. */
export const shortHash = (hash: string): string => hash.slice(0, 12);

/**
 * A record's state as one short line of JSON: `{"status":"disputed"}`; `—` for none. Longer
 * than `max` characters, it is cut with an ellipsis (the full text goes in a tooltip).
 */
export function compactJson(value: unknown, max = 160): string {
  if (value === null || value === undefined) return '—';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A date field's day (`2026-03-04`, the viewer's calendar) as the instant the API's range takes:
 * the start of that day for `from`, the end of it for `to`. Empty or malformed: undefined.
 */
export function dayBoundary(day: string, edge: 'start' | 'end'): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const at = edge === 'start' ? new Date(year, month, date, 0, 0, 0, 0) : new Date(year, month, date, 23, 59, 59, 999);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The ledger balances when every dollar charged was paid out, refunded or is still held. */
export function ledgerBalances(totals: { charged: number; paidOut: number; refunded: number; held: number }): boolean {
  return Math.abs(totals.charged - (totals.paidOut + totals.refunded + totals.held)) < 0.005;
}

/** A positive whole id typed in a field, or null. */
export function parseTypedId(text: string): number | null {
  return parseId(text.trim().replace(/^#/, ''));
}
