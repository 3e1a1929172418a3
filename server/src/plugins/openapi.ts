import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AppConfig } from '../config.ts';

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
        },
        servers: [{ url: config.appUrl }],
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
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
          { name: 'testimonials', description: 'Customer testimonials and their statistics' },
          { name: 'support', description: 'Support tickets' },
          { name: 'watchlist', description: "Cars the signed-in user is watching" },
        ],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
