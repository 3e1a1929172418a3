import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { withErrors, type DeclaredError } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * What the shared layers answer, declared once here rather than on every route: each route that
 * declares its responses gets these codes added to its own as it is registered, so the OpenAPI
 * document lists every code a route can answer, and the tests' shape check refuses any other.
 */

/** Any route: a query or path the edge refuses (input-limits), a failure of ours, the database away (the error handler). */
const EVERY_ROUTE: DeclaredError[] = [ErrorCode.VALIDATION_FAILED, ErrorCode.INTERNAL_ERROR, ErrorCode.SERVICE_UNAVAILABLE];
/** A method that takes a body: one that is not JSON, too large or unreadable is refused before the route runs. */
const WITH_BODY: DeclaredError[] = [ErrorCode.INVALID_BODY, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A path with parameters: one no record can be named by (NUL, too long) is a 404 (input-limits, the router). */
const WITH_PATH_PARAMETERS: DeclaredError[] = [ErrorCode.NOT_FOUND];
/** A write that takes `Idempotency-Key` (services/idempotency.ts). */
const WITH_IDEMPOTENCY_KEY: DeclaredError[] = [ErrorCode.IDEMPOTENCY_KEY_REUSED, ErrorCode.IDEMPOTENCY_KEY_IN_USE];

type Hook = (...args: never[]) => unknown;

export default fp(
  async function errorDeclarations(app: FastifyInstance) {
    const byHook = new WeakMap<Hook, readonly DeclaredError[]>();
    const declaredBy = (hooks: unknown[]) => hooks.flatMap((hook) => byHook.get(hook as Hook) ?? []);

    app.decorate('declareErrors', <H extends Hook>(hook: H, declared: readonly DeclaredError[]): H => {
      byHook.set(hook, [...(byHook.get(hook) ?? []), ...declared]);
      return hook;
    });

    app.decorate('guardEveryRoute', function guardEveryRoute(this: FastifyInstance, guards: readonly Hook[]) {
      for (const guard of guards) this.addHook('preValidation', guard as never);
      const declared = declaredBy([...guards]);
      this.addHook('onRoute', (route) => declare(route, declared));
    });

    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      const hooks = [route.onRequest, route.preParsing, route.preValidation, route.preHandler].flat(2).filter(Boolean);
      declare(route, [
        ...EVERY_ROUTE,
        ...(methods.some((method) => BODY_METHODS.has(method)) ? WITH_BODY : []),
        ...(route.url.includes(':') ? WITH_PATH_PARAMETERS : []),
        ...(takesIdempotencyKey(route) ? WITH_IDEMPOTENCY_KEY : []),
        ...declaredBy(hooks),
      ]);
    });
  },
  { name: 'error-declarations' },
);

/** Adds `declared` to the route's response schemas; a route that declares none (pages, files) is left alone. */
function declare(route: RouteOptions, declared: readonly DeclaredError[]): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (!response || declared.length === 0) return;
  route.schema = { ...route.schema, response: withErrors(response, declared) };
}

function takesIdempotencyKey(route: RouteOptions): boolean {
  const headers = route.schema?.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.['idempotency-key'] !== undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Records the codes `hook` answers, added to every route that runs it; answers the hook. */
    declareErrors<H extends Hook>(hook: H, declared: readonly DeclaredError[]): H;
    /** Runs `guards` before validation on every route of this scope, and declares their codes on each. */
    guardEveryRoute(guards: readonly Hook[]): void;
  }
}
