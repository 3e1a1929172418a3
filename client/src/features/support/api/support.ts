import { api, ApiError } from '../../../lib/api-client.ts';
import type { TicketBody, TicketCategory, TicketPriority } from '../lib/ticket.ts';

export interface SupportTicket {
  id: string;
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  status: string;
  email: string;
  createdAt: string;
}

/** `POST /api/support/tickets`; signed-in users are identified by their bearer token. */
export function submitTicket(body: TicketBody): Promise<SupportTicket> {
  return api.post<SupportTicket>('/api/support/tickets', body);
}

export type HealthState =
  | { kind: 'operational' }
  | { kind: 'degraded'; database: 'ok' | 'unreachable' }
  | { kind: 'unreachable'; message: string };

/** `GET /api/health`: 200 ok, 503 degraded (database unreachable); no answer at all is "unreachable". */
export async function checkHealth(signal?: AbortSignal): Promise<HealthState> {
  try {
    const data = await api.get<{ status: string; db: string }>('/api/health', { signal });
    return data.status === 'ok' ? { kind: 'operational' } : { kind: 'degraded', database: data.db === 'ok' ? 'ok' : 'unreachable' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return { kind: 'degraded', database: 'unreachable' };
    if (error instanceof ApiError) return { kind: 'unreachable', message: error.message };
    throw error;
  }
}
