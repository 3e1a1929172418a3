import type { Static, TSchema } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import {
  AdminOverviewSchema,
  AdminTicketSchema,
  AdminTicketsSchema,
  AdminUserSchema,
  AdminUsersSchema,
  AuditPageSchema,
  AuditQuerySchema,
  ChangeRoleSchema,
  DisputesSchema,
  FlaggedBidsSchema,
  LedgerCsvSchema,
  LedgerQuerySchema,
  LedgerSchema,
  ListingModerationSchema,
  ReasonSchema,
  ResolveDisputeSchema,
  TicketReplySchema,
  TicketsQuerySchema,
  UserSearchQuerySchema,
} from '@common/schemas/admin.ts';
import { Envelope, errorResponses, type DeclaredError } from '@common/schemas/envelope.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { OrderSchema } from '@common/schemas/orders.ts';
import { ChatMessageSchema, ChatQueueQuerySchema, ChatQueueSchema, MuteUserSchema, UnmuteUserSchema, UserMuteSchema } from '@common/schemas/chat.ts';
import { forbidden } from '../../../lib/errors.ts';
import { listAudit } from '../../../services/audit.ts';
import { ledgerCsv } from '../../../services/back-office/money.ts';
import type { Staff } from '../../../services/back-office/staff.ts';
import { pathId } from '../path-id.ts';
import { ErrorCode } from '@common/error-codes.ts';

const IdParams = IdParam('id');

