import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorBody } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { errorBody } from '../lib/errors.ts';
import { problemsOf, type ShapeCheck } from '../lib/shape-check.ts';

/**
 * With a shape check (tests), every JSON answer of a route that declares response schemas is
 * checked against the one for its status before it is serialized: a mismatch is logged, kept
 * by the check, and answered 500 INTERNAL_ERROR instead, so the request's test fails where it
 * happened. A failure's schema lists the codes the route declares for its status, so an
 * undeclared code fails like an undeclared status (whose body is also held to the contract's
 * failure body).
 */
export default fp<{ check: ShapeCheck }>(
  async function shapeCheck(app: FastifyInstance, { check }) {
    app.addHook('preSerialization', async (request, reply, payload) => {
      const responses = (request.routeOptions.schema as { response?: Record<string, object> } | undefined)?.response;
      if (!responses) return payload;
      const status = reply.statusCode;
      const schema = responses[status] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
      const where = `${request.method} ${request.routeOptions.url} ${status}`;
      const mismatch = schema
        ? check.check(where, schema, payload)
        : check.record(where, [`the route declares no response schema for ${status}`, ...(status >= 400 ? problemsOf(ErrorBody, payload) : [])]);
      if (!mismatch) {
        const code = status >= 400 ? (payload as { code?: unknown } | null)?.code : undefined;
        if (typeof code === 'string') check.answered.add(`${where} ${code}`);
        return payload;
      }
      request.log.error({ mismatch }, 'the answer does not match its response schema');
      // Replaced rather than thrown: a failure's answer is already the error handler's, which cannot answer twice.
      reply.code(500);
      return errorBody(ErrorCode.INTERNAL_ERROR);
    });
  },
  { name: 'shape-check' },
);
