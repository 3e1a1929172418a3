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
        summary: 'Service health; 503 when the database does not answer, degraded (200) when only Redis is away or the database is behind (db busy, writes refused); never waits behind the write queue',
        response: { 200: HealthBodySchema, 503: HealthBodySchema },
      },
    },
    async (request, reply) => {
      const redis =
        app.redis === null ? ('off' as const) : app.redisConnections.every((client) => client.status === 'ready') ? ('ok' as const) : ('unreachable' as const);
      const limitMs = app.config.dbQueueLimitMs;
      const busy = () => ({ data: { status: 'degraded' as const, db: 'busy' as const, redis, queueMs: Math.round(app.database.queueMs()) } });
      // Behind the write queue a ping would wait its turn: past the limit the queue's age already
      // says how the database is doing (writes are being refused meanwhile), and a ping that has
      // waited as long as the limit is not waited for longer while the queue is that old.
      if (app.database.queueMs() > limitMs) return busy();
      try {
        const pingedAt = performance.now();
        const ping = app.database.ping();
        const answered = await withTimeout(ping.then(() => true), Math.min(limitMs, HEALTH_TIMEOUT_MS)).catch((error: unknown) => {
          if (error instanceof PingTimeout) return false;
          throw error;
        });
        if (!answered) {
          // Busy if the ping waits behind older statements; the ping alone unanswered is a
          // database that does not answer.
          if (app.database.queueMs() > performance.now() - pingedAt + 1) {
            ping.catch(() => {});
            return busy();
          }
          await withTimeout(ping, Math.max(0, HEALTH_TIMEOUT_MS - limitMs));
        }
        return { data: { status: redis === 'unreachable' ? ('degraded' as const) : ('ok' as const), db: 'ok' as const, redis, queueMs: Math.round(app.database.queueMs()) } };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply
          .status(ERROR_CODES.SERVICE_DEGRADED.status)
          .send({ data: { status: 'degraded', db: 'unreachable', redis, queueMs: Math.round(app.database.queueMs()) }, ...errorBody(ErrorCode.SERVICE_DEGRADED) });
      }
    },
  );
};

class PingTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PingTimeout(`timed out after ${ms} ms`)), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export default healthRoutes;
