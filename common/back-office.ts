/**
 * The operator back office's rules: who may do what, and the words each record carries. The
 * database's checks, the server's guards and the console all read these.
 */

export const USER_ROLES = ['user', 'operator', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** Roles that reach the console (and must sign in with a second factor). */
export const STAFF_ROLES: readonly UserRole[] = ['operator', 'admin'];
export const isStaff = (role: UserRole): boolean => STAFF_ROLES.includes(role);

export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Every write in the console explains itself; the reason is kept in the audit log. */
export const REASON_MAX_LENGTH = 500;
export const TICKET_REPLY_MAX_LENGTH = 5_000;

/** RFC 6238 as authenticator apps expect it by default. */
export const TOTP = { algorithm: 'SHA1', digits: 6, periodSeconds: 30, issuer: 'LuxeMotors' } as const;
export const RECOVERY_CODE_COUNT = 10;

/** A bid is flagged when its bidder signed in from an address the car's seller used within this many days. */
export const SHARED_ADDRESS_WINDOW_DAYS = 30;

/** What the audit log says was done, and to what. */
export const AUDIT_ACTIONS = [
  'dispute.resolve',
  'user.suspend',
  'user.unsuspend',
  'user.verify-seller',
  'user.role',
  'car.hide',
  'car.restore',
  'ticket.reply',
  'chat.approve',
  'chat.remove',
  'user.mute',
  'user.unmute',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_TARGET_TYPES = ['order', 'user', 'car', 'ticket', 'chat_message'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
