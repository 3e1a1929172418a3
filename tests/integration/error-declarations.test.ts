import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERROR_CODES, ErrorCode, isErrorCode, statusesOf } from '@common/error-codes.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { AppError } from '../../server/src/lib/errors.ts';
import { ShapeCheck } from '../../server/src/lib/shape-check.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * Every route declares the failure codes it can answer: its own (`errorResponses` in its response
 * schemas) and those of the shared layers in front of it (added as it is registered), each
 * status's schema a failure body whose `code` is one of them. The shape check holds every answer
 * of the tests to those schemas, so a code a route answers without declaring it fails whichever
 * test provoked it. Here: the OpenAPI document lists what the shared layers answer on every
 * route, lists nothing outside common/error-codes.ts, and a route that answers an undeclared
 * code or status fails the check.
 */

interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: { properties?: Record<string, { enum?: unknown[] }> } }>;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, ResponseObject>;
}

const Thing = Type.Object({ id: Type.Integer() });

let database: TestDatabase;
let app: FastifyInstance;
let check: ShapeCheck;
let operations: { name: string; method: string; path: string; operation: Operation }[];

beforeAll(async () => {
  database = await createTestDatabase();
  check = new ShapeCheck();
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-declarations-')), LOG_LEVEL: 'silent', SERVE_CLIENT: 'false', DATABASE_URL: database.url ?? '' });
  app = await buildApp(config, { database, shapeCheck: check });
  await app.register(
    async (routes) => {
      const typed = routes.withTypeProvider<TypeBoxTypeProvider>();
      const declaring = { hide: true, response: { 200: Envelope(Thing), ...errorResponses(ErrorCode.LISTING_LOCKED) } };
      typed.get('/declared', { schema: declaring }, async () => {
        throw new AppError(ErrorCode.LISTING_LOCKED);
      });
      typed.get('/undeclared-code', { schema: declaring }, async () => {
        throw new AppError(ErrorCode.INVALID_TRANSITION);
      });
      typed.get('/undeclared-status', { schema: declaring }, async () => {
        throw new AppError(ErrorCode.PAYMENT_DECLINED);
      });
      // Nothing of its own: what the sign-in guard answers comes with the guard.
      typed.get('/signed-in', { preHandler: app.authenticate, schema: { hide: true, response: { 200: Envelope(Thing) } } }, async () => ({ data: { id: 1 } }));
    },
    { prefix: '/api/declarations-test' },
  );
  await app.ready();
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
  );
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** The codes a response lists for its status: its JSON schema's `code` enum (null when it is no failure body). */
function codesOf(response: ResponseObject): unknown[] | null {
  const properties = response.content?.['application/json']?.schema?.properties;
  if (!properties || 'data' in properties) return null;
  return properties.code?.enum ?? [];
}

/** What the shared layers answer on this route, as the document shows the route to them. */
function sharedCodes({ method, path, operation }: (typeof operations)[number]): ErrorCode[] {
  const bearer = (operation.security ?? []).some((scheme) => 'bearerAuth' in scheme);
  const header = (name: string) => (operation.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === name);
  return [
    ErrorCode.VALIDATION_FAILED,
    ErrorCode.INTERNAL_ERROR,
    ErrorCode.SERVICE_UNAVAILABLE,
    ...(bearer ? [ErrorCode.UNAUTHORIZED] : []),
    ...(['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? [ErrorCode.INVALID_BODY, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE] : []),
    ...(path.includes('{') ? [ErrorCode.NOT_FOUND] : []),
    ...(header('idempotency-key') ? [ErrorCode.IDEMPOTENCY_KEY_REUSED, ErrorCode.IDEMPOTENCY_KEY_IN_USE] : []),
    ...(path.startsWith('/api/admin/') ? [ErrorCode.NOT_ALLOWED, ErrorCode.TOTP_REQUIRED] : []),
  ];
}

/** The console's second factor is its 403; everywhere else a code's status is its own. */
const statusFor = (code: ErrorCode, path: string) => (code === ErrorCode.TOTP_REQUIRED && path.startsWith('/api/admin/') ? 403 : ERROR_CODES[code].status);

describe('the error codes in the OpenAPI document', () => {
  it('has the API routes', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.map((o) => o.name)).toEqual(expect.arrayContaining(['PATCH /api/cars/{id}', 'POST /api/orders/{id}/pay', 'GET /api/admin/audit']));
  });

  it('lists on every route the codes of the shared layers in front of it, each at its status', () => {
    const missing: string[] = [];
    for (const entry of operations) {
      for (const code of sharedCodes(entry)) {
        const status = statusFor(code, entry.path);
        const response = entry.operation.responses[status];
        // A status the route answers with a report of its own (the health check's 503) is the route's to describe.
        const codes = response ? codesOf(response) : [];
        if (codes !== null && !codes.includes(code)) missing.push(`${entry.name} ${status} ${code}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists only codes of common/error-codes.ts, each at a status the list gives it, with its sentence', () => {
    const wrong: string[] = [];
    let listed = 0;
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const code of codesOf(response) ?? []) {
          listed += 1;
          if (!isErrorCode(code)) wrong.push(`${name} ${status}: ${String(code)} is not in the list`);
          else if (!statusesOf(code).includes(Number(status))) wrong.push(`${name} ${status}: ${code} is answered with ${statusesOf(code).join(' or ')}`);
          else if (!response.description?.includes(`${code} — ${ERROR_CODES[code].message}`)) wrong.push(`${name} ${status}: the description lacks ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(listed).toBeGreaterThan(operations.length * 3);
  });

  it('lists a route’s own codes beside the shared ones', () => {
    const edit = operations.find((o) => o.name === 'PATCH /api/cars/{id}')!.operation.responses;
    expect(codesOf(edit['409']!)).toEqual(expect.arrayContaining([ErrorCode.LISTING_LOCKED, ErrorCode.AUCTION_HAS_BIDS, ErrorCode.IDEMPOTENCY_KEY_IN_USE]));
    expect(edit['409']!.description).toContain(`LISTING_LOCKED — ${ERROR_CODES.LISTING_LOCKED.message}`);
    const login = operations.find((o) => o.name === 'POST /api/auth/login')!.operation.responses;
    expect(codesOf(login['401']!)).toEqual(expect.arrayContaining([ErrorCode.INVALID_CREDENTIALS, ErrorCode.TOTP_REQUIRED]));
    expect(codesOf(login['429']!)).toEqual([ErrorCode.RATE_LIMITED]);
  });
});

describe('an answer whose code the route does not declare', () => {
  async function answer(path: string, headers: Record<string, string> = {}) {
    const before = check.mismatches.length;
    const res = await app.inject({ method: 'GET', url: `/api/declarations-test/${path}`, headers });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, mismatches: check.mismatches.slice(before) };
  }

  it('passes when the code is declared for its status', async () => {
    const declared = await answer('declared');
    expect(declared.status).toBe(409);
    expect(declared.body.code).toBe(ErrorCode.LISTING_LOCKED);
    expect(declared.mismatches).toEqual([]);
  });

  it('passes a code a shared layer answers on a route that declares none of its own', async () => {
    const signedOut = await answer('signed-in');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect(signedOut.mismatches).toEqual([]);
  });

  it('fails with a 500 when the status is declared but not the code, naming both', async () => {
    const undeclared = await answer('undeclared-code');
    expect(undeclared.status).toBe(500);
    expect(undeclared.body.code).toBe(ErrorCode.INTERNAL_ERROR);
    expect(undeclared.mismatches).toEqual([
      { where: 'GET /api/declarations-test/undeclared-code 409', problems: ['/code is "INVALID_TRANSITION", not one of LISTING_LOCKED'] },
    ]);
  });

  it('fails with a 500 when the route declares nothing for the status', async () => {
    const undeclared = await answer('undeclared-status');
    expect(undeclared.status).toBe(500);
    expect(undeclared.mismatches).toEqual([{ where: 'GET /api/declarations-test/undeclared-status 402', problems: ['the route declares no response schema for 402'] }]);
  });
});
