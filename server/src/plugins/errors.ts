import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, type FieldIssue } from '../lib/errors.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * The one place errors become responses: `{ error, code, details? }`, never a stack trace,
 * SQL text or host name, whatever the status.
 */
export default fp(
  async function errorHandling(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply.status(error.statusCode).send({
          error: error.message,
          code: error.code,
          ...(error.details === undefined ? {} : { details: error.details }),
        });
      }
      if (error.validation) {
        const issues = error.validation.map((issue) => describeIssue(issue as ValidationIssue, error.validationContext));
        return reply.status(400).send({ error: issues[0]?.message ?? 'Invalid request', code: 'VALIDATION_FAILED', details: issues });
      }
      const status = error.statusCode ?? 500;
      if (status === 415) {
        return reply.status(415).send({ error: 'Requests must be sent as JSON (Content-Type: application/json)', code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      if (status === 413) {
        const message =
          error.code === 'FST_REQ_FILE_TOO_LARGE'
            ? 'Photos can be at most 10 MB'
            : error.code === 'FST_FILES_LIMIT' || error.code === 'FST_PARTS_LIMIT' || error.code === 'FST_FIELDS_LIMIT'
              ? 'Send one photo per request, in the field "file"'
              : 'The request body is too large';
        return reply.status(413).send({ error: message, code: 'PAYLOAD_TOO_LARGE' });
      }
      if (status === 429) {
        return reply.status(429).send({ error: error.message || 'Too many requests. Please try again later.', code: 'RATE_LIMITED' });
      }
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (malformed JSON, empty body with a JSON content type, ...).
        const message = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty' : 'The request body is not valid JSON';
        const isBodyError = error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError;
        return reply.status(status).send({
          error: isBodyError ? message : 'The request could not be processed',
          code: isBodyError ? 'INVALID_BODY' : 'BAD_REQUEST',
        });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' });
    });

    const appShell: AppShell = { html: null };
    app.decorate('appShell', appShell);
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // Socket.IO answers these itself; without hijacking, the WebSocket plugin would end its upgrades.
      if (path.startsWith('/socket.io/')) return reply.hijack();
      if (appShell.html && (request.method === 'GET' || request.method === 'HEAD') && isAppRoute(path)) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(appShell.html);
      }
      return reply.status(404).send({ error: `No route for ${request.method} ${path}`, code: 'NOT_FOUND' });
    });
  },
  { name: 'errors' },
);

/** Paths the web app routes itself: not the API, docs, media or socket endpoints, and not files. */
function isAppRoute(path: string): boolean {
  return !/^\/(api|docs|media|socket\.io)(\/|$)/.test(path) && !/\.[a-z0-9]+$/i.test(path);
}

/** The built web app's HTML, served for deep links such as /car/3 once the client plugin finds it. */
export interface AppShell {
  html: Buffer | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    appShell: AppShell;
  }
}

function describeIssue(issue: ValidationIssue, context: string | undefined): FieldIssue {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const params = issue.params ?? {};
  if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const field = path ? `${path}.${params.additionalProperty}` : params.additionalProperty;
    return { field, message: `${field} is not an allowed field` };
  }
  if (issue.keyword === 'required' && typeof params.missingProperty === 'string') {
    const field = path ? `${path}.${params.missingProperty}` : params.missingProperty;
    return { field, message: `${field} is required` };
  }
  const field = path || context || 'body';
  return { field, message: `${field} ${issue.message ?? 'is invalid'}` };
}
