import { ErrorCode } from '../../common/error-codes.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import type { ChatMessage } from '@common/schemas/chat.ts';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { AppError } from '../../server/src/lib/errors.ts';
import { ShapeCheck } from '../../server/src/lib/shape-check.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * The shape check every test app runs with: an answer whose fields and its route's response
 * schema part ways (a field the schema lacks, which the serializer would drop without a word, or
 * a required one missing) fails loudly with a 500 and is kept for the test to fail on; a push
 * likewise. Proven on throwaway routes, so the real routes' tests can rely on it.
 */

const Car = Type.Object({ id: Type.Integer(), make: Type.String(), price: Type.Integer(), note: Type.Optional(Type.String()) }, { title: 'ShapeTestCar' });
const Owner = Type.Object({ owner: Type.Object({ id: Type.Integer(), name: Type.String() }) });
const CarWithOwner = Type.Intersect([Car, Owner]);
const answers: Record<string, unknown> = {
  exact: { id: 1, make: 'Porsche', price: 118_500 },
  'with-optional': { id: 1, make: 'Porsche', price: 118_500, note: 'One owner' },
  'extra-field': { id: 1, make: 'Porsche', price: 118_500, reservePrice: 100_000 },
  'missing-field': { id: 1, make: 'Porsche' },
  'wrong-type': { id: 1, make: 'Porsche', price: '118500' },
  'extra-nested': { id: 1, make: 'Porsche', price: 118_500, owner: { id: 2, name: 'Ann', email: 'ann@example.com' } },
  'both-parts': { id: 1, make: 'Porsche', price: 118_500, owner: { id: 2, name: 'Ann' } },
  'date-object': { id: 1, make: 'Porsche', price: 118_500, note: new Date('2025-01-01T00:00:00Z') },
};

let database: TestDatabase;
let app: FastifyInstance;
let check: ShapeCheck;

