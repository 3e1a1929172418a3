import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { describeIssues, type SchemaIssue } from '@common/validation.ts';
import { PHOTO_TOO_LARGE_MESSAGE } from '@common/listing.ts';
import { AppError, errorBody, sendError } from '../lib/errors.ts';
import { sendAppPage } from '../lib/app-page.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * The one place errors become responses: `{ error, code, details? }`, never a stack trace,
 * SQL text or host name, whatever the status.
 */
export default fp(
  async function errorHandling(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        // Every 429 says when to come back (the sign-in lockout's included).
        const retryAfter = (error.details as { retryAfter?: unknown } | undefined)?.retryAfter;
        if (error.statusCode === 429 && typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) reply.header('retry-after', String(Math.max(1, retryAfter)));
        return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
      }
      if (error.validation) {
        const context = error.validationContext ?? 'body';
        const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[context];
        const issues = describeIssues(schema, error.validation as SchemaIssue[], context);
        return sendError(reply, ErrorCode.VALIDATION_FAILED, issues[0]?.message, issues);
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        return sendError(reply.header('retry-after', String(RETRY_AFTER_SECONDS)), ErrorCode.SERVICE_UNAVAILABLE);
      }
      const status = error.statusCode ?? 500;
      if (status === 415) return sendError(reply, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Requests must be sent as JSON (Content-Type: application/json)');
      if (status === 413) {
        const message =
          error.code === 'FST_REQ_FILE_TOO_LARGE'
            ? PHOTO_TOO_LARGE_MESSAGE
            : error.code === 'FST_FILES_LIMIT' || error.code === 'FST_PARTS_LIMIT' || error.code === 'FST_FIELDS_LIMIT'
              ? 'Send one photo per request, in the field "file"'
              : undefined;
        return sendError(reply, ErrorCode.PAYLOAD_TOO_LARGE, message);
      }
      if (status === 429) return sendError(reply, ErrorCode.RATE_LIMITED, error.message || undefined);
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (malformed JSON, empty body with a JSON content type, ...).
        if (error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError) {
          return sendError(reply, ErrorCode.INVALID_BODY, error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty' : 'The request body is not valid JSON');
        }
        if (status === 404) return sendError(reply, ErrorCode.NOT_FOUND);
        // Any other refusal by Fastify or a plugin is answered with a code of the list, so with its status.
        return sendError(reply, ErrorCode.BAD_REQUEST);
      }
      request.log.error({ err: error }, 'unhandled error');
      return sendError(reply, ErrorCode.INTERNAL_ERROR);
    });

    const appShell: AppShell = { html: null };
    app.decorate('appShell', appShell);
    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (appShell.html && (request.method === 'GET' || request.method === 'HEAD') && isAppRoute(path)) {
        const page = appShell.render ? await appShell.render(new URL(request.url, 'http://page.invalid')) : { status: 200, html: appShell.html };
        return sendAppPage(reply, page);
      }
      return sendError(reply, ErrorCode.NOT_FOUND, `No route for ${request.method} ${path}`);
    });
  },
  { name: 'errors' },
);

const RETRY_AFTER_SECONDS = 2;

/**
 * Fastify's `frameworkErrors`: what it refuses before any route runs, answered in the
 * contract's shape rather than Fastify's own. A path parameter longer than any id or name we
 * keep names nothing, as a malformed id does (404).
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return void sendError(reply, ErrorCode.NOT_FOUND);
  if (error.code === 'FST_ERR_BAD_URL') return void sendError(reply, ErrorCode.BAD_REQUEST, 'The address is not a valid URL');
  request.log.error({ err: error }, 'request refused before routing');
  sendError(reply, ErrorCode.INTERNAL_ERROR);
}

/** Connection-level failures (the database is down, restarting or out of reach), not bad queries. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);

/** Whether `error` (or what caused it) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (CONNECTION_ERROR_CODES.has(code)) return true;
      // SQLSTATE class 08 (connection exception); 57P01-57P03: shutting down, cannot connect now.
      if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Paths the web app routes itself: not the API, docs, media or socket endpoints, and not files. */
function isAppRoute(path: string): boolean {
  return !/^\/(api|docs|media|socket\.io)(\/|$)/.test(path) && !/\.[a-z0-9]+$/i.test(path);
}

/** The built web app's HTML, served for deep links such as /car/3 once the client plugin finds it. */
export interface AppShell {
  html: Buffer | null;
  /**
   * One page of the app (path and query): drawn on the server with its status (the listing, a
   * car, content pages), or the app's HTML with what the page will need announced; never fails.
   */
  render?: (url: URL) => Promise<{ status: number; html: Buffer | string }>;
  /** Pages drawn on the server: how many drawn bodies and pages as sent are held (each at most PAGE_CACHE_ENTRIES), and how many were drawn so far. */
  pageCache?: () => { held: number; sent: number; drawn: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    appShell: AppShell;
  }
}
