import { Type, type Static } from 'typebox';
import { SUPPORT_CATEGORIES, SUPPORT_PRIORITIES } from '../enums.ts';
import { IsoDateTime, StringEnum } from './kit.ts';
import { ERROR_CODES, ErrorCode } from '../error-codes.ts';

/** What the support routes and the health check answer. */

/** A support ticket as its requester sees it. */
export const SupportTicketSchema = Type.Object(
  {
    id: Type.String({ description: 'Human-friendly reference, e.g. LM-7K3Q9P' }),
    subject: Type.String(),
    category: StringEnum(SUPPORT_CATEGORIES),
    priority: StringEnum(SUPPORT_PRIORITIES),
    status: Type.String(),
    email: Type.String(),
    createdAt: IsoDateTime,
  },
  { title: 'SupportTicket' },
);
export type SupportTicket = Static<typeof SupportTicketSchema>;

/** `GET /api/support/tickets/:reference`: the ticket with its message. */
export const SupportTicketWithMessageSchema = Type.Interface([SupportTicketSchema], { message: Type.String() });
export type SupportTicketWithMessage = Static<typeof SupportTicketWithMessageSchema>;

/** `GET /api/support/tickets/:reference`. */
export const TicketReferenceParams = Type.Object({ reference: Type.String({ maxLength: 20 }) });

export const SupportTicketsSchema = Type.Object({ tickets: Type.Array(SupportTicketSchema) });
export type SupportTickets = Static<typeof SupportTicketsSchema>;

/** `GET /api/health`'s `data`. */
export const HealthSchema = Type.Object({
  status: StringEnum(['ok', 'degraded'] as const),
  db: StringEnum(['ok', 'busy', 'unreachable'] as const, {
    description: 'busy: a statement has waited for the database (a pooled connection, the embedded engine) longer than DB_QUEUE_LIMIT_MS, so writes are refused with 503 for now (status degraded, still 200; the database is not asked)',
  }),
  redis: StringEnum(['ok', 'unreachable', 'off'] as const, {
    description: 'Shared state between processes; while unreachable each process serves its own clients (status degraded, still 200), off without REDIS_URL',
  }),
  queueMs: Type.Integer({ minimum: 0, description: "Age in ms of the oldest statement waiting for the database (0 when none), this process's measure of how far the database has fallen behind" }),
});
export type Health = Static<typeof HealthSchema>;

/** `GET /api/health`: `{data}` on 200, and on 503 with the error sentence and code beside it. */
export const HealthBodySchema = Type.Object({
  data: HealthSchema,
  error: Type.Optional(Type.String()),
  code: Type.Optional(StringEnum([ErrorCode.SERVICE_DEGRADED] as const, { description: `${ErrorCode.SERVICE_DEGRADED} — ${ERROR_CODES.SERVICE_DEGRADED.message}` })),
});

/** `GET /api/health/live`. */
export const LivenessBodySchema = Type.Object({ data: Type.Object({ status: Type.String() }) });
