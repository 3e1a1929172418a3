import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { InjectOptions } from 'fastify';
import { ERROR_CODES, ErrorCode, isErrorCode, statusesOf } from '@common/error-codes.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderApi } from '../helpers/escrow.ts';
import { connectSocket, emitAck, type ClientSocket } from '../helpers/sockets.ts';
import { createStaff, enrolTotp, login, wrongTotpCode } from '../helpers/staff.ts';
import { createUser, TEST_PASSWORD, type SignedInUser } from '../helpers/users.ts';

/**
 * Failures of every kind, provoked as the other tests provoke them, each checked against
 * common/error-codes.ts: the code is in the list, the status is the list's, the body is the
 * contract's `{error, code, details?}` and nothing else.
 */

const METRICS_TOKEN = 'error-codes-metrics-token-0123456789';
let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await startTestApp({ METRICS: 'true', METRICS_TOKEN });
  url = await t.listen();
});
afterAll(async () => {
  await t?.close();
});

/** Checks one failure answer against the list, then that it is the expected one. */
function expectAnswer(status: number, body: unknown, expected: ErrorCode, expectedStatus?: number): void {
  const { error, code, details: _details, ...rest } = body as Record<string, unknown>;
  expect(isErrorCode(code), `code ${String(code)} is in the list`).toBe(true);
  expect(statusesOf(code as ErrorCode), `${String(code)} answered with ${status}`).toContain(status);
  expect(typeof error === 'string' && error.length > 0, `${String(code)} has a sentence`).toBe(true);
  expect(rest, `${String(code)}: no field beyond error, code and details`).toEqual({});
  expect(code).toBe(expected);
  expect(status).toBe(expectedStatus ?? ERROR_CODES[expected].status);
}

async function refused(request: InjectOptions, expected: ErrorCode, expectedStatus?: number) {
  const res = await t.app.inject(request);
  expectAnswer(res.statusCode, res.json(), expected, expectedStatus);
  return res;
}

const as = (user: SignedInUser) => user.auth;

