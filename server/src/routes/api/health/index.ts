import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthBodySchema, LivenessBodySchema } from '@common/schemas/support.ts';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';
import { errorBody } from '../../../lib/errors.ts';

const HEALTH_TIMEOUT_MS = 2_000;

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: answers while the process runs, without touching the database (also the benchmark baseline)',
        // The API's error contract holds here as everywhere: a request the server cannot read is a 400.
        response: { 200: LivenessBodySchema },
      },
    },
    async () => ({ data: { status: 'ok' } }),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Service health; 503 when the database does not answer, degraded (200) when only Redis is away',
        response: { 200: HealthBodySchema, 503: HealthBodySchema },
      },
    },
    async (request, reply) => {
      const redis = app.redis === null ? ('off' as const) : app.redis.status === 'ready' ? ('ok' as const) : ('unreachable' as const);
      try {
        await withTimeout(app.database.ping(), HEALTH_TIMEOUT_MS);
        return { data: { status: redis === 'unreachable' ? ('degraded' as const) : ('ok' as const), db: 'ok' as const, redis } };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.status(ERROR_CODES.SERVICE_DEGRADED.status).send({ data: { status: 'degraded', db: 'unreachable', redis }, ...errorBody(ErrorCode.SERVICE_DEGRADED) });
      }
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export default healthRoutes;
