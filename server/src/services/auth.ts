import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../../db/client.ts';
import { emailTokens, refreshTokens, sessions, users, type EmailTokenKind } from '../../../db/schema/index.ts';
import { PASSWORD_RULES_MESSAGE, unmetPasswordRules } from '@common/password-rules.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, forbidden, unauthorized, validationFailed } from '../lib/errors.ts';
import type { EventBus } from '../lib/events.ts';
import { hashToken, randomToken } from '../lib/tokens.ts';
import type { WindowCounter } from '../lib/window-counter.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import type { AccessTokens } from './access-tokens.ts';
import { alreadyRegisteredEmail, passwordChangedEmail, passwordResetEmail, verificationEmail } from './mail-templates.ts';
import { burnVerificationTime, hashPassword, verifyPassword } from '../lib/passwords.ts';
import { toPublicUser, type PublicUser } from './users.ts';
import { PAGES, resetPasswordPath, verifyEmailPath } from '@common/paths.ts';
import type { Credentials, LoginResult, Registration, SessionTokens } from '@common/schemas/auth.ts';
import type { UserRole } from '@common/back-office.ts';
import type { TwoFactor } from './two-factor.ts';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';

const HOUR_MS = 3_600_000;
const EMAIL_TOKEN_TTL_MS: Record<EmailTokenKind, number> = {
  'verify-email': 24 * HOUR_MS,
  'reset-password': HOUR_MS,
};
/** A session lives this long after its last refresh. */
const SESSION_TTL_MS = 30 * 24 * HOUR_MS;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const MESSAGES = {
  registered: 'Registration successful. Please check your email to verify your account.',
  verified: 'Email verified successfully. You can now sign in.',
  resent: 'If an account with that email needs verification, a new verification email has been sent.',
  forgot: 'If an account with that email exists, a password reset link has been sent.',
  reset: 'Your password has been reset. Please sign in again on all your devices.',
  loggedOut: 'Logged out',
  noVerificationToken: 'No verification token provided',
  badVerificationToken: 'Invalid or expired verification token',
  missingResetToken: 'Invalid or missing reset token',
  badResetToken: 'Invalid reset token',
  badRefreshToken: 'Invalid or expired refresh token',
  tooManyAttempts: 'Too many failed sign-in attempts. Please try again later.',
  totpRequired: 'Enter the code from your authenticator app (or a recovery code).',
} as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface AuthServiceDeps {
  db: Database;
  mailer: Mailer;
  events: EventBus;
  clock: Clock;
  accessTokens: AccessTokens;
  twoFactor: TwoFactor;
  loginFailures: WindowCounter;
  appUrl: string;
  loginFailureLimit: number;
  loginFailureWindowMs: number;
}


export interface ActiveSession {
  sessionId: string;
  userId: number;
  name: string;
  email: string;
  emailVerified: boolean;
  role: UserRole;
  /** Signed in (or enrolled) with a TOTP or recovery code. */
  secondFactor: boolean;
}

export class AuthService {
  /** Runs on every authenticated request, so it is built once. */
  private readonly activeSessionQuery;

