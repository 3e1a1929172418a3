import type {
  AdminOverview,
  AdminTicket,
  AdminTickets,
  AdminUser,
  AdminUsers,
  AuditEntry,
  DisputeCase,
  AuditPage,
  AuditQuery,
  Disputes,
  FlaggedBid,
  FlaggedBids,
  Ledger,
  LedgerQuery,
} from '@common/schemas/admin.ts';
import type { TicketStatus, UserRole } from '@common/back-office.ts';
import type { ChatQueueFilter } from '@common/discussion.ts';
import type { ChatMessage, ChatPage, ChatQueue, QueuedChatMessage, UserMute } from '@common/schemas/chat.ts';
import { CHAT_PAGE_MAX } from '@common/schemas/commerce.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { OperatorAction } from '@common/order-lifecycle.ts';
import type { Order } from '@common/schemas/orders.ts';
import { api, type Download } from '../../../lib/api-client.ts';

/** Calls of the contract's "Operator back office" (`/api/admin/*`). Every failure rejects with `ApiError`. */

export type { AdminOverview, AdminTicket, AdminUser, AuditEntry, FlaggedBid, LedgerEntry, LedgerKind, LedgerTotals } from '@common/schemas/admin.ts';
export type DisputedOrder = DisputeCase;
export type { ChatMessage, QueuedChatMessage, UserMute } from '@common/schemas/chat.ts';

export function getOverview(signal?: AbortSignal): Promise<AdminOverview> {
  return api.get<AdminOverview>('/api/admin/overview', { signal });
}

/** Open disputes, oldest first, each with its timeline. */
export async function getDisputes(signal?: AbortSignal): Promise<DisputedOrder[]> {
  return (await api.get<Disputes>('/api/admin/disputes', { signal })).orders;
}

export function resolveDispute(orderId: number, body: { outcome: OperatorAction; reason: string }): Promise<Order> {
  return api.post<Order>(`/api/admin/orders/${orderId}/resolve`, body);
}

/** `from` and `to`: ISO instants, either left out. */
export type LedgerRange = LedgerQuery;

export function getLedger(range: LedgerRange, signal?: AbortSignal): Promise<Ledger> {
  return api.get<Ledger>('/api/admin/ledger', { query: { ...range }, signal });
}

/** The ledger as CSV, fetched with the session's token (a plain link would go without it). */
export function downloadLedgerCsv(range: LedgerRange): Promise<Download> {
  return api.download('/api/admin/ledger.csv', { query: { ...range }, accept: 'text/csv' });
}

export async function searchUsers(search: string, signal?: AbortSignal): Promise<AdminUser[]> {
  return (await api.get<AdminUsers>('/api/admin/users', { query: { search }, signal })).users;
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
  return (await api.get<AdminTickets>('/api/admin/tickets', { query: { status }, signal })).tickets;
}

export function replyToTicket(ticketId: number, message: string): Promise<unknown> {
  return api.post<unknown>(`/api/admin/tickets/${ticketId}/reply`, { message });
}

export async function getFlaggedBids(signal?: AbortSignal): Promise<FlaggedBid[]> {
  return (await api.get<FlaggedBids>('/api/admin/flagged-bids', { signal })).bids;
}

/** The moderation queue, oldest first: held messages, reported ones, or both (`filter` left out). */
export async function getChatQueue(filter: ChatQueueFilter | undefined, signal?: AbortSignal): Promise<QueuedChatMessage[]> {
  return (await api.get<ChatQueue>('/api/admin/chat', { query: { status: filter }, signal })).messages;
}

export type ModerationMove = 'approve' | 'remove';

/** Approves (visible to all, pushed to the room) or removes (gone for everyone) a queued message. */
export function moderateMessage(messageId: number, move: ModerationMove, reason: string): Promise<ChatMessage> {
  return api.post<ChatMessage>(`/api/admin/chat/${messageId}/${move}`, { reason });
}

/** Keeps a user from posting, replying, voting and reporting for `hours`. */
export function muteUser(userId: number, hours: number, reason: string): Promise<UserMute> {
  return api.post<UserMute>(`/api/admin/users/${userId}/mute`, { reason, hours });
}

export function unmuteUser(userId: number, reason: string): Promise<UserMute> {
  return api.post<UserMute>(`/api/admin/users/${userId}/unmute`, { reason });
}

/** A car's discussion as staff read it: held and removed messages included. */
export async function getCarDiscussion(carId: number, signal?: AbortSignal): Promise<ChatMessage[]> {
  return (await api.get<ChatPage>(`/api/chat/car/${carId}`, { query: { limit: CHAT_PAGE_MAX }, signal })).messages;
}

/** What the audit log can be filtered by (its paging, `before` and `limit`, comes apart). */
export type AuditFilters = Omit<AuditQuery, 'before' | 'limit'>;

/** One page of the audit log, newest first; `before`: the last id of the page before. */
export async function getAudit(filters: AuditFilters, page: Pick<AuditQuery, 'before' | 'limit'>, signal?: AbortSignal): Promise<AuditEntry[]> {
  return (await api.get<AuditPage>('/api/admin/audit', { query: { ...filters, ...page }, signal })).entries;
}

/** `GET /api/users/profile`: the signed-in user as the server has it now (role, two-factor). */
export function getOwnProfile(signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/api/users/profile', { signal });
}
