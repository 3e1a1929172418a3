import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderIn } from '../helpers/escrow.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Every route of the OpenAPI document, every method, with generated input: bodies that follow
 * the schema and bodies that don't (wrong types, huge and negative numbers, NaN-like strings,
 * NUL and control characters, 100 KB strings, nesting up to 12,000 levels, prototype keys, long
 * keys, arrays of 25,000 items, unicode, duplicate keys), odd path
 * ids and queries, and wrong content types, as a visitor and signed in as a buyer and as a
 * seller. It passes only when no answer is a 5xx and every error has the contract's shape.
 */

type JsonSchema = Record<string, unknown> & { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema };
interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string; schema?: JsonSchema; required?: boolean }[];
  body: JsonSchema | null;
  multipart: boolean;
}

let t: TestApp;
let operations: Operation[] = [];
let callers: { name: string; auth: Record<string, string> }[] = [];
/** Real ids, so generated requests reach past "not found" into the handlers. */
let realIds: { car: number; order: number; notification: number; ticket: string };

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '100000', RATE_LIMIT_REGISTER_PER_IP: '100000', RATE_LIMIT_RECOVERY_PER_IP: '100000' });
  await t.listen();
  const [buyer, seller] = [await createUser(t, { name: 'Fuzz Buyer' }), await createUser(t, { name: 'Fuzz Seller' })];
  const car = await createListing(t, seller);
  const order = await orderIn(t, 'funded', buyer, seller);
  const notification = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: buyer.auth })).json().data.notifications[0].id;
  const ticket = (await t.app.inject({ method: 'POST', url: '/api/support/tickets', headers: buyer.auth, payload: { subject: 'Fuzz', message: 'Fuzz' } })).json().data.id;
  realIds = { car: car.id, order: order.id, notification, ticket };
  callers = [
    { name: 'visitor', auth: {} },
    { name: 'buyer', auth: (buyer as SignedInUser).auth },
    { name: 'seller', auth: seller.auth },
  ];
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: content['application/json']?.schema ?? null,
        multipart: 'multipart/form-data' in content,
      });
    }
  }
  // Logging out or resetting would only end the fuzzer's own sessions; they are fuzzed too, last.
  operations = [...operations.filter((o) => !o.path.includes('logout')), ...operations.filter((o) => o.path.includes('logout'))];
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Strings meant to break things. */
const nasty = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\u0001\u0002\u001f\u007f', 'NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x7fffffff', '9'.repeat(40), 'null', 'undefined', '[]', '{}', '<script>alert(1)</script>', "'; drop table cars; --", '%00', '../../etc/passwd', '\ud800', '😀'.repeat(50), 'é'.normalize('NFD')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant('x'.repeat(100_000)),
);
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, -0.0001, 2_147_483_647, 2_147_483_648, -2_147_483_649, 1e20, 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const deepNesting = fc.integer({ min: 10, max: 500 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { nested: value } : [value];
  return value;
});
const junk = fc.oneof(nasty, nastyNumber, fc.boolean(), fc.constant(null), deepNesting, fc.anything({ maxDepth: 4 }));

/** Values that follow `schema` (so requests get past validation), with some fields turned to junk. */
function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return junk;
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => fromSchema(v, depth + 1)));
  if (schema.allOf) return fromSchema(Object.assign({}, ...(schema.allOf as JsonSchema[])), depth + 1);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.max(-1e6, Number(schema.minimum ?? -1e6)), max: Math.min(1e6, Number(schema.maximum ?? 1e6)) });
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      if (schema.format === 'date-time') return fc.date({ min: new Date(), max: new Date(Date.now() + 40 * 86_400_000), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      return fc.string({ minLength: Number(schema.minLength ?? 0), maxLength: Math.min(Number(schema.maxLength ?? 50), 60) });
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 });
    case 'object': {
      const properties = schema.properties ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0) return fc.constant({});
      return fc.record(Object.fromEntries(keys.map((k) => [k, fc.oneof({ weight: 4, arbitrary: fromSchema(properties[k], depth + 1) }, { weight: 1, arbitrary: junk })])), {
        requiredKeys: (schema.required ?? []).filter((k) => keys.includes(k)),
      });
    }
    default:
      return junk;
  }
}

/**
 * JSON texts shaped to hurt a server rather than to fail validation: nesting thousands of levels
 * deep (built as text: the server must not recurse through it), prototype keys, property names
 * of kilobytes, arrays of tens of thousands of items.
 */
