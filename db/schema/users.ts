import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, USER_ROLES, type AuditAction, type AuditTargetType, type UserRole } from '@common/back-office.ts';
import { identity, reference, timestamptz, timestampNow } from './columns.ts';
import { quoted } from './sql-lists.ts';

export const users = pgTable(
  'users',
  {
    id: identity(),
    /** Always stored lower-cased: addresses are case-insensitive. */
    email: text().notNull().unique(),
    name: text().notNull(),
    /** Null for accounts that cannot sign in with a password (e.g. imported reviewers). */
    passwordHash: text(),
    emailVerified: boolean().notNull().default(false),
    avatar: text(),
    bio: text(),
    phone: text(),
    location: text(),
    role: text().$type<UserRole>().notNull().default('user'),
    /** Set while an operator has suspended the account: no sign-in, no sessions, no listings. */
    suspendedAt: timestamptz(),
    /** Base32 TOTP secret, set once enrolment is confirmed (two-factor sign-in is then on). */
    totpSecret: text(),
    /** A secret shown for enrolment and not yet confirmed with a code. */
    totpPendingSecret: text(),
    /** The 30-second step of the last code accepted at sign-in: a code is never accepted twice (RFC 6238 §5.2). */
    totpLastStep: integer(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('users_role', sql`${t.role} in (${quoted(USER_ROLES)})`),
  ],
);

/** Single-use codes that stand in for the authenticator app; stored as hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    codeHash: text().notNull(),
    usedAt: timestamptz(),
    createdAt: timestampNow(),
  },
  (t) => [unique('recovery_codes_user_code').on(t.userId, t.codeHash)],
);

/** One signed-in device. Access tokens carry the session id so revoking it ends them at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: reference(() => users.id, 'cascade'),
    createdAt: timestampNow(),
    lastUsedAt: timestampNow(),
    expiresAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
    revokedReason: text(),
    userAgent: text(),
    ipAddress: text(),
    /** When this sign-in was confirmed with a second factor (a TOTP or recovery code). */
    secondFactorAt: timestamptz(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_ip_idx').on(t.ipAddress, t.createdAt)],
);

/** Opaque refresh tokens, stored as hashes; each is spent by one rotation. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: identity(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: timestampNow(),
    spentAt: timestamptz(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const EMAIL_TOKEN_KINDS = ['verify-email', 'reset-password'] as const;
export type EmailTokenKind = (typeof EMAIL_TOKEN_KINDS)[number];

/** Single-use links sent by email, stored as hashes. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: identity(),
    userId: reference(() => users.id, 'cascade'),
    kind: text().$type<EmailTokenKind>().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
    createdAt: timestampNow(),
  },
  (t) => [
    index('email_tokens_user_kind_idx').on(t.userId, t.kind),
    check('email_tokens_kind', sql`${t.kind} in (${quoted(EMAIL_TOKEN_KINDS)})`),
  ],
);

/**
 * What operators (and the operator commands) did, written in the transaction of the action.
 * Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. Each entry's hash covers the
 * previous entry's hash and its own fields (see server/src/services/audit.ts), so a row changed
 * behind the application's back breaks the chain. `before`/`after` are canonical JSON text, so
 * the hashed bytes are exactly the stored ones.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: identity(),
    at: timestamptz().notNull(),
    /** Null for the command line. Not a foreign key: a deleted user must not rewrite history. */
    actorUserId: integer(),
    /** The actor's email at the time, or `cli`. */
    actorLabel: text().notNull(),
    action: text().$type<AuditAction>().notNull(),
    targetType: text().$type<AuditTargetType>().notNull(),
    targetId: integer().notNull(),
    reason: text().notNull(),
    before: text().notNull(),
    after: text().notNull(),
    prevHash: text().notNull(),
    hash: text().notNull().unique(),
  },
  (t) => [
    check('audit_log_action', sql`${t.action} in (${quoted(AUDIT_ACTIONS)})`),
    check('audit_log_target_type', sql`${t.targetType} in (${quoted(AUDIT_TARGET_TYPES)})`),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    index('audit_log_actor_idx').on(t.actorUserId, t.id),
  ],
);