  constructor(private readonly deps: AuthServiceDeps) {
    this.activeSessionQuery = deps.db
      .select({
        userId: users.id,
        name: users.name,
        email: users.email,
        emailVerified: users.emailVerified,
        role: users.role,
        secondFactorAt: sessions.secondFactorAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          eq(sessions.userId, sql.placeholder('userId')),
          isNull(sessions.revokedAt),
          isNull(users.suspendedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      )
      .prepare('active_session');
  }

  private get db() {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Answers the same whether or not the address has an account; the address owner is told by email. */
  async register(input: Registration): Promise<void> {
    const name = input.name.trim();
    const email = normalizeEmail(input.email);
    if (!name) throw validationFailed([{ field: 'name', message: 'Full name is required' }]);
    assertPasswordRules(input.password, 'password');

    const passwordHash = await hashPassword(input.password);
    const [created] = await this.db
      .insert(users)
      .values({ name, email, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (created) {
      await this.sendVerification(created.id, created.email, created.name);
      return;
    }
    const [existing] = await this.db.select().from(users).where(eq(users.email, email));
    if (!existing) return;
    if (existing.emailVerified) {
      await this.deps.mailer.send(
        alreadyRegisteredEmail(existing.email, existing.name, `${this.deps.appUrl}${PAGES.login}`, `${this.deps.appUrl}${PAGES.forgotPassword}`),
      );
    } else {
      // The owner probably lost the first email; a fresh link is the useful answer.
      await this.sendVerification(existing.id, existing.email, existing.name);
    }
  }

  async verifyEmail(token: string | undefined): Promise<PublicUser> {
    if (!token?.trim()) throw new AppError(ErrorCode.INVALID_TOKEN, MESSAGES.noVerificationToken);
    return this.db.transaction(async (tx) => {
      const userId = await this.consumeEmailToken(tx, 'verify-email', token);
      if (userId === null) throw new AppError(ErrorCode.INVALID_TOKEN, MESSAGES.badVerificationToken);
      const [user] = await tx.update(users).set({ emailVerified: true, updatedAt: this.now() }).where(eq(users.id, userId)).returning();
      return toPublicUser(user!);
    });
  }

  async resendVerification(emailInput: string): Promise<void> {
    const [user] = await this.db.select().from(users).where(eq(users.email, normalizeEmail(emailInput)));
    if (user && !user.emailVerified) await this.sendVerification(user.id, user.email, user.name);
  }

  async login(input: Credentials & { userAgent?: string; ipAddress?: string }): Promise<LoginResult> {
    const email = normalizeEmail(input.email);
    const failureKey = `login-failures:${email}`;
    const failures = await this.deps.loginFailures.peek(failureKey);
    if (failures.count >= this.deps.loginFailureLimit) {
      throw new AppError(ErrorCode.RATE_LIMITED, MESSAGES.tooManyAttempts, { retryAfter: Math.ceil(failures.resetInMs / 1000) });
    }
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    const passwordMatches = user ? await verifyPassword(user.passwordHash, input.password) : (await burnVerificationTime(input.password), false);
    if (!user || !passwordMatches) {
      await this.deps.loginFailures.increment(failureKey, this.deps.loginFailureWindowMs);
      throw unauthorized(ERROR_CODES.INVALID_CREDENTIALS.message);
    }
    if (user.suspendedAt) throw forbidden(ErrorCode.ACCOUNT_SUSPENDED);
    if (!user.emailVerified) throw forbidden(ErrorCode.EMAIL_NOT_VERIFIED);
    const { totpSecret } = user;
    if (totpSecret && !input.totp?.trim()) throw new AppError(ErrorCode.TOTP_REQUIRED, MESSAGES.totpRequired);

    const refreshToken = randomToken();
    const sessionId = await this.db.transaction(async (tx) => {
      // A wrong second factor is a failed sign-in like a wrong password, and opens no session.
      if (totpSecret && !(await this.deps.twoFactor.accept(tx, { id: user.id, email: user.email, totpSecret }, input.totp!))) return null;
      const [session] = await tx
        .insert(sessions)
        .values({
          userId: user.id,
          expiresAt: new Date(this.now().getTime() + SESSION_TTL_MS),
          userAgent: input.userAgent?.slice(0, 300) ?? null,
          ipAddress: input.ipAddress ?? null,
          secondFactorAt: totpSecret ? this.now() : null,
        })
        .returning({ id: sessions.id });
      await tx.insert(refreshTokens).values({ sessionId: session!.id, tokenHash: hashToken(refreshToken) });
      return session!.id;
    });
    if (!sessionId) {
      await this.deps.loginFailures.increment(failureKey, this.deps.loginFailureWindowMs);
      throw new AppError(ErrorCode.INVALID_CREDENTIALS);
    }
    await this.deps.loginFailures.reset(failureKey);
    const accessToken = await this.deps.accessTokens.sign({ userId: user.id, sessionId });
    return { accessToken, refreshToken, user: toPublicUser(user) };
  }

  /**
   * Spends `refreshToken` and issues the next pair. A token that was already spent means two
   * parties hold it, so the whole session is revoked.
   */
  async refresh(refreshToken: string): Promise<SessionTokens> {
    const now = this.now();
    const outcome = await this.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ tokenId: refreshTokens.id, spentAt: refreshTokens.spentAt, session: sessions })
        .from(refreshTokens)
        .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
        .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
        .for('no key update', { of: sessions });
      if (!found || found.session.revokedAt || found.session.expiresAt <= now) return { kind: 'invalid' as const };
      if (found.spentAt) {
        await tx.update(sessions).set({ revokedAt: now, revokedReason: 'refresh-token-reuse' }).where(eq(sessions.id, found.session.id));
        return { kind: 'reused' as const, session: found.session };
      }
      await tx.update(refreshTokens).set({ spentAt: now }).where(eq(refreshTokens.id, found.tokenId));
      const next = randomToken();
      await tx.insert(refreshTokens).values({ sessionId: found.session.id, tokenHash: hashToken(next) });
      await tx
        .update(sessions)
        .set({ lastUsedAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
        .where(eq(sessions.id, found.session.id));
      return { kind: 'rotated' as const, session: found.session, next };
    });
    if (outcome.kind === 'reused') {
      this.deps.events.publish('session.revoked', { sessionId: outcome.session.id, userId: outcome.session.userId, reason: 'refresh-token-reuse' });
    }
    if (outcome.kind !== 'rotated') throw unauthorized(MESSAGES.badRefreshToken);
    const accessToken = await this.deps.accessTokens.sign({ userId: outcome.session.userId, sessionId: outcome.session.id });
    return { accessToken, refreshToken: outcome.next };
  }

  /** Ends the session the refresh token belongs to (spent or not). Unknown tokens are fine: logout is idempotent. */
  async logout(refreshToken: string | undefined, sessionIdFromAccessToken?: string): Promise<void> {
    let sessionId = sessionIdFromAccessToken;
    if (refreshToken) {
      const [found] = await this.db
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)));
      sessionId = found?.sessionId ?? sessionId;
    }
    if (!sessionId || !UUID.test(sessionId)) return;
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: this.now(), revokedReason: 'logout' })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userId: sessions.userId });
    for (const session of revoked) {
      this.deps.events.publish('session.revoked', { sessionId: session.id, userId: session.userId, reason: 'logout' });
    }
  }

  async forgotPassword(emailInput: string): Promise<void> {
    const [user] = await this.db.select().from(users).where(eq(users.email, normalizeEmail(emailInput)));
    if (!user || !user.passwordHash) return;
    await this.issueEmailToken(user.id, 'reset-password', (token) => passwordResetEmail(user.email, user.name, `${this.deps.appUrl}${resetPasswordPath(token)}`));
  }

  /** Sets a new password and signs the user out everywhere. */
  async resetPassword(token: string | undefined, newPassword: string | undefined): Promise<void> {
    if (!token?.trim()) throw new AppError(ErrorCode.INVALID_TOKEN, MESSAGES.missingResetToken);
    assertPasswordRules(newPassword ?? '', 'newPassword');
    const passwordHash = await hashPassword(newPassword!);
    const now = this.now();
    const { user, revoked } = await this.db.transaction(async (tx) => {
      const userId = await this.consumeEmailToken(tx, 'reset-password', token);
      if (userId === null) throw new AppError(ErrorCode.INVALID_TOKEN, MESSAGES.badResetToken);
      // Following the emailed link proves the address, so it counts as verified too.
      const [user] = await tx
        .update(users)
        .set({ passwordHash, emailVerified: true, updatedAt: now })
        .where(eq(users.id, userId))
        .returning();
      const revoked = await endAllSessions(tx, userId, 'password-reset', now);
      await this.deps.mailer.send(passwordChangedEmail(user!.email, user!.name, `${this.deps.appUrl}${PAGES.forgotPassword}`), tx);
      return { user: user!, revoked };
    });
    this.deps.mailer.wake();
    await this.deps.loginFailures.reset(`login-failures:${user.email}`);
    for (const session of revoked) {
      this.deps.events.publish('session.revoked', { sessionId: session.id, userId: user.id, reason: 'password-reset' });
    }
  }

  /** The session behind an access token, if it is still active; checked on every authenticated request. */
  async activeSession(sessionId: string, userId: number): Promise<ActiveSession | null> {
    if (!UUID.test(sessionId)) return null;
    const [row] = await this.activeSessionQuery.execute({ sessionId, userId, now: this.now().toISOString() });
    if (!row) return null;
    const { secondFactorAt, ...user } = row;
    return { sessionId, ...user, secondFactor: secondFactorAt !== null };
  }

  /** Which of `sessionIds` are still signed in (not revoked, not expired). */
  async activeSessionIds(sessionIds: string[]): Promise<Set<string>> {
    const wellFormed = sessionIds.filter((id) => UUID.test(id));
    if (wellFormed.length === 0) return new Set();
    const rows = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.id, wellFormed), isNull(sessions.revokedAt), gt(sessions.expiresAt, this.now())));
    return new Set(rows.map((row) => row.id));
  }

  private async sendVerification(userId: number, email: string, name: string): Promise<void> {
    await this.issueEmailToken(userId, 'verify-email', (token) => verificationEmail(email, name, `${this.deps.appUrl}${verifyEmailPath(token)}`));
  }

  /**
   * A new token invalidates the user's older unused ones of the same kind. The mail carrying it
   * is queued in the same transaction, so a token never exists without its mail.
   */
  private async issueEmailToken(userId: number, kind: EmailTokenKind, mailFor: (token: string) => OutgoingMail): Promise<void> {
    const token = randomToken();
    const now = this.now();
    await this.db.transaction(async (tx) => {
      await tx
        .update(emailTokens)
        .set({ usedAt: now })
        .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
      await tx.insert(emailTokens).values({
        userId,
        kind,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[kind]),
        createdAt: now,
      });
      await this.deps.mailer.send(mailFor(token), tx);
    });
    this.deps.mailer.wake();
  }

  /** Marks the token used in the same statement that checks it, so it works exactly once. */
  private async consumeEmailToken(tx: Transaction, kind: EmailTokenKind, token: string): Promise<number | null> {
    const now = this.now();
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailTokens.tokenHash, hashToken(token.trim())),
          eq(emailTokens.kind, kind),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, now),
        ),
      )
      .returning({ userId: emailTokens.userId });
    return row?.userId ?? null;
  }
}

/**
 * Signs the user out everywhere, in the caller's transaction (a password reset, a suspension, a
 * role change). The caller publishes `session.revoked` for each once it has committed.
 */
export async function endAllSessions(tx: Executor, userId: number, reason: string, now: Date): Promise<{ id: string }[]> {
  return tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
}

function assertPasswordRules(password: string, field: string): void {
  const unmet = unmetPasswordRules(password);
  if (unmet.length > 0) {
    throw validationFailed(
      unmet.map((rule) => ({ field, message: rule.label })),
      PASSWORD_RULES_MESSAGE,
    );
  }
}