const hostileShape = fc.oneof(
  fc.integer({ min: 1_000, max: 12_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 1_000, max: 12_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.constantFrom('{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}', '{"a":{"__proto__":{"b":1}}}'),
  fc.integer({ min: 201, max: 5_000 }).map((length) => `{"${'k'.repeat(length)}":1}`),
  fc.integer({ min: 1_001, max: 25_000 }).map((items) => `{"items":[${'0,'.repeat(items - 1)}0]}`),
);

/** A JSON text with one key twice (the last wins in JSON.parse). */
const duplicateKeys = fc.tuple(fc.string({ maxLength: 10 }), junk, junk).map(([key, a, b]) => `{"${key.replace(/["\\]/g, '')}":${JSON.stringify(a) ?? 'null'},"${key.replace(/["\\]/g, '')}":${JSON.stringify(b) ?? 'null'}}`);

/** Lone surrogates cannot be percent-encoded as UTF-8; they are sent as the replacement character. */
function encodeSegment(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => (/[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i, i + 2)) || /[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i - 1, i + 1)) ? c : '\ufffd')));
}

function pathValue(name: string): fc.Arbitrary<string> {
  const real = name === 'reference' ? realIds.ticket : String(name.includes('order') || name === 'id' ? realIds.order : name === 'carId' ? realIds.car : name === 'index' ? 0 : realIds.car);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(real, String(realIds.car), String(realIds.notification)) },
    { weight: 2, arbitrary: nasty.map((s) => encodeSegment(s.slice(0, 200))) },
    { weight: 1, arbitrary: nastyNumber.map(String) },
  );
}

function requestFor(operation: Operation) {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const params = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name)])));
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...queryParams.map((p) => p.name), 'unknown'), fc.string({ maxLength: 8 })),
    fc.oneof(nasty, nastyNumber.map(String), ...queryParams.map((p) => fromSchema(p.schema).map(String))),
    { maxKeys: 4 },
  );
  const body = fc.oneof(
    { weight: 5, arbitrary: operation.body ? fromSchema(operation.body).map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })) : fc.constant({ kind: 'none' as const, text: '' }) },
    { weight: 2, arbitrary: junk.map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: duplicateKeys.map((text) => ({ kind: 'json' as const, text })) },
    { weight: 1, arbitrary: hostileShape.map((text) => ({ kind: 'json' as const, text })) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'nul', '[1,2', '"unterminated', '\u0000').map((text) => ({ kind: 'json' as const, text })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz', 'application/json; charset=latin1', 'image/png'), fc.string({ maxLength: 200 })).map(([type, text]) => ({ kind: 'other' as const, type, text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => ({ kind: 'multipart' as const, bytes })) },
  );
  return fc.record({ caller: fc.constantFrom(...callers), params, query, body });
}

function urlOf(operation: Operation, params: Record<string, string>, query: Record<string, string>): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'x');
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

describe('fuzzing every route', () => {
  it('never answers 5xx, and every error has the contract shape', async () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async ({ caller, params, query, body }) => {
          const url = urlOf(operation, params, query);
          const headers: Record<string, string> = { ...caller.auth };
          let payload: string | Buffer | undefined;
          if (body.kind === 'json' && operation.method !== 'GET') {
            headers['content-type'] = 'application/json';
            payload = body.text;
          } else if (body.kind === 'other' && operation.method !== 'GET') {
            headers['content-type'] = body.type;
            payload = body.text;
          } else if (body.kind === 'multipart' && operation.method !== 'GET') {
            const boundary = 'fuzzboundary';
            headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
            payload = Buffer.concat([
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
              Buffer.from(body.bytes),
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]);
          }
          const res = await t.app.inject({ method: operation.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
          const label = `${caller.name} ${operation.method} ${url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, label).toBeLessThan(500);
          if (res.statusCode >= 400 && !url.startsWith('/docs')) {
            const error = res.json() as Record<string, unknown>;
            expect(typeof error.error, label).toBe('string');
            expect(typeof error.code, label).toBe('string');
            expect(Object.keys(error).every((k) => ['error', 'code', 'details', 'data'].includes(k)), label).toBe(true);
            expect(res.body, label).not.toMatch(/\bat \S+\.(ts|js):\d+|SELECT |INSERT |postgres|pglite/i);
          }
        }),
        { numRuns: RUNS },
      );
    }
    // The fuzzer's own records survived it (no route let junk through into them).
    expect((await t.app.inject({ method: 'GET', url: `/api/cars/${realIds.car}` })).statusCode).toBe(200);
  }, 600_000);
});