describe('the edge: bodies, paths and tokens', () => {
  it('answers malformed, foreign, oversized and invalid bodies with their codes', async () => {
    await refused({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }, ErrorCode.INVALID_BODY);
    await refused({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'hello' }, ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    await refused({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x'.repeat(70_000) }) }, ErrorCode.PAYLOAD_TOO_LARGE);
    const invalid = await refused({ method: 'GET', url: '/api/cars?limit=500' }, ErrorCode.VALIDATION_FAILED);
    expect(invalid.json().details).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('answers unknown routes, records and ids, and paths no router accepts, in the contract’s shape', async () => {
    await refused({ method: 'GET', url: '/api/no-such-thing' }, ErrorCode.NOT_FOUND);
    await refused({ method: 'GET', url: '/api/cars/999999' }, ErrorCode.NOT_FOUND);
    await refused({ method: 'GET', url: '/api/cars/abc' }, ErrorCode.NOT_FOUND);
    // Longer than any id (the router refuses it before any route), and a broken percent-escape.
    await refused({ method: 'GET', url: `/api/cars/${'1'.repeat(300)}` }, ErrorCode.NOT_FOUND);
    await refused({ method: 'GET', url: '/api/cars/%E0%A4%A' }, ErrorCode.BAD_REQUEST);
  });

  it('answers a missing, a bad and a wrong token with UNAUTHORIZED', async () => {
    await refused({ method: 'GET', url: '/api/users/profile' }, ErrorCode.UNAUTHORIZED);
    await refused({ method: 'GET', url: '/api/users/profile', headers: { authorization: 'Bearer not-a-token' } }, ErrorCode.UNAUTHORIZED);
    await refused({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } }, ErrorCode.UNAUTHORIZED);
  });
});

describe('accounts', () => {
  it('refuses sign-in, tokens and a flood of reset requests with their codes', async () => {
    const user = await createUser(t);
    await refused({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Wr0ng$password' } }, ErrorCode.UNAUTHORIZED);
    const unverified = await createUser(t, { verified: false });
    await refused({ method: 'POST', url: '/api/auth/login', payload: { email: unverified.email, password: TEST_PASSWORD } }, ErrorCode.EMAIL_NOT_VERIFIED);
    await refused({ method: 'POST', url: '/api/auth/verify-email', payload: { token: 'no-such-token' } }, ErrorCode.INVALID_TOKEN);
    await refused({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'no-such-token', newPassword: 'An0ther$ecret!' } }, ErrorCode.INVALID_TOKEN);

    const email = `flood-${process.pid}@example.com`;
    let last;
    for (let i = 0; i < 10; i++) {
      last = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: '10.9.0.1' });
      if (last.statusCode !== 200) break;
    }
    expectAnswer(last!.statusCode, last!.json(), ErrorCode.RATE_LIMITED);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers each step of two-factor sign-in out of turn with its code, TOTP_REQUIRED with 401 at sign-in', async () => {
    const user = await createUser(t);
    await refused({ method: 'POST', url: '/api/auth/totp/confirm', headers: as(user), payload: { code: '123456' } }, ErrorCode.TOTP_NOT_STARTED);
    const setup = (await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: as(user) })).json().data as { secret: string };
    const wrong = await refused({ method: 'POST', url: '/api/auth/totp/confirm', headers: as(user), payload: { code: wrongTotpCode(setup.secret) } }, ErrorCode.INVALID_TOTP);
    expect(wrong.json().details).toEqual([{ field: 'code', message: ERROR_CODES.INVALID_TOTP.message }]);

    const enrolled = await createUser(t);
    const { secret } = await enrolTotp(t, enrolled);
    await refused({ method: 'POST', url: '/api/auth/totp/setup', headers: as(enrolled) }, ErrorCode.TOTP_ALREADY_ENABLED);
    const missing = await login(t, enrolled.email);
    expectAnswer(missing.statusCode, missing.json(), ErrorCode.TOTP_REQUIRED, 401);
    const badCode = await login(t, enrolled.email, { totp: wrongTotpCode(secret) });
    expectAnswer(badCode.statusCode, badCode.json(), ErrorCode.INVALID_CREDENTIALS);
  });
});

describe('the back office', () => {
  it('turns away the wrong people with 403 (TOTP_REQUIRED with its second status) and refuses moves on oneself', async () => {
    const user = await createUser(t);
    await refused({ method: 'GET', url: '/api/admin/audit', headers: as(user) }, ErrorCode.NOT_ALLOWED);
    const withoutCode = await createStaff(t, 'operator', { totp: false });
    await refused({ method: 'GET', url: '/api/admin/audit', headers: as(withoutCode) }, ErrorCode.TOTP_REQUIRED, 403);
    const operator = await createStaff(t, 'operator');
    await refused({ method: 'POST', url: `/api/admin/users/${user.id}/role`, headers: as(operator), payload: { role: 'operator', reason: 'Promotion.' } }, ErrorCode.NOT_ALLOWED);
    const admin = await createStaff(t, 'admin');
    await refused({ method: 'POST', url: `/api/admin/users/${admin.id}/suspend`, headers: as(admin), payload: { reason: 'Testing myself.' } }, ErrorCode.NOT_ALLOWED_ON_SELF);
    await refused({ method: 'POST', url: `/api/admin/users/${user.id}/unsuspend`, headers: as(admin), payload: { reason: 'Nothing to lift.' } }, ErrorCode.NOT_SUSPENDED);
  });
});

describe('buying and selling', () => {
  it('refuses bids, orders, offers and replays that the state of things does not allow', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const car = await createListing(t, seller, { price: 120_000 });
    const orders = orderApi(t);

    await refused({ method: 'POST', url: '/api/bids', headers: as(seller), payload: { carId: car.id, amount: car.price } }, ErrorCode.CANNOT_BID_OWN_CAR);
    await refused({ method: 'POST', url: '/api/bids', headers: as(buyer), payload: { carId: car.id, amount: 100 } }, ErrorCode.BID_TOO_LOW);
    const key = { 'idempotency-key': `error-codes-${car.id}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/bids', headers: { ...as(buyer), ...key }, payload: { carId: car.id, amount: car.price } })).statusCode).toBe(201);
    await refused({ method: 'POST', url: '/api/bids', headers: { ...as(buyer), ...key }, payload: { carId: car.id, amount: car.price + 10_000 } }, ErrorCode.IDEMPOTENCY_KEY_REUSED);

    await refused({ method: 'POST', url: '/api/orders', headers: as(seller), payload: { carId: car.id, amount: car.price } }, ErrorCode.CANNOT_BUY_OWN_CAR);
    const repriced = await refused({ method: 'POST', url: '/api/orders', headers: as(buyer), payload: { carId: car.id, amount: car.price - 1_000 } }, ErrorCode.PRICE_CHANGED);
    expect(repriced.json().details).toEqual({ price: car.price });
    const placed = await orders.place(buyer, car);
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json().data.id as number;
    await refused({ method: 'POST', url: '/api/orders', headers: as(buyer), payload: { carId: car.id, amount: car.price } }, ErrorCode.ORDER_EXISTS);
    await refused({ method: 'POST', url: `/api/orders/${orderId}/pay`, headers: as(seller), payload: {} }, ErrorCode.NOT_ALLOWED);
    await refused({ method: 'POST', url: `/api/orders/${orderId}/ship`, headers: as(seller), payload: { carrier: 'Reliable Carriers', trackingNumber: 'RC-1' } }, ErrorCode.INVALID_TRANSITION);
    await refused({ method: 'POST', url: `/api/cars/${car.id}/offers`, headers: as(seller), payload: { amount: 100_000 } }, ErrorCode.NOT_ALLOWED);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/cars/${car.id}`, headers: as(seller) })).statusCode).toBe(200);
    await refused({ method: 'PATCH', url: `/api/cars/${car.id}`, headers: as(seller), payload: { price: 110_000 } }, ErrorCode.LISTING_LOCKED);
    await refused({ method: 'POST', url: '/api/bids', headers: as(buyer), payload: { carId: car.id, amount: car.price + 20_000 } }, ErrorCode.CAR_NOT_AVAILABLE);
  });

  it('refuses a photo that is not one, and a saved search beyond the limit', async () => {
    const seller = await createUser(t);
    const car = await createListing(t, seller);
    const json = await fetch(`${url}/api/cars/${car.id}/images`, { method: 'POST', headers: { ...as(seller), 'content-type': 'application/json' }, body: '{}' });
    expectAnswer(json.status, await json.json(), ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    const form = new FormData();
    form.append('file', new Blob(['plain text, not a photo']), 'notes.jpg');
    const text = await fetch(`${url}/api/cars/${car.id}/images`, { method: 'POST', headers: as(seller), body: form });
    expectAnswer(text.status, await text.json(), ErrorCode.UNSUPPORTED_MEDIA_TYPE);

    for (let i = 0; i < 20; i++) {
      const saved = await t.app.inject({ method: 'POST', url: '/api/saved-searches', headers: as(seller), payload: { name: `Search ${i}`, query: { make: 'Porsche' }, alerts: 'off' } });
      expect(saved.statusCode, saved.body).toBe(201);
    }
    await refused({ method: 'POST', url: '/api/saved-searches', headers: as(seller), payload: { name: 'One too many', query: { make: 'Porsche' }, alerts: 'off' } }, ErrorCode.LIMIT_REACHED);
  });
});