const describe = <R extends Record<number, TSchema>>(summary: string, response: R, extra: { description?: string } = {}) => ({
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
  const { accounts, listingModeration, moneyDesk, supportDesk, orders, discussionModeration } = app.services;
  app.guardEveryRoute(app.requireStaff);
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
        { 200: Envelope(AdminOverviewSchema) },
        { description: GUARD_NOTE },
      ),
    },
    async () => ({ data: await moneyDesk.overview() }),
  );

  /** A console list: `GET <path>` answers `{data: {<key>: [...]}}`, the list as `list` describes it. */
  const listRoute = <L extends TSchema, Q extends TSchema>(path: string, summary: string, list: L, query: Q | null, read: (query: Static<Q>) => Promise<Static<L>>) =>
    app.get(
      path,
      // Inside this generic helper the answer's type cannot be resolved (so the schema is widened
      // here); `read`'s own type holds each list to its schema.
      { schema: { ...describe(summary, { 200: Envelope(list) as TSchema }), ...(query ? { querystring: query } : {}) } },
      async (request) => ({ data: await read(request.query as Static<Q>) }),
    );
  listRoute('/disputes', "Open disputes, the longest waiting first, each with its timeline and the parties' notes", DisputesSchema, null, async () => ({ orders: await moneyDesk.disputes() }));
  listRoute('/users', 'Accounts whose name or email contains `search` (or whose id it is); the first 100', AdminUsersSchema, UserSearchQuerySchema, async (query) => ({
    users: await accounts.search(query.search),
  }));
  listRoute('/tickets', 'Support tickets with their replies, the longest waiting first; filter by `status`', AdminTicketsSchema, TicketsQuerySchema, async (query) => ({
    tickets: await supportDesk.list(query.status),
  }));
  listRoute(
    '/flagged-bids',
    "Bids placed by an account that signed in from the same client address as the car's seller within 30 days (flagged when placed, never blocked), newest first",
    FlaggedBidsSchema,
    null,
    async () => ({ bids: await listingModeration.flaggedBids() }),
  );
  listRoute(
    '/audit',
    'The audit log, newest first; filter by actor (user id, email or `cli`), action, target; page back with `before` (an entry id)',
    AuditPageSchema,
    AuditQuerySchema,
    async (query) => ({ entries: await listAudit(app.db, query) }),
  );

  app.post(
    '/orders/:id/resolve',
    {
      schema: {
        ...describe(
          'Decide a dispute: release pays the seller, refund returns the money to the buyer. The same state machine as `npm run escrow -- resolve`; the reason becomes the event note. Not disputed: 409 INVALID_TRANSITION.',
          { 200: Envelope(OrderSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION) },
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
        ...describe(`${ledgerSummary}, with totals: charged = paidOut + refunded + held`, { 200: Envelope(LedgerSchema) }),
        querystring: LedgerQuerySchema,
      },
    },
    async (request) => ({ data: await moneyDesk.ledger(request.query) }),
  );

  app.get(
    '/ledger.csv',
    {
      schema: {
        // Only the sheet is CSV: a refusal is the JSON failure body, as everywhere.
        ...describe(`${ledgerSummary}, as CSV: a header row, then one row per entry`, { 200: { description: 'The ledger as CSV', content: { 'text/csv': { schema: LedgerCsvSchema } } } }),
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
  const reasonWrite = <A extends TSchema>(
    path: `/${'users' | 'cars'}/:id/${string}`,
    summary: string,
    answer: A,
    errors: readonly DeclaredError[],
    run: (staff: Staff, id: number, reason: string) => Promise<Static<A>>,
  ) => {
    const notFoundMessage = path.startsWith('/users') ? 'User not found' : 'Car not found';
    app.post(
      path,
      // As in listRoute: `run`'s own type holds the answer to the schema.
      { schema: { ...describe(summary, { 200: Envelope(answer) as TSchema, ...errorResponses(ErrorCode.NOT_FOUND, ...errors) }), params: IdParams, body: ReasonSchema } },
      async (request) => ({ data: await run(staffOf(request), pathId(request.params.id, notFoundMessage), request.body.reason.trim()) }),
    );
  };
  reasonWrite(
    '/users/:id/suspend',
    'Suspend an account: its sessions and sockets end at once, sign-in answers 403 ACCOUNT_SUSPENDED, its live listings leave the market. Only an admin may suspend staff; nobody suspends themselves (409).',
    AdminUserSchema,
    [ErrorCode.NOT_ALLOWED_ON_SELF, ErrorCode.ALREADY_SUSPENDED],
    (staff, id, reason) => accounts.suspend(staff, id, reason),
  );
  reasonWrite('/users/:id/unsuspend', 'Lift a suspension: sign-in works again and the listings the suspension hid come back', AdminUserSchema, [ErrorCode.NOT_SUSPENDED], (staff, id, reason) =>
    accounts.unsuspend(staff, id, reason),
  );
  reasonWrite('/users/:id/verify-seller', "Give the account's seller profile the Verified seller badge (409 NOT_A_SELLER without one)", AdminUserSchema, [ErrorCode.NOT_A_SELLER, ErrorCode.ALREADY_VERIFIED], (staff, id, reason) =>
    accounts.verifySeller(staff, id, reason),
  );
  reasonWrite('/cars/:id/hide', 'Hide a listing: off the market and 404 to all but its seller and staff; the seller is notified with the reason', ListingModerationSchema, [ErrorCode.ALREADY_HIDDEN], (staff, id, reason) =>
    listingModeration.hide(staff, id, reason),
  );
  reasonWrite(
    '/cars/:id/restore',
    'Put a hidden listing back in the status it had (409 NOT_HIDDEN; 409 SELLER_SUSPENDED while its seller is suspended)',
    ListingModerationSchema,
    [ErrorCode.NOT_HIDDEN, ErrorCode.SELLER_SUSPENDED],
    (staff, id, reason) => listingModeration.restore(staff, id, reason),
  );

  listRoute(
    '/chat',
    "The discussion's moderation queue, oldest first: held messages (by the contact guard or by reports) and visible ones with reports, each with its reports; filter by `status`",
    ChatQueueSchema,
    ChatQueueQuerySchema,
    async (query) => ({ messages: await discussionModeration.queue(query.status) }),
  );

  const chatDecision = (path: string, summary: string, run: (staff: Staff, id: number, reason: string) => Promise<Static<typeof ChatMessageSchema>>) =>
    app.post(
      path,
      {
        schema: {
          ...describe(summary, { 200: Envelope(ChatMessageSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.INVALID_TRANSITION) }),
          params: IdParams,
          body: ReasonSchema,
        },
      },
      async (request) => ({ data: await run(staffOf(request), pathId(request.params.id, 'Message not found'), request.body.reason.trim()) }),
    );
  chatDecision(
    '/chat/:id/approve',
    'Approve a queued message: a held one becomes visible, is pushed to the room and notified as new; a reported one keeps its place and its reports are dismissed. Decided already (another operator first): 409 INVALID_TRANSITION.',
    (staff, id, reason) => discussionModeration.approve(staff, id, reason),
  );
  chatDecision(
    '/chat/:id/remove',
    'Remove a message for everyone but staff (chat:removed pushed); its author is notified with the reason. Already removed: 409 INVALID_TRANSITION.',
    (staff, id, reason) => discussionModeration.remove(staff, id, reason),
  );

  app.post(
    '/users/:id/mute',
    {
      schema: {
        ...describe('Mute a user for `hours` (1..720): they cannot post, reply, vote or report (403 MUTED with the end) until then. A new mute replaces the old one.', {
          200: Envelope(UserMuteSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED_ON_SELF),
        }),
        params: IdParams,
        body: MuteUserSchema,
      },
    },
    async (request) => ({ data: await discussionModeration.mute(staffOf(request), userId(request.params.id), request.body.reason.trim(), request.body.hours) }),
  );
  app.post(
    '/users/:id/unmute',
    {
      schema: {
        ...describe('Lift a mute now (not muted: 409 NOT_MUTED)', { 200: Envelope(UserMuteSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_MUTED) }),
        params: IdParams,
        body: UnmuteUserSchema,
      },
    },
    async (request) => ({ data: await discussionModeration.unmute(staffOf(request), userId(request.params.id), request.body.reason.trim()) }),
  );

  app.post(
    '/users/:id/role',
    {
      preValidation: adminOnly,
      schema: {
        ...describe("Change an account's role (admins only; an operator: 403 NOT_ALLOWED). The account's sessions end.", {
          200: Envelope(AdminUserSchema),
          ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.NOT_ALLOWED_ON_SELF, ErrorCode.ROLE_UNCHANGED),
        }),
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
        ...describe('Answer a ticket: emailed to the requester, status `answered`; the message stands as the audit reason', { 200: Envelope(AdminTicketSchema), ...errorResponses(ErrorCode.NOT_FOUND) }),
        params: IdParams,
        body: TicketReplySchema,
      },
    },
    async (request) => ({ data: await supportDesk.reply(staffOf(request), pathId(request.params.id, 'Ticket not found'), request.body.message) }),
  );

};

export default adminRoutes;
