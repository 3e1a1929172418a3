import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/** HSTS: a year, as browsers' preload lists expect. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer. The web app gets a strict Content-Security-Policy: its
 * own scripts, styles, fonts and sockets only, no inline script, no plugins, no framing, no
 * <base> tricks; images also from the photo bucket when one is configured. The interactive
 * API documentation (Swagger UI, which styles itself inline) gets a policy of its own.
 * API answers are never stored by caches: they carry tokens and personal data, and the public
 * ones are live. HSTS is sent when the request came over HTTPS (behind a proxy, with
 * TRUST_PROXY, as X-Forwarded-Proto says).
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const photoOrigin = app.config.photoBucket ? new URL(app.config.photoBucket.publicUrl).origin : null;
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(photoOrigin ? [photoOrigin] : [])],
          fontSrc: ["'self'"],
          // 'self' covers the app's own ws:/wss: WebSocket (CSP Level 3).
          connectSrc: ["'self'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      // Sent by hand below, only over HTTPS.
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-site' },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
      xFrameOptions: { action: 'deny' },
    });

    const docsPolicy = [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');

    app.addHook('onSend', async (request, reply, payload) => {
      const path = request.url.split('?')[0] ?? '';
      if (path === '/docs' || path.startsWith('/docs/')) reply.header('content-security-policy', docsPolicy);
      if (path.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      return payload;
    });
  },
  { name: 'security-headers' },
);
