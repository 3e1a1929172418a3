import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_REGISTER_PER_IP: '3', RATE_LIMIT_PER_EMAIL: '2', RATE_LIMIT_LOGIN_PER_IP: '4', RATE_LIMIT_RECOVERY_PER_IP: '50' });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, remoteAddress = '10.0.0.1', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/auth/${url}`, payload, remoteAddress, headers });

describe('rate limits', () => {
  it('limits registrations per address with a 429 in the contract shape and Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await post('register', { name: 'A', email: `ip${i}@example.com`, password: 'Str0ng!pass' })).statusCode).toBe(201);
    }
    const res = await post('register', { name: 'A', email: 'ip4@example.com', password: 'Str0ng!pass' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: expect.any(String), code: 'RATE_LIMITED' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await post('register', { name: 'A', email: 'ip5@example.com', password: 'Str0ng!pass' }, '10.0.0.2')).statusCode).toBe(201);
  });

  it('a forged X-Forwarded-For does not escape the per-address limit', async () => {
    for (let i = 0; i < 4; i++) await post('login', { email: `nobody${i}@example.com`, password: 'x' }, '10.0.0.3', { 'x-forwarded-for': `192.0.2.${i}` });
    const res = await post('login', { email: 'nobody9@example.com', password: 'x' }, '10.0.0.3', { 'x-forwarded-for': '198.51.100.7' });
    expect(res.statusCode).toBe(429);
  });

  it('limits emails sent to one address, whichever address asks', async () => {
    expect((await post('forgot-password', { email: 'target@example.com' }, '10.0.1.1')).statusCode).toBe(200);
    expect((await post('forgot-password', { email: 'TARGET@example.com' }, '10.0.1.2')).statusCode).toBe(200);
    expect((await post('forgot-password', { email: 'target@example.com' }, '10.0.1.3')).statusCode).toBe(429);
    expect((await post('forgot-password', { email: 'someone-else@example.com' }, '10.0.1.3')).statusCode).toBe(200);
  });
});
