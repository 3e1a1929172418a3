import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { TestMailbox, tokenFrom } from '../helpers/smtp.ts';
import { TEST_PASSWORD, createUser } from '../helpers/users.ts';

const PASSWORD = 'Corr3ct-Horse!';
const NEW_PASSWORD = 'N3w&Improved?';
const APP_URL = 'https://cars.example.test';

let t: TestApp;
let mailbox: TestMailbox;
const clock = new TestClock();
let seq = 0;
const uniqueEmail = (label: string) => `${label}-${++seq}-${process.pid}@example.com`;

beforeAll(async () => {
  mailbox = new TestMailbox();
  const smtpUrl = await mailbox.start();
  t = await startTestApp(
    {
      SMTP_URL: smtpUrl,
      APP_URL,
      // Generous here; the limits have their own tests below.
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_REGISTER_PER_IP: '10000',
      RATE_LIMIT_RECOVERY_PER_IP: '10000',
      RATE_LIMIT_PER_EMAIL: '10000',
    },
    undefined,
    { clock },
  );
});
afterAll(async () => {
  await t?.close();
  await mailbox?.stop();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/auth/${url}`, payload: payload as object, headers });

async function registerAndVerify(email: string, name = 'Avery Collins') {
  expect((await post('register', { name, email, password: PASSWORD })).statusCode).toBe(201);
  const mail = await mailbox.waitFor((m) => m.to.includes(email.toLowerCase()) && m.subject.includes('Verify'));
  const res = await post('verify-email', { token: tokenFrom(mail, '/verify-email') });
  expect(res.statusCode).toBe(200);
}

/** Registers an account that is left unverified; answers its email and the token its verification mail links to. */
async function registerUnverified(label: string, name: string): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(label);
  expect((await post('register', { name, email, password: PASSWORD })).statusCode).toBe(201);
  const token = tokenFrom(await mailbox.waitFor((m) => m.to.includes(email)), '/verify-email');
  return { email, token };
}

async function login(email: string, password = PASSWORD) {
  const res = await post('login', { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { accessToken: string; refreshToken: string; user: Record<string, unknown> };
}

const profile = (accessToken: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: `Bearer ${accessToken}` } });

describe('registration and verification', () => {
  it('registers, emails a verification link built from APP_URL, verifies and signs in', async () => {
    const email = uniqueEmail('flow');
    const res = await post('register', { name: 'Avery Collins', email, password: PASSWORD }, { host: 'evil.example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.message).toEqual(expect.any(String));

    const mail = await mailbox.waitFor((m) => m.to.includes(email));
    expect(mail.links.some((l) => l.startsWith(`${APP_URL}/verify-email?token=`))).toBe(true);
    expect(mail.body).not.toContain('evil.example.com');
    expect(mail.body).toMatch(/Content-Type: text\/plain/i);
    expect(mail.body).toMatch(/Content-Type: text\/html/i);

    const before = await post('login', { email, password: PASSWORD });
    expect(before.statusCode).toBe(403);
    expect(before.json()).toEqual({ error: 'Email not verified', code: 'EMAIL_NOT_VERIFIED' });

    const token = tokenFrom(mail, '/verify-email');
    expect(token.length).toBeGreaterThanOrEqual(22);
    const verified = await post('verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.user).toMatchObject({ email, name: 'Avery Collins', email_verified: true });

    const session = await login(email);
    // v3 adds `role`; `totp_enabled` is this server's documented extension.
    expect(Object.keys(session.user).sort()).toEqual(['avatar', 'bio', 'created_at', 'email', 'email_verified', 'id', 'location', 'name', 'phone', 'role', 'totp_enabled']);
    expect(session.user).toMatchObject({ role: 'user', totp_enabled: false });
    expect(JSON.stringify(session)).not.toMatch(/argon2|password/i);
    expect((await profile(session.accessToken)).json().data.email).toBe(email);
  });

  it('treats emails case-insensitively', async () => {
    const email = uniqueEmail('case');
    await registerAndVerify(email.toUpperCase());
    expect((await login(email)).user.email).toBe(email);
    expect((await login(email.toUpperCase())).user.email).toBe(email);
  });

  it('verification tokens work once', async () => {
    const { token } = await registerUnverified('once', 'Once');
    expect((await post('verify-email', { token })).statusCode).toBe(200);
    const again = await post('verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('Invalid or expired verification token');
  });

  it('verification tokens expire after 24 hours', async () => {
    const { token } = await registerUnverified('expire', 'Late');
    clock.advance(24 * 3_600_000 + 1_000);
    const res = await post('verify-email', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid or expired verification token');
  });

  it('a resent link replaces the older one', async () => {
    const { email, token: first } = await registerUnverified('resend', 'Resend');
    expect((await post('resend-verification', { email })).statusCode).toBe(200);
    const second = await mailbox.waitFor((m) => m.to.includes(email) && tokenFrom(m, '/verify-email') !== first);
    expect((await post('verify-email', { token: first })).statusCode).toBe(400);
    expect((await post('verify-email', { token: tokenFrom(second, '/verify-email') })).statusCode).toBe(200);
  });

  it('answers missing and forged verification tokens with the contract texts', async () => {
    expect((await post('verify-email', {})).json().error).toBe('No verification token provided');
    expect((await post('verify-email', { token: '' })).json().error).toBe('No verification token provided');
    const forged = await post('verify-email', { token: 'a'.repeat(43) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('Invalid or expired verification token');
  });

  it('enforces the password rules on the server', async () => {
    for (const password of ['short1!A', 'nouppercase1!', 'NOLOWERCASE1!', 'NoNumber!!', 'NoSpecial11', `Aa1!${'x'.repeat(125)}`]) {
      const res = await post('register', { name: 'Rules', email: uniqueEmail('rules'), password });
      if (password === 'short1!A') {
        expect(res.statusCode, password).toBe(201);
        continue;
      }
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Please meet all password requirements', code: 'VALIDATION_FAILED' });
      expect(res.json().details[0]).toMatchObject({ field: 'password' });
    }
  });

  it('checks the password exactly as typed', async () => {
    const email = uniqueEmail('exact');
    await registerAndVerify(email);
    for (const variant of [` ${PASSWORD}`, `${PASSWORD} `, PASSWORD.toLowerCase(), PASSWORD.toUpperCase()]) {
      expect((await post('login', { email, password: variant })).statusCode, variant).toBe(401);
    }
  });

  it('rejects malformed bodies in the contract shape', async () => {
    const cases = [
      { name: 'x', email: 'not-an-email', password: PASSWORD },
      { email: uniqueEmail('missing'), password: PASSWORD },
      { name: 'x', email: uniqueEmail('extra'), password: PASSWORD, email_verified: true },
      { name: 'x', email: 42, password: PASSWORD },
    ];
    for (const payload of cases) {
      const res = await post('register', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: expect.any(Array) });
    }
    const text = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: 'email=a', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toEqual(expect.any(String));
    const huge = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.co', password: 'x'.repeat(200_000) } });
    expect(huge.statusCode).toBe(413);
  });
});

describe('no account enumeration', () => {
  it('register, resend and forgot answer identically for known and unknown addresses', async () => {
    const known = uniqueEmail('known');
    await registerAndVerify(known);
    const unknown = uniqueEmail('unknown');
    for (const [path, body] of [
      ['register', (email: string) => ({ name: 'Someone', email, password: PASSWORD })],
      ['resend-verification', (email: string) => ({ email })],
      ['forgot-password', (email: string) => ({ email })],
    ] as const) {
      const a = await post(path, body(known));
      const b = await post(path, body(unknown));
      expect(a.statusCode, path).toBe(b.statusCode);
      expect(a.json(), path).toEqual(b.json());
    }
    // The real owner learns that someone tried to register with their address.
    const notice = await mailbox.waitFor((m) => m.to.includes(known) && /tried to register/i.test(m.subject));
    expect(notice.body).toContain(`${APP_URL}/login`);
  });

  it('login says the same for an unknown email and a wrong password', async () => {
    const email = uniqueEmail('enum');
    await registerAndVerify(email);
    const wrong = await post('login', { email, password: 'Wr0ng-Password!' });
    const missing = await post('login', { email: uniqueEmail('nobody'), password: 'Wr0ng-Password!' });
    expect(wrong.statusCode).toBe(401);
    expect(missing.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    expect(missing.json()).toEqual(wrong.json());
  });

  it('only says "Email not verified" after a correct password', async () => {
    const email = uniqueEmail('unverified');
    await post('register', { name: 'Pending', email, password: PASSWORD });
    expect((await post('login', { email, password: 'Wr0ng-Password!' })).statusCode).toBe(401);
    expect((await post('login', { email, password: PASSWORD })).json().code).toBe('EMAIL_NOT_VERIFIED');
  });
});

describe('sessions', () => {
  it('rotates refresh tokens; reusing a spent one revokes the whole session', async () => {
    const user = await createUser(t);
    const first = await post('refresh-token', { refreshToken: user.refreshToken });
    expect(first.statusCode).toBe(200);
    const next = first.json().data;
    expect(next.refreshToken).not.toBe(user.refreshToken);
    expect((await profile(next.accessToken)).statusCode).toBe(200);

    const reuse = await post('refresh-token', { refreshToken: user.refreshToken });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('UNAUTHORIZED');
    // The thief's copy and the legitimate one both stop working.
    expect((await post('refresh-token', { refreshToken: next.refreshToken })).statusCode).toBe(401);
    expect((await profile(next.accessToken)).statusCode).toBe(401);
  });

  it('logout stops that session at once, leaves other sessions alone, and is idempotent', async () => {
    const user = await createUser(t);
    const other = await login(user.email, TEST_PASSWORD);
    expect((await profile(user.accessToken)).statusCode).toBe(200);
    const out = await post('logout', { refreshToken: user.refreshToken });
    expect(out.statusCode).toBe(200);
    expect((await profile(user.accessToken)).statusCode).toBe(401);
    expect((await post('refresh-token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    expect((await profile(other.accessToken)).statusCode).toBe(200);
    expect((await post('logout', { refreshToken: user.refreshToken })).statusCode).toBe(200);
    expect((await post('logout', { refreshToken: 'never-issued' })).statusCode).toBe(200);
  });

  it('access tokens expire after 15 minutes and refresh keeps the session going', async () => {
    const user = await createUser(t);
    clock.advance(15 * 60_000 + 1_000);
    expect((await profile(user.accessToken)).statusCode).toBe(401);
    const refreshed = await post('refresh-token', { refreshToken: user.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    expect((await profile(refreshed.json().data.accessToken)).statusCode).toBe(200);
  });

  describe('forged access tokens are refused', () => {
    const secret = () => new TextEncoder().encode(t.config.jwtSecret);
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

    it.each([
      ['alg none', async (sub: string, sid: string) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub, sid, iss: 'luxemotors', exp: 9_999_999_999 })}.`],
      ['wrong key', async (sub: string, sid: string) =>
        new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer('luxemotors').setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(48)))],
      ['expired', async (sub: string, sid: string) =>
        new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer('luxemotors').setIssuedAt(1_000).setExpirationTime(2_000).sign(secret())],
      ['HS512 with the right key', async (sub: string, sid: string) =>
        new SignJWT({ sid }).setProtectedHeader({ alg: 'HS512' }).setSubject(sub).setIssuer('luxemotors').setExpirationTime('1h').sign(secret())],
      ['garbage', async () => 'not.a.token'],
    ])('%s', async (_label, forge) => {
      const user = await createUser(t);
      const [, payload] = user.accessToken.split('.');
      const { sub, sid } = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const res = await profile(await forge(sub, sid));
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    });

    it('edited claims (another user id) break the signature', async () => {
      const victim = await createUser(t);
      const attacker = await createUser(t);
      const [header, payload, signature] = attacker.accessToken.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const edited = `${header}.${b64({ ...claims, sub: String(victim.id) })}.${signature}`;
      expect((await profile(edited)).statusCode).toBe(401);
    });
  });

  it('routes that need a user answer 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/profile' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' });
  });
});

