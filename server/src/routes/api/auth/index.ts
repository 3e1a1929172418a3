import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  EmailOnlySchema,
  LoginResultSchema,
  LoginSchema,
  LogoutSchema,
  MessageResultSchema,
  RecoveryCodesSchema,
  RefreshSchema,
  RegisterSchema,
  ResetPasswordSchema,
  SessionTokensSchema,
  TotpConfirmSchema,
  TotpSetupSchema,
  VerifyEmailResultSchema,
  VerifyEmailSchema,
} from '@common/schemas/auth.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { MESSAGES, normalizeEmail } from '../../../services/auth.ts';

const HOUR_MS = 3_600_000;
const Message = Envelope(MessageResultSchema);

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = app.authService;
  const limits = app.config.rateLimits;
  const byAddress = (request: FastifyRequest) => request.ip;
  const byEmail = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? normalizeEmail(email) : undefined;
  };
  const perEmail = app.limit({ name: 'emails-per-address', max: limits.emailsPerAddressPerHour, timeWindowMs: HOUR_MS, key: byEmail });

  app.post(
    '/register',
    {
      preHandler: [app.limit({ name: 'register-per-ip', max: limits.registerPerAddressPerHour, timeWindowMs: HOUR_MS, key: byAddress }), perEmail],
      schema: {
        tags: ['auth'],
        summary: 'Create an account; a verification email is sent. Answers the same for addresses that already have an account.',
        body: RegisterSchema,
        response: { 201: Message },
      },
    },
    async (request, reply) => {
      await auth.register(request.body);
      return reply.status(201).send({ data: { message: MESSAGES.registered } });
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm an email address with the token from the emailed link',
        body: VerifyEmailSchema,
        response: { 200: Envelope(VerifyEmailResultSchema), ...errorResponses(ErrorCode.INVALID_TOKEN) },
      },
    },
    async (request) => {
      const user = await auth.verifyEmail(request.body.token);
      return { data: { message: MESSAGES.verified, user } };
    },
  );

  /**
   * Sends a link by email (verification, password reset). Answers the same whether or not the
   * account exists, and both share one per-address budget.
   */
  const emailALink = (url: string, summary: string, send: (email: string) => Promise<void>, message: string) =>
    app.post(
      url,
      {
        preHandler: [app.limit({ name: 'recovery-per-ip', max: limits.recoveryPerAddressPerHour, timeWindowMs: HOUR_MS, key: byAddress }), perEmail],
        schema: { tags: ['auth'], summary: `${summary}; answers the same whether or not the account exists`, body: EmailOnlySchema, response: { 200: Message } },
      },
      async (request) => {
        await send(request.body.email);
        return { data: { message } };
      },
    );
  emailALink('/resend-verification', 'Send a new verification link', (email) => auth.resendVerification(email), MESSAGES.resent);
  emailALink('/forgot-password', 'Email a password reset link', (email) => auth.forgotPassword(email), MESSAGES.forgot);

  app.post(
    '/login',
    {
      preHandler: app.limit({ name: 'login-per-ip', max: limits.loginPerAddressPerHour, timeWindowMs: HOUR_MS, key: byAddress }),
      schema: {
        tags: ['auth'],
        summary:
          'Sign in. 401 for a wrong password or unknown email alike; 403 EMAIL_NOT_VERIFIED or ACCOUNT_SUSPENDED only after a correct password. With two-factor sign-in on: 401 TOTP_REQUIRED without `totp`, 401 INVALID_CREDENTIALS for a wrong or used code (counted like a wrong password).',
        body: LoginSchema,
        response: {
          200: Envelope(LoginResultSchema),
          // UNAUTHORIZED for a wrong password or unknown email; RATE_LIMITED also once the account locks.
          ...errorResponses(
            ErrorCode.UNAUTHORIZED,
            ErrorCode.INVALID_CREDENTIALS,
            ErrorCode.TOTP_REQUIRED,
            ErrorCode.ACCOUNT_SUSPENDED,
            ErrorCode.EMAIL_NOT_VERIFIED,
            ErrorCode.RATE_LIMITED,
          ),
        },
      },
    },
    async (request) => {
      const result = await auth.login({ ...request.body, userAgent: request.headers['user-agent'], ipAddress: request.ip });
      return { data: result };
    },
  );

  app.post(
    '/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new pair; the old one is spent, and reusing a spent one ends the session',
        body: RefreshSchema,
        response: { 200: Envelope(SessionTokensSchema), ...errorResponses(ErrorCode.UNAUTHORIZED) },
      },
    },
    async (request) => ({ data: await auth.refresh(request.body.refreshToken) }),
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: "End the refresh token's session at once (its access tokens stop working too); idempotent",
        body: LogoutSchema,
        response: { 200: Message },
      },
    },
    async (request) => {
      // A stale or revoked access token must not stop a logout, so identification errors are ignored.
      const session = await app.identify(request).catch(() => null);
      await auth.logout(request.body?.refreshToken, session?.sessionId);
      return { data: { message: MESSAGES.loggedOut } };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed token; every session of the user is revoked',
        body: ResetPasswordSchema,
        response: { 200: Message, ...errorResponses(ErrorCode.INVALID_TOKEN) },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.newPassword);
      return { data: { message: MESSAGES.reset } };
    },
  );

  app.post(
    '/totp/setup',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Start two-factor sign-in: a new base32 secret and its otpauth:// URL (for the QR code). 409 TOTP_ALREADY_ENABLED once it is on.',
        security: [{ bearerAuth: [] }],
        response: { 200: Envelope(TotpSetupSchema), ...errorResponses(ErrorCode.TOTP_ALREADY_ENABLED) },
      },
    },
    async (request) => ({ data: await app.twoFactor.setup(request.session!.userId) }),
  );

  app.post(
    '/totp/confirm',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          'Turn two-factor sign-in on with a current code; answers ten single-use recovery codes, shown once. This session counts as signed in with the second factor. 400 INVALID_TOTP for a wrong code; 409 TOTP_NOT_STARTED before set-up.',
        security: [{ bearerAuth: [] }],
        body: TotpConfirmSchema,
        response: { 200: Envelope(RecoveryCodesSchema), ...errorResponses(ErrorCode.INVALID_TOTP, ErrorCode.TOTP_ALREADY_ENABLED, ErrorCode.TOTP_NOT_STARTED) },
      },
    },
    async (request) => ({ data: { recoveryCodes: await app.twoFactor.confirm(request.session!.userId, request.session!.sessionId, request.body.code) } }),
  );
};

export default authRoutes;
