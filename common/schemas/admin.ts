import { Type, type Static } from 'typebox';
import { AUDIT_ACTIONS, AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, AUDIT_TARGET_TYPES, REASON_MAX_LENGTH, TICKET_REPLY_MAX_LENGTH, TICKET_STATUSES, USER_ROLES, USER_STATUSES } from '../back-office.ts';
import { CAR_STATUSES } from '../car-lifecycle.ts';
import { OPERATOR_ACTIONS, ORDER_STATUSES, type OrderStatus } from '../order-lifecycle.ts';
import { BidSchema } from './bids.ts';
import { DisputeDossierSchema } from './dossier.ts';
import { IsoDateTime, MAX_ID, StringEnum, Text, messages, strict } from './kit.ts';
import { OrderWithEventsSchema } from './orders.ts';

/** Bodies, queries and answers of the operator back office (`/api/admin/*`). */

const Reason = Text(1, REASON_MAX_LENGTH, {
  description: 'Why; kept in the audit log',
  ...messages({ required: 'Give a reason', default: 'Give a reason', maxLength: `A reason is at most ${REASON_MAX_LENGTH} characters` }),
});

export const ReasonSchema = Type.Object({ reason: Reason }, strict);
export const ResolveDisputeSchema = Type.Object(
  { outcome: StringEnum(OPERATOR_ACTIONS, { description: 'release pays the seller; refund returns the money to the buyer' }), reason: Reason },
  strict,
);
export const ChangeRoleSchema = Type.Object({ role: StringEnum(USER_ROLES), reason: Reason }, strict);
export const TicketReplySchema = Type.Object(
  {
    message: Text(1, TICKET_REPLY_MAX_LENGTH, {
      description: 'Emailed to the requester; it stands as the reason',
      ...messages({ required: 'Write a reply', default: 'Write a reply', maxLength: `A reply is at most ${TICKET_REPLY_MAX_LENGTH.toLocaleString('en-US')} characters` }),
    }),
  },
  strict,
);

export const LedgerQuerySchema = Type.Object({ from: Type.Optional(IsoDateTime), to: Type.Optional(IsoDateTime) }, strict);
/** `from` and `to`: ISO instants, either left out. */
export type LedgerQuery = Static<typeof LedgerQuerySchema>;
export const UserSearchQuerySchema = Type.Object({ search: Type.Optional(Type.String({ maxLength: 200 })) }, strict);
export const TicketsQuerySchema = Type.Object({ status: Type.Optional(StringEnum(TICKET_STATUSES)) }, strict);
export const AuditQuerySchema = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'A user id, an email, or `cli`' })),
    action: Type.Optional(StringEnum(AUDIT_ACTIONS)),
    targetType: Type.Optional(StringEnum(AUDIT_TARGET_TYPES)),
    targetId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID })),
    before: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Entries older than this id (the next page)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT })),
  },
  strict,
);
export type AuditQuery = Static<typeof AuditQuerySchema>;

// ── Answers ──────────────────────────────────────────────────────────────────────────────────

const statusCount = Type.Optional(Type.Integer());

export const AdminOverviewSchema = Type.Object({
  ordersByStatus: Type.Object(Object.fromEntries(ORDER_STATUSES.map((status) => [status, statusCount])) as Record<OrderStatus, typeof statusCount>, {
    description: 'How many orders are in each status (statuses with none are left out)',
  }),
  escrowHeld: Type.Integer({ description: 'Charged and not yet paid out or refunded, escrow fees kept included' }),
  payoutsPending: Type.Integer(),
  refundsPending: Type.Integer(),
  disputesOpen: Type.Integer(),
  flaggedBids: Type.Integer(),
  ticketsOpen: Type.Integer(),
});
export type AdminOverview = Static<typeof AdminOverviewSchema>;

/** One open dispute: the order with its timeline, and the checklist beside the frozen dossier. */
export const DisputeCaseSchema = Type.Interface(
  [OrderWithEventsSchema],
  {
    dossier: Type.Union([DisputeDossierSchema, Type.Null()], { description: 'Null for an order created before dossiers were frozen' }),
  },
  { title: 'DisputeCase' },
);
export type DisputeCase = Static<typeof DisputeCaseSchema>;

/** `GET /api/admin/disputes`: open disputes, oldest first, each with its timeline and dossier. */
export const DisputesSchema = Type.Object({ orders: Type.Array(DisputeCaseSchema) });
export type Disputes = Static<typeof DisputesSchema>;

export const AdminUserSchema = Type.Object(
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
export type AdminUser = Static<typeof AdminUserSchema>;

export const AdminUsersSchema = Type.Object({ users: Type.Array(AdminUserSchema) });
export type AdminUsers = Static<typeof AdminUsersSchema>;

export const LEDGER_KINDS = ['charge', 'payout', 'refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    orderId: Type.Integer(),
    kind: StringEnum(LEDGER_KINDS),
    amount: Type.Integer({ description: 'Whole US dollars' }),
    reference: Type.Union([Type.String(), Type.Null()], { description: "The payment provider's reference, once settled" }),
    status: StringEnum(['pending', 'settled'] as const),
    at: IsoDateTime,
  },
  { title: 'LedgerEntry' },
);
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

export const LedgerTotalsSchema = Type.Object({
  charged: Type.Integer(),
  paidOut: Type.Integer({ description: 'Payouts settled' }),
  refunded: Type.Integer({ description: 'Refunds settled' }),
  held: Type.Integer({ description: 'Still with us: in escrow, disbursements not yet settled, and the escrow fees kept' }),
  feesKept: Type.Integer({ description: 'Extension: the part of held that is escrow fees earned' }),
});
export type LedgerTotals = Static<typeof LedgerTotalsSchema>;

/** `GET /api/admin/ledger`: charged = paidOut + refunded + held. */
export const LedgerSchema = Type.Object({ entries: Type.Array(LedgerEntrySchema), totals: LedgerTotalsSchema });
export type Ledger = Static<typeof LedgerSchema>;

/** `GET /api/admin/ledger.csv`: a header row, then one row per entry. */
export const LedgerCsvSchema = Type.String({ description: 'text/csv' });

export const AdminTicketSchema = Type.Object(
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
export type AdminTicket = Static<typeof AdminTicketSchema>;

export const AdminTicketsSchema = Type.Object({ tickets: Type.Array(AdminTicketSchema) });
export type AdminTickets = Static<typeof AdminTicketsSchema>;

/** A bid by an account that signed in from the same client address as the car's seller. */
export const FlaggedBidSchema = Type.Interface([BidSchema], { reason: Type.String() }, { title: 'FlaggedBid' });
export type FlaggedBid = Static<typeof FlaggedBidSchema>;

export const FlaggedBidsSchema = Type.Object({ bids: Type.Array(FlaggedBidSchema) });
export type FlaggedBids = Static<typeof FlaggedBidsSchema>;

export const AuditEntrySchema = Type.Object(
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
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditPageSchema = Type.Object({ entries: Type.Array(AuditEntrySchema) });
export type AuditPage = Static<typeof AuditPageSchema>;

/** What hiding or restoring a listing answers: the car's status now. */
export const ListingModerationSchema = Type.Object({ id: Type.Integer(), status: StringEnum(CAR_STATUSES) });
export type ListingModeration = Static<typeof ListingModerationSchema>;
