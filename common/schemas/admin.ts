import { Type } from 'typebox';
import { AUDIT_ACTIONS, AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, AUDIT_TARGET_TYPES, REASON_MAX_LENGTH, TICKET_REPLY_MAX_LENGTH, TICKET_STATUSES, USER_ROLES } from '../back-office.ts';
import { OPERATOR_ACTIONS } from '../order-lifecycle.ts';
import { IsoDateTime, MAX_ID, StringEnum, Text, messages, strict } from './kit.ts';

/** Bodies and queries of the operator back office (`/api/admin/*`) and of two-factor enrolment. */

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
