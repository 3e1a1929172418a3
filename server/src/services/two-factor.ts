import { randomInt } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Database, Executor } from '../../../db/client.ts';
import { recoveryCodes, sessions, users } from '../../../db/schema/index.ts';
import { RECOVERY_CODE_COUNT, TOTP } from '@common/back-office.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError, conflict, notFound } from '../lib/errors.ts';
import { hashToken } from '../lib/tokens.ts';
import type { TotpSetup } from '@common/schemas/auth.ts';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';

/** Codes are accepted one step either side of now, for clocks that drift a little. */
const WINDOW_STEPS = 1;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Time-based one-time codes (RFC 6238) with `otpauth`, and single-use recovery codes. The secret
 * is confirmed with a code before sign-in asks for it; a code accepted at sign-in is never
 * accepted again (the last accepted step is stored and only a later one passes).
 */
export class TwoFactor {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** A new secret to show (QR and text); sign-in does not ask for it until it is confirmed. */
  async setup(userId: number): Promise<TotpSetup> {
    const [user] = await this.db.select({ email: users.email, totpSecret: users.totpSecret }).from(users).where(eq(users.id, userId));
    if (!user) throw notFound('User not found');
    if (user.totpSecret) throw conflict(ErrorCode.TOTP_ALREADY_ENABLED);
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    await this.db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
    return { secret, otpauthUrl: totpFor(secret, user.email).toString() };
  }

  /**
   * Turns two-factor sign-in on once a code from the app matches the pending secret. Returns ten
   * recovery codes, shown once and stored only as hashes. The session that confirmed counts as
   * signed in with the second factor.
   */
  async confirm(userId: number, sessionId: string, code: string): Promise<string[]> {
    const [user] = await this.db
      .select({ email: users.email, totpSecret: users.totpSecret, pending: users.totpPendingSecret })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) throw notFound('User not found');
    if (user.totpSecret) throw conflict(ErrorCode.TOTP_ALREADY_ENABLED);
    if (!user.pending) throw conflict(ErrorCode.TOTP_NOT_STARTED);
    if (this.matchingStep(user.pending, user.email, code) === null) {
      throw new AppError(ErrorCode.INVALID_TOTP, undefined, [{ field: 'code', message: ERROR_CODES.INVALID_TOTP.message }]);
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.db.transaction(async (tx) => {
      // Only the pending secret that was checked becomes the secret, once.
      const [enabled] = await tx
        .update(users)
        .set({ totpSecret: user.pending, totpPendingSecret: null, totpLastStep: null, updatedAt: this.clock.now() })
        .where(and(eq(users.id, userId), isNull(users.totpSecret), eq(users.totpPendingSecret, user.pending!)))
        .returning({ id: users.id });
      if (!enabled) throw conflict(ErrorCode.TOTP_ALREADY_ENABLED);
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })));
      await tx.update(sessions).set({ secondFactorAt: this.clock.now() }).where(eq(sessions.id, sessionId));
    });
    return codes;
  }

  /**
   * Whether `code` signs this user in: a current TOTP code not used before, or an unused recovery
   * code (spent by this call). Runs in the sign-in's transaction.
   */
  async accept(tx: Executor, user: { id: number; email: string; totpSecret: string }, code: string): Promise<boolean> {
    const compact = code.replace(/[\s-]/g, '').toLowerCase();
    if (/^\d{6}$/.test(compact)) {
      const step = this.matchingStep(user.totpSecret, user.email, compact);
      if (step === null) return false;
      const [taken] = await tx
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return Boolean(taken);
    }
    const [spent] = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, hashRecoveryCode(compact)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return Boolean(spent);
  }

  /** The 30-second step `code` belongs to, or null when it matches none near now. */
  private matchingStep(secret: string, email: string, code: string): number | null {
    const timestamp = this.clock.now().getTime();
    const delta = totpFor(secret, email).validate({ token: code.replace(/\s/g, ''), timestamp, window: WINDOW_STEPS });
    return delta === null ? null : Math.floor(timestamp / 1000 / TOTP.periodSeconds) + delta;
  }
}

function totpFor(secret: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP.issuer,
    label: email,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** Ten characters in two groups (`k7m2p-q9x4r`): about 49 bits, from an alphabet without look-alikes. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function hashRecoveryCode(code: string): string {
  return hashToken(code.replace(/[\s-]/g, '').toLowerCase());
}