describe('real time', () => {
  let socket: ClientSocket | undefined;
  afterAll(() => {
    socket?.close();
  });

  it('answers refused socket events through the ack with a listed code', async () => {
    socket = await connectSocket(url);
    const unknown = await emitAck(socket, 'car:join', { carId: 999_999 });
    expect(unknown).toEqual({ ok: false, error: 'Car not found', code: ErrorCode.NOT_FOUND });
    const malformed = await emitAck(socket, 'car:join', { carId: 'seven' });
    expect(malformed).toMatchObject({ ok: false, code: ErrorCode.VALIDATION_FAILED });
    for (const ack of [unknown, malformed]) expect(isErrorCode(ack.code)).toBe(true);
  });

  it('refuses a feed upgrade from a foreign page or with a bad token with the list’s status', async () => {
    const upgrade = (options: { origin: string }, query = '') =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/stream${query}`, options);
        ws.once('open', () => reject(new Error('upgraded')));
        ws.once('unexpected-response', (_req, res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        ws.once('error', reject);
      });
    const foreign = await upgrade({ origin: 'https://evil.example.com' });
    expectAnswer(foreign.status, foreign.body, ErrorCode.FORBIDDEN_ORIGIN);
    const badToken = await upgrade({ origin: url }, '?token=bad');
    expectAnswer(badToken.status, badToken.body, ErrorCode.UNAUTHORIZED);
  });
});
