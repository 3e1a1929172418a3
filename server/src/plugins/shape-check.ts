import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorBody } from '@common/schemas/envelope.ts';
import type { ShapeCheck } from '../lib/shape-check.ts';

/**
 * With a shape check (tests), every JSON answer of a route that declares response schemas is
 * checked against the one for its status before it is serialized: a mismatch is logged, kept
 * by the check, and answered 500, so the request's test fails where it happened. An error
 * status the route does not declare is held to the contract's failure body.
 */
export default fp<{ check: ShapeCheck }>(
  async function shapeCheck(app: FastifyInstance, { check }) {
    const answeredMismatch = new WeakSet<FastifyReply>();
    app.addHook('preSerialization', async (request, reply, payload) => {
      const responses = (request.routeOptions.schema as { response?: Record<string, object> } | undefined)?.response;
      if (!responses || answeredMismatch.has(reply)) return payload;
      const status = reply.statusCode;
      const schema = responses[status] ?? responses[`${String(status)[0]}xx`] ?? responses.default ?? (status >= 400 ? ErrorBody : undefined);
      const where = `${request.method} ${request.routeOptions.url} ${status}`;
      const mismatch = schema ? check.check(where, schema, payload) : check.record(where, [`the route declares no response schema for ${status}`]);
      if (!mismatch) return payload;
      request.log.error({ mismatch }, 'the answer does not match its response schema');
      answeredMismatch.add(reply);
      throw new Error(`The answer does not match its response schema: ${mismatch.problems.join('; ')}`);
    });
  },
  { name: 'shape-check' },
);