describe('password reset', () => {
  it('resets with the emailed link, revokes every session, and notifies the owner', async () => {
    const email = uniqueEmail('reset');
    await registerAndVerify(email, 'Riley Reset');
    const a = await login(email);
    const b = await login(email);
    expect((await post('forgot-password', { email })).statusCode).toBe(200);
    const mail = await mailbox.waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject));
    const token = tokenFrom(mail, '/reset-password');
    expect(mail.links.some((l) => l.startsWith(`${APP_URL}/reset-password?token=`))).toBe(true);

    const weak = await post('reset-password', { token, newPassword: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('Please meet all password requirements');

    const res = await post('reset-password', { token, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    for (const session of [a, b]) {
      expect((await profile(session.accessToken)).statusCode).toBe(401);
      expect((await post('refresh-token', { refreshToken: session.refreshToken })).statusCode).toBe(401);
    }
    expect((await post('login', { email, password: PASSWORD })).statusCode).toBe(401);
    await login(email, NEW_PASSWORD);
    await mailbox.waitFor((m) => m.to.includes(email) && /password was changed/i.test(m.subject));

    const reused = await post('reset-password', { token, newPassword: 'An0ther!Pass' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('Invalid reset token');
  });

  it('reset links expire after an hour', async () => {
    const email = uniqueEmail('reset-expiry');
    await registerAndVerify(email);
    await post('forgot-password', { email });
    const token = tokenFrom(await mailbox.waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject)), '/reset-password');
    clock.advance(3_600_000 + 1_000);
    const res = await post('reset-password', { token, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid reset token');
  });

  it('needs a token', async () => {
    const res = await post('reset-password', { newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid or missing reset token');
  });
});

describe('profile', () => {
  it('updates the allowed fields', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: user.auth,
      payload: { name: 'Jordan Lee', bio: 'Collector of air-cooled 911s', phone: '+1 (305) 555-0100', location: 'Miami, FL', avatar: 'https://img.example.com/j.png' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Jordan Lee', bio: 'Collector of air-cooled 911s', phone: '+1 (305) 555-0100', location: 'Miami, FL', avatar: 'https://img.example.com/j.png', email: user.email });
    const cleared = await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: user.auth, payload: { bio: null } });
    expect(cleared.json().data.bio).toBeNull();
  });

  it.each([{ email: 'new@example.com' }, { email_verified: true }, { id: 1 }, { role: 'admin' }, { name: 'Ok', password_hash: 'x' }])(
    'refuses %j and changes nothing',
    async (payload) => {
      const user = await createUser(t);
      const before = (await profile(user.accessToken)).json().data;
      const res = await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: user.auth, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect((await profile(user.accessToken)).json().data).toEqual(before);
    },
  );

  it.each([{ name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { bio: 'x'.repeat(501) }, { phone: 'call me' }, { avatar: 'javascript:alert(1)' }])(
    'validates lengths and formats: %j',
    async (payload) => {
      const user = await createUser(t);
      const res = await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: user.auth, payload });
      expect(res.statusCode).toBe(400);
    },
  );
});

describe('failed sign-in lockout per account', () => {
  it('locks an account after 10 failures in 15 minutes, then lets it in once the window passes', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++) expect((await post('login', { email: user.email, password: 'Wr0ng-Password!' })).statusCode).toBe(401);
    const locked = await post('login', { email: user.email, password: TEST_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
    // Another account is unaffected.
    const other = await createUser(t);
    expect((await post('login', { email: other.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    clock.advance(15 * 60_000 + 1_000);
    expect((await post('login', { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});
