import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../lib/errors.ts';
import { ErrorCode } from '@common/error-codes.ts';

export interface LimitOptions {
  /** Names the counter; limits with different names never share counts. */
  name: string;
  max: number;
  timeWindowMs: number;
  /** What is being limited (an address, an email); undefined skips the limit for this request. */
  key: (request: FastifyRequest) => string | undefined;
}

/**
 * Rate limits as route pre-handlers, so one route can carry several (per address and per
 * email). They run after validation, so keys can come from the body. Counts live in Redis when
 * it is configured, so every process sees the same numbers.
 */
export default fp(
  async function rateLimits(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      // While Redis is away the limits are not enforced rather than every limited route failing.
      skipOnError: true,
      ...(app.redis ? { redis: app.redis, nameSpace: `${app.config.redisPrefix}:rate:` } : {}),
    });
    app.decorate('limit', (options: LimitOptions): preHandlerAsyncHookHandler => {
      const check = app.createRateLimit({
        max: options.max,
        timeWindow: options.timeWindowMs,
        keyGenerator: (request: FastifyRequest) => `${options.name}:${options.key(request) ?? ''}`,
      });
      const limit: preHandlerAsyncHookHandler = async (request, reply) => {
        if (options.key(request) === undefined) return;
        const result = await check(request);
        if (result.isAllowed || !result.isExceeded) return;
        reply.header('retry-after', result.ttlInSeconds);
        throw new AppError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: result.ttlInSeconds });
      };
      return app.declareErrors(limit, [ErrorCode.RATE_LIMITED]);
    });
  },
  { name: 'rate-limits', dependencies: ['redis', 'error-declarations'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    limit(options: LimitOptions): preHandlerAsyncHookHandler;
  }
}
