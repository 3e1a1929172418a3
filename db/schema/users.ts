import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_name_length', sql`char_length(${t.name}) between 1 and 100`),
  ],
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
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
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
