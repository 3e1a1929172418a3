import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { FallbackWindowCounter, MemoryWindowCounter, RedisWindowCounter } from '../lib/window-counter.ts';
import { AccessTokens } from '../services/access-tokens.ts';
import { AuthService, type ActiveSession } from '../services/auth.ts';
import { TwoFactor } from '../services/two-factor.ts';
import { isStaff } from '@common/back-office.ts';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';

/**
 * Who is calling. `authenticate` requires a valid access token for a session that is still
 * active — checked on every request, so logout takes effect at once. `requireVerifiedUser` is
 * the guard every write that needs a verified email uses.
 */
export default fp(
  async function auth(app: FastifyInstance) {
    const { config } = app;
    const accessTokens = new AccessTokens(config.jwtSecret, app.clock);
    const twoFactor = new TwoFactor(app.db, app.clock);
    const authService = new AuthService({
      twoFactor,
      db: app.db,
      mailer: app.mailer,
      events: app.events,
      clock: app.clock,
      accessTokens,
      loginFailures: app.redis
        ? new FallbackWindowCounter(new RedisWindowCounter(app.redis, `${config.redisPrefix}:window:`), new MemoryWindowCounter(app.clock), (err) =>
            app.log.warn({ err }, 'sign-in failures counted in memory: Redis unavailable'),
          )
        : new MemoryWindowCounter(app.clock),
      appUrl: config.appUrl,
      loginFailureLimit: config.rateLimits.loginFailuresPerAccount,
      loginFailureWindowMs: config.rateLimits.loginFailureWindowMinutes * 60_000,
    });
    app.decorate('accessTokens', accessTokens);
    app.decorate('authService', authService);
    app.decorate('twoFactor', twoFactor);
    app.decorateRequest('session', null);

    /** The active session behind a bearer token; null without a token; throws for a bad one. */
    const identify = async (request: FastifyRequest): Promise<ActiveSession | null> => {
      const header = request.headers.authorization;
      if (!header) return null;
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const claims = match ? await accessTokens.verify(match[1]!) : null;
      const session = claims ? await authService.activeSession(claims.sessionId, claims.userId) : null;
      if (!session) throw unauthorized('Invalid or expired access token');
      return session;
    };

    // Each guard declares what it answers, so every route behind it lists those codes.
    const authenticate = app.declareErrors<preHandlerAsyncHookHandler>(async (request) => {
      const session = await identify(request);
      if (!session) throw unauthorized();
      request.session = session;
    }, [ErrorCode.UNAUTHORIZED]);

    app.decorate('identify', identify);
    app.decorate('authenticate', authenticate);
    app.decorate(
      'optionalAuthentication',
      app.declareErrors<preHandlerAsyncHookHandler>(async (request) => {
        request.session = await identify(request);
      }, [ErrorCode.UNAUTHORIZED]),
    );
    app.decorate('requireVerifiedUser', [
      authenticate,
      app.declareErrors<preHandlerAsyncHookHandler>(async (request) => {
        if (!request.session?.emailVerified) {
          throw forbidden(ErrorCode.EMAIL_NOT_VERIFIED, `${ERROR_CODES.EMAIL_NOT_VERIFIED.message}. Verify your email to continue.`);
        }
      }, [ErrorCode.EMAIL_NOT_VERIFIED]),
    ]);

    /** The console's guard: staff role first (403 NOT_ALLOWED), then a second-factor session (403 TOTP_REQUIRED). */
    const requireStaff: preHandlerAsyncHookHandler[] = [
      authenticate,
      app.declareErrors<preHandlerAsyncHookHandler>(
        async (request) => {
          const session = request.session!;
          if (!isStaff(session.role)) throw forbidden(ErrorCode.NOT_ALLOWED, 'This needs an operator account.');
          if (!session.secondFactor) {
            throw forbidden(ErrorCode.TOTP_REQUIRED, 'The console needs two-factor sign-in: set it up in Settings, then sign in again with a code.');
          }
        },
        [ErrorCode.NOT_ALLOWED, { code: ErrorCode.TOTP_REQUIRED, status: 403 }],
      ),
    ];
    app.decorate('requireStaff', requireStaff);
  },
  { name: 'auth', dependencies: ['database', 'mailer', 'redis', 'error-declarations'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    authService: AuthService;
    identify(request: FastifyRequest): Promise<ActiveSession | null>;
    authenticate: preHandlerAsyncHookHandler;
    optionalAuthentication: preHandlerAsyncHookHandler;
    requireVerifiedUser: preHandlerAsyncHookHandler[];
    twoFactor: TwoFactor;
    /** Operators and admins signed in with a second factor. */
    requireStaff: preHandlerAsyncHookHandler[];
  }
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}
