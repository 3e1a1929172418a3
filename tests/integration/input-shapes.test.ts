import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, MAX_KEY_LENGTH } from '../../server/src/plugins/input-limits.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing } from '../helpers/escrow.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * Input shapes that could be turned against the server (deep nesting, prototype keys, huge
 * arrays, long keys): each is a 400 in the contract's shape on every kind of route, and the
 * server keeps serving. (Before the iterative check, 10,000 levels overflowed the stack: a 500.)
 */

let t: TestApp;
let user: SignedInUser;
let carId: number;

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
  carId = (await createListing(t, await createUser(t))).id;
});
afterAll(async () => {
  await t?.close();
});

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const routes = () => [
  ['POST', '/api/bids'],
  ['POST', '/api/orders'],
  ['POST', '/api/auth/login'],
  ['POST', `/api/cars/${carId}/offers`],
  ['POST', '/api/saved-searches'],
  ['PATCH', `/api/cars/${carId}`],
] as const;

const send = (method: 'POST' | 'PATCH', url: string, payload: string) =>
  t.app.inject({ method, url, payload, headers: { ...user.auth, 'content-type': 'application/json' } });

describe('hostile JSON shapes', () => {
  it.each([
    ['10,000 levels of objects (40 KB)', nested(10_000)],
    ['10,000 levels of arrays', nestedArrays(10_000)],
    [`${MAX_INPUT_DEPTH + 1} levels`, nested(MAX_INPUT_DEPTH + 1)],
    ['a 30,000-item array (60 KB, under the body limit)', `{"carId":1,"amount":[${'0,'.repeat(29_999)}0]}`],
    ['a key longer than the limit', `{"${'k'.repeat(MAX_KEY_LENGTH + 1)}":1}`],
    ['a __proto__ key', '{"carId":1,"amount":100,"__proto__":{"admin":true}}'],
    ['a constructor.prototype key', '{"carId":1,"amount":100,"constructor":{"prototype":{"admin":true}}}'],
    ['a NUL in a nested key', '{"query":{"ma\\u0000ke":"x"}}'],
  ])('%s: 400 on every route that takes a body', async (_, payload) => {
    for (const [method, url] of routes()) {
      const res = await send(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    // The server still answers a good request.
    expect((await t.app.inject({ method: 'GET', url: `/api/cars/${carId}` })).statusCode).toBe(200);
  });

  it('names the field of a NUL and keeps ordinary nesting working', async () => {
    const res = await send('POST', '/api/saved-searches', JSON.stringify({ name: 'Ok', query: { make: 'Por\u0000sche' }, alerts: 'off' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('query.make');
    const fine = await send('POST', '/api/saved-searches', JSON.stringify({ name: 'Ok', query: { make: 'Porsche' }, alerts: 'off' }));
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it('answers the deepest nesting allowed with the route\'s own validation, not a refusal of the shape', async () => {
    const res = await send('POST', '/api/bids', nested(MAX_INPUT_DEPTH - 1));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message).join()).not.toMatch(/nests deeper/);
  });
});
