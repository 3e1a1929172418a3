import { Type, type Static, type TSchema } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, TICKET_STATUSES, USER_ROLES, USER_STATUSES } from '@common/back-office.ts';
import { CAR_STATUSES } from '@common/car-lifecycle.ts';
import { ORDER_STATUSES } from '@common/order-lifecycle.ts';
import {
  AuditQuerySchema,
  ChangeRoleSchema,
  LedgerQuerySchema,
  ReasonSchema,
  ResolveDisputeSchema,
  TicketReplySchema,
  TicketsQuerySchema,
  UserSearchQuerySchema,
} from '@common/schemas/admin.ts';
import { forbidden } from '../../../lib/errors.ts';
import { Envelope, ErrorBody, IsoDateTime, StringEnum, commonErrors } from '../../../lib/schemas.ts';
import { listAudit } from '../../../services/audit.ts';
import { ledgerCsv } from '../../../services/back-office/money.ts';
import type { Staff } from '../../../services/back-office/staff.ts';
import { OrderSchema, OrderWithEventsSchema } from '../orders/index.ts';
import { BidSchema, IdParam, pathId } from '../shared-schemas.ts';
import { ErrorCode } from '@common/error-codes.ts';

const IdParams = IdParam('id');

const AdminUserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    role: StringEnum(USER_ROLES),
    status: StringEnum(USER_STATUSES),
    createdAt: IsoDateTime,
    sellerVerified: Type.Boolean(),
  },
  { title: 'AdminUser' },
);
const LedgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    orderId: Type.Integer(),
    kind: StringEnum(['charge', 'payout', 'refund'] as const),
    amount: Type.Integer({ description: 'Whole US dollars' }),
    reference: Type.Union([Type.String(), Type.Null()], { description: "The payment provider's reference, once settled" }),
    status: StringEnum(['pending', 'settled'] as const),
    at: IsoDateTime,
  },
  { title: 'LedgerEntry' },
);
const TicketSchema = Type.Object(
  {
    id: Type.Integer(),
    reference: Type.String(),
    email: Type.String(),
    subject: Type.String(),
    category: Type.String(),
    priority: Type.String(),
    message: Type.String(),
    status: StringEnum(TICKET_STATUSES),
    createdAt: IsoDateTime,
    replies: Type.Array(Type.Object({ message: Type.String(), by: Type.String(), at: IsoDateTime })),
  },
  { title: 'AdminTicket' },
);
const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    at: IsoDateTime,
    actor: Type.Union([Type.Object({ id: Type.Union([Type.Integer(), Type.Null()]), email: Type.String() }), Type.Literal('cli')]),
    action: StringEnum(AUDIT_ACTIONS),
    targetType: StringEnum(AUDIT_TARGET_TYPES),
    targetId: Type.Integer(),
    reason: Type.String(),
    before: Type.Unknown(),
    after: Type.Unknown(),
    hash: Type.String({ description: 'SHA-256 (hex) over prevHash and this entry' }),
    prevHash: Type.String({ description: "The previous entry's hash (64 zeros for the first)" }),
  },
  { title: 'AuditEntry' },
);
const CarStatusSchema = Envelope(Type.Object({ id: Type.Integer(), status: StringEnum(CAR_STATUSES) }));

/** Errors every console route can answer, besides its own. */
const guarded = { 401: ErrorBody, 403: ErrorBody, ...commonErrors };
const writes = { ...guarded, 404: ErrorBody, 409: ErrorBody };
const describe = (summary: string, response: Record<number, TSchema>, extra: { description?: string } = {}) => ({
  tags: ['admin'],
  summary,
  security: [{ bearerAuth: [] }],
  response,
  ...extra,
});
const GUARD_NOTE =
  'Signed out: 401. Role `user`: 403 NOT_ALLOWED. A session signed in without the second factor: 403 TOTP_REQUIRED. Every write takes a reason (1..500 characters; missing: 400) and writes an audit entry in its transaction.';

/**
 * The operator back office (contract §Operator back office). The guards run before the body is
 * validated, so a caller who may not be here learns nothing about what the route accepts.
 */
