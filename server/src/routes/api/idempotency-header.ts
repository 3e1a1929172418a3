import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requestFingerprint, type IdempotencyClaim } from '../../services/idempotency.ts';

/** The optional `Idempotency-Key` header of writes that honour it. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description: 'Makes retries safe: the same key from the same user with the same request returns the first result; with a different request, 422 IDEMPOTENCY_KEY_REUSED. Kept at least 24 hours.',
    }),
  ),
});

/** The claim of a signed-in request carrying an `Idempotency-Key`, or undefined without one. */
export function idempotencyClaim(request: FastifyRequest): IdempotencyClaim | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !request.session) return undefined;
  const path = request.url.split('?')[0] ?? request.url;
  return { userId: request.session.userId, key, fingerprint: requestFingerprint(request.method, path, request.body) };
}
