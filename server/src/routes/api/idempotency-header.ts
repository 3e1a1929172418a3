import type { FastifyRequest } from 'fastify';
import { requestFingerprint, type IdempotencyClaim } from '../../services/idempotency.ts';

/** The claim of a signed-in request carrying an `Idempotency-Key` (`IdempotencyHeaders`), or undefined without one. */
export function idempotencyClaim(request: FastifyRequest): IdempotencyClaim | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !request.session) return undefined;
  const path = request.url.split('?')[0] ?? request.url;
  return { userId: request.session.userId, key, fingerprint: requestFingerprint(request.method, path, request.body) };
}
