import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@common/error-codes.ts';
import { sendError } from '../lib/errors.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Load shedding: while a statement has waited for the database (a pooled connection, the
 * embedded engine's turn) longer than DB_QUEUE_LIMIT_MS, API writes are refused at once with 503
 * SERVICE_UNAVAILABLE and Retry-After, before their body is read and before any transaction
 * starts, so nothing is half-written and the queue is not made longer. Reads wait their turn as before, and pushes (sent after a commit) go on.
 */
export default fp(
  async function overload(app: FastifyInstance) {
    const limitMs = app.config.dbQueueLimitMs;
    app.addHook('onRequest', async (request, reply) => {
      if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
      const queueMs = app.database.queueMs();
      if (queueMs <= limitMs) return;
      const retryAfter = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(queueMs / 1000)));
      request.log.warn({ queueMs: Math.round(queueMs), limitMs }, 'database behind: write refused');
      app.metrics.writesShed.inc();
      return sendError(reply.header('retry-after', String(retryAfter)), ErrorCode.SERVICE_UNAVAILABLE, 'The service is busy; please try again in a moment.');
    });
  },
  { name: 'overload', dependencies: ['database'] },
);