const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { accounts, listingModeration, moneyDesk, supportDesk, orders } = app.services;
  for (const guard of app.requireStaff) app.addHook('preValidation', guard);
  const adminOnly: preValidationAsyncHookHandler = async (request) => {
    if (request.session?.role !== 'admin') throw forbidden(ErrorCode.NOT_ALLOWED, 'Only an admin can change roles.');
  };
  const staffOf = (request: FastifyRequest): Staff => {
    const { userId, email, role } = request.session!;
    return { userId, email, role };
  };
  const userId = (raw: string) => pathId(raw, 'User not found');

  app.get(
    '/overview',
    {
      schema: describe(
        'Figures for the console: orders by status, money held in escrow, pending payouts and refunds, open disputes, flagged bids, open tickets',
        {
          200: Envelope(
            Type.Object({
              ordersByStatus: Type.Object(Object.fromEntries(ORDER_STATUSES.map((status) => [status, Type.Optional(Type.Integer())])), {
                description: 'How many orders are in each status (statuses with none are left out)',
              }),
              escrowHeld: Type.Integer({ description: 'Charged and not yet paid out or refunded, escrow fees kept included' }),
              payoutsPending: Type.Integer(),
              refundsPending: Type.Integer(),
              disputesOpen: Type.Integer(),
              flaggedBids: Type.Integer(),
              ticketsOpen: Type.Integer(),
            }),
          ),
          ...guarded,
        },
        { description: GUARD_NOTE },
      ),
    },
    async () => ({ data: await moneyDesk.overview() }),
  );

  /** A console list: `GET <path>` answers `{data: {<key>: [...]}}`. */
  const listRoute = <Q extends TSchema>(path: string, summary: string, key: string, item: TSchema, query: Q | null, read: (query: Static<Q>) => Promise<unknown[]>) =>
    app.get(
      path,
      { schema: { ...describe(summary, { 200: Envelope(Type.Object({ [key]: Type.Array(item) })), ...guarded }), ...(query ? { querystring: query } : {}) } },
      async (request) => ({ data: { [key]: await read(request.query as Static<Q>) } }),
    );
  listRoute('/disputes', "Open disputes, the longest waiting first, each with its timeline and the parties' notes", 'orders', OrderWithEventsSchema, null, () => moneyDesk.disputes());
  listRoute('/users', 'Accounts whose name or email contains `search` (or whose id it is); the first 100', 'users', AdminUserSchema, UserSearchQuerySchema, (query) =>
    accounts.search(query.search),
  );
  listRoute('/tickets', 'Support tickets with their replies, the longest waiting first; filter by `status`', 'tickets', TicketSchema, TicketsQuerySchema, (query) =>
    supportDesk.list(query.status),
  );
  listRoute(
    '/flagged-bids',
    "Bids placed by an account that signed in from the same client address as the car's seller within 30 days (flagged when placed, never blocked), newest first",
    'bids',
    Type.Intersect([BidSchema, Type.Object({ reason: Type.String() })]),
    null,
    () => listingModeration.flaggedBids(),
  );
  listRoute(
    '/audit',
    'The audit log, newest first; filter by actor (user id, email or `cli`), action, target; page back with `before` (an entry id)',
    'entries',
    AuditEntrySchema,
    AuditQuerySchema,
    (query) => listAudit(app.db, query),
  );

  app.post(
    '/orders/:id/resolve',
    {
      schema: {
        ...describe(
          'Decide a dispute: release pays the seller, refund returns the money to the buyer. The same state machine as `npm run escrow -- resolve`; the reason becomes the event note. Not disputed: 409 INVALID_TRANSITION.',
          { 200: Envelope(OrderSchema), ...writes },
        ),
        params: IdParams,
        body: ResolveDisputeSchema,
      },
    },
    async (request) => {
      const order = await orders.resolveDispute(pathId(request.params.id, 'Order not found'), request.body.outcome, request.body.reason.trim(), {
        userId: request.session!.userId,
        email: request.session!.email,
      });
      const { events: _events, ...summary } = order;
      return { data: summary };
    },
  );

  const ledgerSummary = 'Charges, payouts and refunds recorded in the period (`from`/`to`, ISO date-times), oldest first';
  app.get(
    '/ledger',
    {
      schema: {
        ...describe(`${ledgerSummary}, with totals: charged = paidOut + refunded + held`, {
          200: Envelope(
            Type.Object({
              entries: Type.Array(LedgerEntrySchema),
              totals: Type.Object({
                charged: Type.Integer(),
                paidOut: Type.Integer({ description: 'Payouts settled' }),
                refunded: Type.Integer({ description: 'Refunds settled' }),
                held: Type.Integer({ description: 'Still with us: in escrow, disbursements not yet settled, and the escrow fees kept' }),
                feesKept: Type.Integer({ description: 'Extension: the part of held that is escrow fees earned' }),
              }),
            }),
          ),
          ...guarded,
        }),
        querystring: LedgerQuerySchema,
      },
    },
    async (request) => ({ data: await moneyDesk.ledger(request.query) }),
  );

  app.get(
    '/ledger.csv',
    {
      schema: {
        ...describe(`${ledgerSummary}, as CSV: a header row, then one row per entry`, { 200: Type.String({ description: 'text/csv' }), ...guarded }),
        produces: ['text/csv'],
        querystring: LedgerQuerySchema,
      },
    },
    async (request, reply) => {
      const { entries } = await moneyDesk.ledger(request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="luxemotors-ledger.csv"')
        .send(ledgerCsv(entries));
    },
  );

  /** A write on one record that takes only a reason: `POST /users|cars/:id/<action> {reason}`. */
  const reasonWrite = (path: `/${'users' | 'cars'}/:id/${string}`, summary: string, answer: TSchema, run: (staff: Staff, id: number, reason: string) => Promise<unknown>) => {
    const notFoundMessage = path.startsWith('/users') ? 'User not found' : 'Car not found';
    app.post(
      path,
      { schema: { ...describe(summary, { 200: answer, ...writes }), params: IdParams, body: ReasonSchema } },
      async (request) => ({ data: await run(staffOf(request), pathId(request.params.id, notFoundMessage), request.body.reason.trim()) }),
    );
  };
  const AdminUserAnswer = Envelope(AdminUserSchema);
  reasonWrite(
    '/users/:id/suspend',
    'Suspend an account: its sessions and sockets end at once, sign-in answers 403 ACCOUNT_SUSPENDED, its live listings leave the market. Only an admin may suspend staff; nobody suspends themselves (409).',
    AdminUserAnswer,
    (staff, id, reason) => accounts.suspend(staff, id, reason),
  );
  reasonWrite('/users/:id/unsuspend', 'Lift a suspension: sign-in works again and the listings the suspension hid come back', AdminUserAnswer, (staff, id, reason) =>
    accounts.unsuspend(staff, id, reason),
  );
  reasonWrite('/users/:id/verify-seller', "Give the account's seller profile the Verified seller badge (409 NOT_A_SELLER without one)", AdminUserAnswer, (staff, id, reason) =>
    accounts.verifySeller(staff, id, reason),
  );
  reasonWrite('/cars/:id/hide', 'Hide a listing: off the market and 404 to all but its seller and staff; the seller is notified with the reason', CarStatusSchema, (staff, id, reason) =>
    listingModeration.hide(staff, id, reason),
  );
  reasonWrite(
    '/cars/:id/restore',
    'Put a hidden listing back in the status it had (409 NOT_HIDDEN; 409 SELLER_SUSPENDED while its seller is suspended)',
    CarStatusSchema,
    (staff, id, reason) => listingModeration.restore(staff, id, reason),
  );

  app.post(
    '/users/:id/role',
    {
      preValidation: adminOnly,
      schema: {
        ...describe("Change an account's role (admins only; an operator: 403 NOT_ALLOWED). The account's sessions end.", { 200: AdminUserAnswer, ...writes }),
        params: IdParams,
        body: ChangeRoleSchema,
      },
    },
    async (request) => ({ data: await accounts.changeRole(staffOf(request), userId(request.params.id), request.body.role, request.body.reason.trim()) }),
  );

  app.post(
    '/tickets/:id/reply',
    {
      schema: {
        ...describe('Answer a ticket: emailed to the requester, status `answered`; the message stands as the audit reason', { 200: Envelope(TicketSchema), ...writes }),
        params: IdParams,
        body: TicketReplySchema,
      },
    },
    async (request) => ({ data: await supportDesk.reply(staffOf(request), pathId(request.params.id, 'Ticket not found'), request.body.message) }),
  );

};

export default adminRoutes;