beforeAll(async () => {
  database = await createTestDatabase();
  check = new ShapeCheck();
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lm-shapes-')), LOG_LEVEL: 'silent', SERVE_CLIENT: 'false', DATABASE_URL: database.url ?? '' });
  app = await buildApp(config, { database, shapeCheck: check });
  await app.register(
    async (routes) => {
      const typed = routes.withTypeProvider<TypeBoxTypeProvider>();
      typed.get('/car/:case', { schema: { params: Type.Object({ case: Type.String() }), response: { 200: Envelope(Car) } } }, async (request) => ({
        data: answers[request.params.case] as never,
      }));
      typed.get('/car-with-owner/:case', { schema: { params: Type.Object({ case: Type.String() }), response: { 200: Envelope(CarWithOwner) } } }, async (request) => ({
        data: answers[request.params.case] as never,
      }));
      typed.get('/refused', { schema: { response: { 200: Envelope(Car), ...errorResponses(ErrorCode.LISTING_LOCKED) } } }, async () => {
        throw new AppError(ErrorCode.LISTING_LOCKED, 'The listing is locked');
      });
      typed.get('/undeclared-error', { schema: { response: { 200: Envelope(Car) } } }, async (_request, reply) =>
        reply.status(418 as 200).send({ teapot: true } as never),
      );
      typed.get('/undeclared-success', { schema: { response: { 200: Envelope(Car) } } }, async (_request, reply) =>
        reply.status(202 as 200).send({ data: answers.exact as never }),
      );
    },
    { prefix: '/api/shape-test' },
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

async function answer(url: string) {
  const before = check.mismatches.length;
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, mismatches: check.mismatches.slice(before) };
}

describe('an answer checked against its route response schema', () => {
  it('passes when it carries exactly the fields the schema names (optional ones too)', async () => {
    for (const which of ['exact', 'with-optional']) {
      const { status, body, mismatches } = await answer(`/api/shape-test/car/${which}`);
      expect(status).toBe(200);
      expect(body).toEqual({ data: answers[which] });
      expect(mismatches).toEqual([]);
    }
  });

  it('fails with a 500 on a field the schema lacks, naming the field', async () => {
    const { status, body, mismatches } = await answer('/api/shape-test/car/extra-field');
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(mismatches).toEqual([{ where: 'GET /api/shape-test/car/:case 200', problems: ['/data has reservePrice, which the schema lacks'] }]);
  });

  it('fails on a required field missing, and on a field of the wrong type', async () => {
    const missing = await answer('/api/shape-test/car/missing-field');
    expect(missing.status).toBe(500);
    expect(missing.mismatches).toEqual([{ where: 'GET /api/shape-test/car/:case 200', problems: ['/data lacks price, which the schema requires'] }]);

    const wrong = await answer('/api/shape-test/car/wrong-type');
    expect(wrong.status).toBe(500);
    expect(wrong.mismatches[0]?.problems).toEqual(['/data/price must be integer']);
  });

  it('reads an answer as JSON goes out: a date is its ISO text', async () => {
    const { status, mismatches } = await answer('/api/shape-test/car/date-object');
    expect(status).toBe(200);
    expect(mismatches).toEqual([]);
  });

  it('closes nested objects and an intersection as one object with the fields of all its parts', async () => {
    const both = await answer('/api/shape-test/car-with-owner/both-parts');
    expect(both.status).toBe(200);
    expect(both.mismatches).toEqual([]);

    const nested = await answer('/api/shape-test/car-with-owner/extra-nested');
    expect(nested.status).toBe(500);
    expect(nested.mismatches[0]?.problems).toEqual(['/data/owner has email, which the schema lacks']);

    const partial = await answer('/api/shape-test/car-with-owner/exact');
    expect(partial.status).toBe(500);
    expect(partial.mismatches[0]?.problems).toEqual(['/data lacks owner, which the schema requires']);
  });

  it('holds a failure to the schema of its status, and an undeclared failure status to the contract failure body', async () => {
    const refused = await answer('/api/shape-test/refused');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'The listing is locked', code: 'LISTING_LOCKED' });
    expect(refused.mismatches).toEqual([]);

    const teapot = await answer('/api/shape-test/undeclared-error');
    expect(teapot.status).toBe(500);
    expect(teapot.mismatches[0]?.where).toBe('GET /api/shape-test/undeclared-error 418');
    expect(teapot.mismatches[0]?.problems).toEqual(expect.arrayContaining(['(the body) has teapot, which the schema lacks', '(the body) lacks error, which the schema requires']));
  });

  it('fails on a success status the route does not declare', async () => {
    const { status, mismatches } = await answer('/api/shape-test/undeclared-success');
    expect(status).toBe(500);
    expect(mismatches).toEqual([{ where: 'GET /api/shape-test/undeclared-success 202', problems: ['the route declares no response schema for 202'] }]);
  });

  it('checks a real route as well: the health check answers its schema', async () => {
    const { status, mismatches } = await answer('/api/health');
    expect(status).toBe(200);
    expect(mismatches).toEqual([]);
  });
});

describe('a pushed payload checked against its event schema', () => {
  const message: ChatMessage = { id: 1, carId: 1, userId: 2, userName: 'Ann', message: 'Is the service history complete?', timestamp: '2025-01-01T00:00:00.000Z', type: 'question', role: null, parentId: null, replyCount: 0, upvotes: 0, upvotedByMe: false, authorTags: [], status: 'visible' };

  it('passes a payload with the fields of its schema', () => {
    const before = check.mismatches.length;
    app.events.publish('chat.posted', { message });
    expect(check.mismatches.slice(before)).toEqual([]);
  });

  it('keeps a mismatch for a payload with a field its schema lacks, or without a required one', () => {
    const before = check.mismatches.length;
    app.events.publish('chat.posted', { message: { ...message, email: 'ann@example.com' } as ChatMessage });
    const { role: _role, ...withoutRole } = message;
    app.events.publish('chat.posted', { message: withoutRole as ChatMessage });
    expect(check.mismatches.slice(before)).toEqual([
      { where: 'socket chat:message', problems: ['(the body) has email, which the schema lacks'] },
      { where: 'socket chat:message', problems: ['(the body) lacks role, which the schema requires'] },
    ]);
  });
});
