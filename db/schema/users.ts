import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { quoted } from './sql-lists.ts';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
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
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
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
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    spentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const EMAIL_TOKEN_KINDS = ['verify-email', 'reset-password'] as const;
export type EmailTokenKind = (typeof EMAIL_TOKEN_KINDS)[number];

/** Single-use links sent by email, stored as hashes. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().$type<EmailTokenKind>().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_tokens_user_kind_idx').on(t.userId, t.kind),
    check('email_tokens_kind', sql`${t.kind} in (${quoted(EMAIL_TOKEN_KINDS)})`),
  ],
);
