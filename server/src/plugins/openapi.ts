import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AppConfig } from '../config.ts';

/** The scheme the OpenAPI document names for access tokens. */
const BEARER = 'bearerAuth';

export default fp<{ config: AppConfig }>(
  async function openapi(app: FastifyInstance, { config }) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'LuxeMotors API',
          version: '1.0.0',
          description:
            'REST API of the LuxeMotors marketplace. Success bodies are `{ data }`; failures are `{ error, code, details? }`. ' +
            'Money is whole US dollars as JSON integers; timestamps are ISO 8601 UTC strings. Real-time events are served by Socket.IO at `/socket.io`.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-LuxeMotors-Proprietary' },
        },
        servers: [{ url: config.appUrl }],
        components: {
          securitySchemes: {
            [BEARER]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token from `POST /api/auth/login` or `/api/auth/refresh-token`' },
          },
        },
        tags: [
          { name: 'health', description: 'Service health' },
          { name: 'cars', description: 'The car catalogue' },
          { name: 'auth', description: 'Registration, email verification, sessions and password reset' },
          { name: 'users', description: "The signed-in user's profile" },
          { name: 'bids', description: 'Bids on cars; accepted bids are pushed to viewers as bid:placed' },
          { name: 'chat', description: "Each car's live discussion; new messages are pushed as chat:message" },
          { name: 'notifications', description: 'Notifications for the signed-in user; pushed as notification:new' },
          { name: 'orders', description: 'Buying through escrow' },
          { name: 'saved searches', description: 'Saved searches with instant or daily alerts, and their one-click unsubscribe' },
          { name: 'offers', description: 'Private offers with counter-offers, and second-chance offers after an unpaid auction' },
          { name: 'testimonials', description: 'Customer testimonials and their statistics' },
          { name: 'support', description: 'Support tickets' },
          { name: 'watchlist', description: "Cars the signed-in user is watching" },
          {
            name: 'admin',
            description:
              'The operator back office: operators and admins signed in with a second factor. Signed out 401; role `user` 403 NOT_ALLOWED; a session without the second factor 403 TOTP_REQUIRED; every write takes a `reason` and is audited in its transaction.',
          },
        ],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });

    // Every documented operation gets an operationId (client generators name their methods after
    // it) and says which credentials it takes, derived from the route itself so that no route
    // can be added without them. A route that states either keeps what it states.
    app.addHook('onRoute', (route) => {
      if (!route.schema || route.schema.hide) return;
      const method = Array.isArray(route.method) ? null : route.method;
      route.schema = {
        ...route.schema,
        ...(route.schema.operationId === undefined && method ? { operationId: operationIdFor(method, route.url) } : {}),
        ...(route.schema.security === undefined ? { security: securityOf(app, route) } : {}),
      };
    });
  },
  { name: 'openapi' },
);

/**
 * `GET /api/cars/:id/valuation` → `getCarsByIdValuation`: the method, then each path segment in
 * camel case, parameters as `By<Name>`. Method and path identify a route, so these never clash.
 */
export function operationIdFor(method: string, url: string): string {
  const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1));
  const segments = url.split('/').filter((segment, index) => segment !== '' && !(index === 1 && segment === 'api'));
  return method.toLowerCase() + segments.map((segment) => (segment.startsWith(':') ? `By${words(segment).join('')}` : words(segment).join(''))).join('');
}

/**
 * What a route's own hooks demand: a bearer token (authenticate, requireVerifiedUser), a token
 * if the caller has one (optionalAuthentication; `{}` is "no credentials" in OpenAPI), or
 * nothing (`[]`: public).
 */
function securityOf(app: FastifyInstance, route: RouteOptions): Record<string, string[]>[] {
  const hooks = [route.onRequest, route.preValidation, route.preHandler].flat(2).filter(Boolean);
  if (app.hasDecorator('optionalAuthentication') && hooks.includes(app.optionalAuthentication)) return [{}, { [BEARER]: [] }];
  const demanding = app.hasDecorator('authenticate') ? [app.authenticate, ...app.requireVerifiedUser] : [];
  if (hooks.some((hook) => demanding.includes(hook as never))) return [{ [BEARER]: [] }];
  return [];
}
