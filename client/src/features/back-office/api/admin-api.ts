import type { AdminOverview, AdminTicket, AdminUser, AuditEntry, CarDetail, FlaggedBid, LedgerEntry, LedgerTotals, Order, OrderWithEvents } from '@common/api-types.ts';
import type { AuditAction, AuditTargetType, TicketStatus, UserRole } from '@common/back-office.ts';
import type { OperatorAction } from '@common/order-lifecycle.ts';
import { api, type Download } from '../../../lib/api-client.ts';

/** Calls of the contract's "Operator back office" (`/api/admin/*`). Every failure rejects with `ApiError`. */

export type { AdminOverview, AdminTicket, AdminUser, AuditEntry, FlaggedBid, LedgerEntry, LedgerTotals };
export type DisputedOrder = OrderWithEvents;

export function getOverview(signal?: AbortSignal): Promise<AdminOverview> {
  return api.get<AdminOverview>('/api/admin/overview', { signal });
}

/** Open disputes, oldest first, each with its timeline. */
export async function getDisputes(signal?: AbortSignal): Promise<DisputedOrder[]> {
  return (await api.get<{ orders: DisputedOrder[] }>('/api/admin/disputes', { signal })).orders;
}

export function resolveDispute(orderId: number, body: { outcome: OperatorAction; reason: string }): Promise<Order> {
  return api.post<Order>(`/api/admin/orders/${orderId}/resolve`, body);
}

/** `from` and `to`: ISO instants, either left out. */
export interface LedgerRange {
  from?: string;
  to?: string;
}

export function getLedger(range: LedgerRange, signal?: AbortSignal): Promise<{ entries: LedgerEntry[]; totals: LedgerTotals }> {
  return api.get<{ entries: LedgerEntry[]; totals: LedgerTotals }>('/api/admin/ledger', { query: { ...range }, signal });
}

/** The ledger as CSV, fetched with the session's token (a plain link would go without it). */
export function downloadLedgerCsv(range: LedgerRange): Promise<Download> {
  return api.download('/api/admin/ledger.csv', { query: { ...range }, accept: 'text/csv' });
}

export async function searchUsers(search: string, signal?: AbortSignal): Promise<AdminUser[]> {
  return (await api.get<{ users: AdminUser[] }>('/api/admin/users', { query: { search }, signal })).users;
}

export type UserAction = 'suspend' | 'unsuspend' | 'verify-seller';

export function actOnUser(userId: number, action: UserAction, reason: string): Promise<unknown> {
  return api.post<unknown>(`/api/admin/users/${userId}/${action}`, { reason });
}

export function changeRole(userId: number, role: UserRole, reason: string): Promise<unknown> {
  return api.post<unknown>(`/api/admin/users/${userId}/role`, { role, reason });
}

/** A car as its page reads it; operators also see hidden ones. */
export function getCar(carId: number, signal?: AbortSignal): Promise<CarDetail> {
  return api.get<CarDetail>(`/api/cars/${carId}`, { signal });
}

export type ListingAction = 'hide' | 'restore';

export function actOnListing(carId: number, action: ListingAction, reason: string): Promise<unknown> {
  return api.post<unknown>(`/api/admin/cars/${carId}/${action}`, { reason });
}

export async function getTickets(status: TicketStatus | undefined, signal?: AbortSignal): Promise<AdminTicket[]> {
  return (await api.get<{ tickets: AdminTicket[] }>('/api/admin/tickets', { query: { status }, signal })).tickets;
}

export function replyToTicket(ticketId: number, message: string): Promise<unknown> {
  return api.post<unknown>(`/api/admin/tickets/${ticketId}/reply`, { message });
}

export async function getFlaggedBids(signal?: AbortSignal): Promise<FlaggedBid[]> {
  return (await api.get<{ bids: FlaggedBid[] }>('/api/admin/flagged-bids', { signal })).bids;
}

export interface AuditFilters {
  actor?: string;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: number;
}

/** One page of the audit log, newest first; `before`: the last id of the page before. */
export async function getAudit(filters: AuditFilters, page: { before?: number; limit: number }, signal?: AbortSignal): Promise<AuditEntry[]> {
  return (await api.get<{ entries: AuditEntry[] }>('/api/admin/audit', { query: { ...filters, ...page }, signal })).entries;
}

/** `GET /api/users/profile`: the signed-in user as the server has it now (role, two-factor). */
export function getOwnProfile(signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/api/users/profile', { signal });
}
