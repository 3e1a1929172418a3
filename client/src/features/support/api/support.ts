import type { NewTicket } from '@common/schemas/commerce.ts';
import type { Health, SupportTicket } from '@common/schemas/support.ts';
import { api, ApiError } from '../../../lib/api-client.ts';

export type { SupportTicket } from '@common/schemas/support.ts';

/** `POST /api/support/tickets`; signed-in users are identified by their bearer token. */
export function submitTicket(body: NewTicket): Promise<SupportTicket> {
  return api.post<SupportTicket>('/api/support/tickets', body);
}

export type HealthState =
  | { kind: 'operational' }
  | { kind: 'degraded'; database: Health['db'] }
  | { kind: 'unreachable'; message: string };

/** `GET /api/health`: 200 ok, 503 degraded (database unreachable); no answer at all is "unreachable". */
export async function checkHealth(signal?: AbortSignal): Promise<HealthState> {
  try {
    const data = await api.get<Health>('/api/health', { signal });
    return data.status === 'ok' ? { kind: 'operational' } : { kind: 'degraded', database: data.db };
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return { kind: 'degraded', database: 'unreachable' };
    if (error instanceof ApiError) return { kind: 'unreachable', message: error.message };
    throw error;
  }
}
