import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const HEALTH_TIMEOUT_MS = 2_000;

const HealthBody = Type.Object({
  data: Type.Object({ status: Type.String({ enum: ['ok', 'degraded'] }), db: Type.String({ enum: ['ok', 'unreachable'] }) }),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
});

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: answers while the process runs, without touching the database (also the benchmark baseline)',
        response: { 200: Type.Object({ data: Type.Object({ status: Type.String() }) }) },
      },
    },
    async () => ({ data: { status: 'ok' } }),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Service health; 503 when the database does not answer',
        response: { 200: HealthBody, 503: HealthBody },
      },
    },
    async (request, reply) => {
      try {
        await withTimeout(app.database.ping(), HEALTH_TIMEOUT_MS);
        return { data: { status: 'ok', db: 'ok' } };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({
          data: { status: 'degraded', db: 'unreachable' },
          error: 'The database is unreachable',
          code: 'SERVICE_DEGRADED',
        });
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
