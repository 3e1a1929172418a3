import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellers } from '../../db/schema/index.ts';
import type { AdminTicket, AdminUser, LedgerEntry, LedgerTotals } from '@common/schemas/admin.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderApi, orderIn, waitForOrder } from '../helpers/escrow.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { connectSocket, nextEvent, waitUntil, type ClientSocket } from '../helpers/sockets.ts';
import { apiCalls, auditEntries, createStaff, enrolTotp, login, newestAuditId, signIn, totpCode, wrongTotpCode, type StaffUser } from '../helpers/staff.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** Three failed sign-ins lock an account here (ten by default), so the lockout test stays short. */
const FAILURES_BEFORE_LOCKOUT = 3;

let t: TestApp;
let mailbox: TestMailbox;
let api: ReturnType<typeof apiCalls>;
let orders: ReturnType<typeof orderApi>;
let admin: StaffUser;
let operator: StaffUser;
let operator2: StaffUser;
const sockets: ClientSocket[] = [];
let seq = 0;
const unique = (label: string) => `${label}${process.pid}x${++seq}`;

beforeAll(async () => {
  mailbox = new TestMailbox();
  t = await startTestApp({
    SMTP_URL: await mailbox.start(),
    JOB_POLL_SECONDS: '0.5',
    RATE_LIMIT_LOGIN_PER_IP: '10000',
    RATE_LIMIT_REGISTER_PER_IP: '10000',
    RATE_LIMIT_RECOVERY_PER_IP: '10000',
    RATE_LIMIT_PER_EMAIL: '10000',
    LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_BEFORE_LOCKOUT),
  });
  await t.listen();
  api = apiCalls(t);
  orders = orderApi(t);
  admin = await createStaff(t, 'admin', { name: 'Ada Admin' });
  operator = await createStaff(t, 'operator', { name: 'Otto Operator' });
  operator2 = await createStaff(t, 'operator', { name: 'Olga Operator' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
  await mailbox?.stop();
});

const reason = (what: string) => `${what} (${unique('r')})`;

async function adminUser(user: { id: number; email: string }): Promise<AdminUser> {
  const res = await api.get(admin, `/api/admin/users?search=${encodeURIComponent(user.email)}`);
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json().data.users as AdminUser[]).find((u) => u.id === user.id);
  expect(found, `${user.email} in /api/admin/users`).toBeDefined();
  return found!;
}

async function adminTickets(status?: string): Promise<AdminTicket[]> {
  const res = await api.get(admin, `/api/admin/tickets${status ? `?status=${status}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.tickets;
}

/** A support ticket filed by a visitor, and its numeric id in the console. */
async function fileTicket(email = `${unique('asker')}@example.com`): Promise<{ reference: string; id: number; email: string }> {
  const filed = await api.post(undefined, '/api/support/tickets', { subject: 'Where is my title?', message: 'The seller has not sent the title yet.', email });
  expect(filed.statusCode, filed.body).toBe(201);
  const reference = filed.json().data.id as string;
  const ticket = (await adminTickets()).find((x) => x.reference === reference);
  expect(ticket, `ticket ${reference} in /api/admin/tickets`).toBeDefined();
  return { reference, id: ticket!.id, email };
}

async function carStatus(viewer: SignedInUser | undefined, carId: number): Promise<{ code: number; status?: string; sellerVerified?: boolean }> {
  const res = await api.get(viewer, `/api/cars/${carId}`);
  return res.statusCode === 200 ? { code: 200, status: res.json().data.status, sellerVerified: res.json().data.seller.verified } : { code: res.statusCode };
}

/** Whether `carId` is in the public listing, found by its (unique) model. */
async function listed(car: { id: number; model: string }): Promise<boolean> {
  const res = await api.get(undefined, `/api/cars?limit=50&search=${encodeURIComponent(car.model)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.cars as { id: number }[]).some((c) => c.id === car.id);
}

async function uniqueListing(seller: SignedInUser, options: { price?: number } = {}) {
  const model = unique('Zonda');
  const car = await createListing(t, seller, { make: 'Pagani', model, ...options });
  return { ...car, model };
}

async function ledger(query = ''): Promise<{ entries: LedgerEntry[]; totals: LedgerTotals }> {
  const res = await api.get(admin, `/api/admin/ledger${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const latestAudit = async (query: Record<string, string | number>) => (await auditEntries(t, admin, query))[0];

// ── 1. Who reaches the console ────────────────────────────────────────────────────────────

interface Fixtures {
  buyer: SignedInUser;
  seller: SignedInUser;
  order: OrderWithEvents;
  target: SignedInUser;
  suspended: SignedInUser;
  car: { id: number; model: string };
  hiddenCar: { id: number; model: string };
  ticket: { id: number; reference: string };
}

interface AdminRoute {
  name: string;
  method: 'GET' | 'POST';
  url: (f: Fixtures, id?: string) => string;
  /** A body that would succeed for a caller allowed to send it. */
  body?: (f: Fixtures) => Record<string, unknown>;
  /** The field that carries the reason (`message` for a ticket reply). */
  reasonField?: 'reason' | 'message';
  maxLength?: number;
  adminOnly?: boolean;
}

const ROUTES: AdminRoute[] = [
  { name: 'GET overview', method: 'GET', url: () => '/api/admin/overview' },
  { name: 'GET disputes', method: 'GET', url: () => '/api/admin/disputes' },
  { name: 'GET ledger', method: 'GET', url: () => '/api/admin/ledger' },
  { name: 'GET ledger.csv', method: 'GET', url: () => '/api/admin/ledger.csv' },
  { name: 'GET users', method: 'GET', url: () => '/api/admin/users' },
  { name: 'GET tickets', method: 'GET', url: () => '/api/admin/tickets' },
  { name: 'GET flagged-bids', method: 'GET', url: () => '/api/admin/flagged-bids' },
  { name: 'GET audit', method: 'GET', url: () => '/api/admin/audit' },
  {
    name: 'POST orders/:id/resolve',
    method: 'POST',
    url: (f, id) => `/api/admin/orders/${id ?? f.order.id}/resolve`,
    body: () => ({ outcome: 'refund', reason: 'The inspector confirmed the damage.' }),
  },
  { name: 'POST users/:id/suspend', method: 'POST', url: (f, id) => `/api/admin/users/${id ?? f.target.id}/suspend`, body: () => ({ reason: 'Chargeback fraud.' }) },
  { name: 'POST users/:id/unsuspend', method: 'POST', url: (f, id) => `/api/admin/users/${id ?? f.suspended.id}/unsuspend`, body: () => ({ reason: 'Cleared.' }) },
  { name: 'POST users/:id/verify-seller', method: 'POST', url: (f, id) => `/api/admin/users/${id ?? f.target.id}/verify-seller`, body: () => ({ reason: 'Dealer licence checked.' }) },
  {
    name: 'POST users/:id/role',
    method: 'POST',
    url: (f, id) => `/api/admin/users/${id ?? f.target.id}/role`,
    body: () => ({ role: 'operator', reason: 'Joins the support team.' }),
    adminOnly: true,
  },
  { name: 'POST cars/:id/hide', method: 'POST', url: (f, id) => `/api/admin/cars/${id ?? f.car.id}/hide`, body: () => ({ reason: 'Stock photos.' }) },
  { name: 'POST cars/:id/restore', method: 'POST', url: (f, id) => `/api/admin/cars/${id ?? f.hiddenCar.id}/restore`, body: () => ({ reason: 'Real photos uploaded.' }) },
  {
    name: 'POST tickets/:id/reply',
    method: 'POST',
    url: (f, id) => `/api/admin/tickets/${id ?? f.ticket.id}/reply`,
    body: () => ({ message: 'We are on it.' }),
    reasonField: 'message',
    maxLength: 5_000,
  },
];
const WRITES = ROUTES.filter((r) => r.method === 'POST');

describe('who reaches the console', () => {
  let f: Fixtures;
  /** Signed in with a password only: two-factor sign-in not set up. */
  let operatorNoTotp: StaffUser;
  /** Two-factor sign-in set up on another session; this one was signed in before, with a password only. */
  let operatorOtherSession: StaffUser;
  let plainUser: SignedInUser;
  let plainUserWithTotp: SignedInUser;

  beforeAll(async () => {
    const [buyer, seller, target, suspended] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
    const order = await orderIn(t, 'disputed', buyer, seller);
    const car = await uniqueListing(target);
    await t.database.db.update(sellers).set({ verified: false }).where(eq(sellers.userId, target.id));
    const hiddenCar = await uniqueListing(seller);
    expect((await api.post(operator, `/api/admin/cars/${hiddenCar.id}/hide`, { reason: 'Set up for the matrix' })).statusCode).toBe(200);
    expect((await api.post(operator, `/api/admin/users/${suspended.id}/suspend`, { reason: 'Set up for the matrix' })).statusCode).toBe(200);
    const ticket = await fileTicket();
    f = { buyer, seller, order, target, suspended, car, hiddenCar, ticket };

    operatorNoTotp = await createStaff(t, 'operator', { totp: false });
    const twoSessions = await createStaff(t, 'operator', { totp: false });
    operatorOtherSession = await signIn(t, twoSessions);
    await enrolTotp(t, twoSessions);
    plainUser = await createUser(t);
    plainUserWithTotp = await createUser(t);
    await enrolTotp(t, plainUserWithTotp);
  });

  /** Everything the refused calls could have changed, and the newest audit entry. */
  async function snapshot() {
    const [target, suspended] = [await adminUser(f.target), await adminUser(f.suspended)];
    return {
      order: (await orders.get(f.buyer, f.order.id)).json().data.status,
      target: { role: target.role, status: target.status, sellerVerified: target.sellerVerified },
      targetSession: (await api.get(f.target, '/api/users/profile')).statusCode,
      suspended: suspended.status,
      car: await carStatus(admin, f.car.id),
      hiddenCar: await carStatus(admin, f.hiddenCar.id),
      ticket: (await adminTickets()).find((x) => x.id === f.ticket.id)?.status,
      newestAudit: await newestAuditId(t, admin),
    };
  }

  async function expectNothingChanged(refuse: () => Promise<void>) {
    const before = await snapshot();
    expect(before).toMatchObject({ order: 'disputed', targetSession: 200, suspended: 'suspended', car: { status: 'active' }, hiddenCar: { status: 'hidden' }, ticket: 'open' });
    await refuse();
    expect(await snapshot()).toEqual(before);
  }

  const send = (route: AdminRoute, caller: SignedInUser | undefined, body = route.body?.(f), id?: string) =>
    api.call(route.method, route.url(f, id), caller, route.method === 'POST' ? body : undefined);

  it('the fixtures are as the refusals expect', async () => {
    expect((await carStatus(undefined, f.car.id)).sellerVerified).toBe(false);
    expect((await adminUser(f.target)).role).toBe('user');
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s: signed out or a bad token 401', async (_name, route) => {
    await expectNothingChanged(async () => {
      for (const caller of [undefined, { ...plainUser, auth: { authorization: 'Bearer not-a-token' } }]) {
        const res = await send(route, caller);
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'UNAUTHORIZED' });
      }
    });
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s: role user 403 NOT_ALLOWED, with or without a second factor', async (_name, route) => {
    await expectNothingChanged(async () => {
      for (const caller of [plainUser, plainUserWithTotp]) {
        const res = await send(route, caller);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'NOT_ALLOWED' });
      }
    });
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s: an operator on a password-only session 403 TOTP_REQUIRED', async (_name, route) => {
    await expectNothingChanged(async () => {
      for (const caller of [operatorNoTotp, operatorOtherSession]) {
        const res = await send(route, caller);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'TOTP_REQUIRED' });
      }
    });
  });

  it('an operator with a second factor may not change roles: 403 NOT_ALLOWED', async () => {
    const route = ROUTES.find((r) => r.adminOnly)!;
    await expectNothingChanged(async () => {
      for (const role of ['operator', 'admin', 'user']) {
        const res = await send(route, operator, { role, reason: 'Promote myself' });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('NOT_ALLOWED');
      }
      // Not even their own.
      const own = await api.post(operator, `/api/admin/users/${operator.id}/role`, { role: 'admin', reason: 'Promote myself' });
      expect(own.statusCode).toBe(403);
    });
    expect((await adminUser(operator)).role).toBe('operator');
  });

  it.each(WRITES.map((r) => [r.name, r] as const))('%s: a missing, blank or too long reason, or an unknown field, 400', async (_name, route) => {
    const field = route.reasonField ?? 'reason';
    const max = route.maxLength ?? 500;
    const caller = route.adminOnly ? admin : operator;
    const valid = route.body!(f);
    const without = Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field));
    await expectNothingChanged(async () => {
      for (const body of [without, { ...valid, [field]: '' }, { ...valid, [field]: '   \n ' }, { ...valid, [field]: 'x'.repeat(max + 1) }, { ...valid, [field]: null }]) {
        const res = await send(route, caller, body);
        expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'VALIDATION_FAILED' });
        expect(res.json().details, res.body).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const extra = await send(route, caller, { ...valid, note: 'sneaked in' });
      expect(extra.statusCode, extra.body).toBe(400);
      expect(extra.json().code).toBe('VALIDATION_FAILED');
    });
  });

  it('accepts a reason of exactly 500 characters', async () => {
    const seller = await createUser(t);
    await uniqueListing(seller);
    await t.database.db.update(sellers).set({ verified: false }).where(eq(sellers.userId, seller.id));
    const res = await api.post(operator, `/api/admin/users/${seller.id}/verify-seller`, { reason: 'y'.repeat(500) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await latestAudit({ targetType: 'user', targetId: seller.id }))?.reason).toBe('y'.repeat(500));
  });

  it.each(WRITES.map((r) => [r.name, r] as const))('%s: unknown or malformed id 404 NOT_FOUND', async (_name, route) => {
    const caller = route.adminOnly ? admin : operator;
    await expectNothingChanged(async () => {
      for (const id of ['2147483647', '0', 'abc', '99999999999']) {
        const res = await send(route, caller, route.body!(f), id);
        expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'NOT_FOUND' });
      }
    });
  });

  it('bad values besides the reason are 400 and change nothing', async () => {
    await expectNothingChanged(async () => {
      const outcome = await api.post(operator, `/api/admin/orders/${f.order.id}/resolve`, { outcome: 'keep', reason: 'Split the difference' });
      expect(outcome.statusCode).toBe(400);
      const role = await api.post(admin, `/api/admin/users/${f.target.id}/role`, { role: 'superuser', reason: 'Why not' });
      expect(role.statusCode).toBe(400);
      const nul = await api.post(operator, `/api/admin/users/${f.target.id}/suspend`, { reason: 'a\u0000b' });
      expect(nul.statusCode).toBe(400);
    });
  });

  it('an operator and an admin with a second-factor session read every GET route', async () => {
    for (const caller of [operator, admin]) {
      for (const route of ROUTES.filter((r) => r.method === 'GET')) {
        const res = await send(route, caller);
        expect(res.statusCode, `${route.name}: ${res.body}`).toBe(200);
      }
    }
  });
});

// ── 2. Two-factor sign-in ─────────────────────────────────────────────────────────────────

describe('two-factor sign-in', () => {
  it('shows the user role and whether two-factor sign-in is on', async () => {
    const user = await createUser(t);
    const res = await login(t, user.email);
    expect(res.json().data.user).toMatchObject({ role: 'user', totp_enabled: false });
    expect((await api.get(user, '/api/users/profile')).json().data).toMatchObject({ role: 'user', totp_enabled: false });
    const staff = await createStaff(t, 'admin');
    const res2 = await login(t, staff.email, { totp: totpCode(staff.totpSecret!) });
    expect(res2.statusCode, res2.body).toBe(200);
    expect(res2.json().data.user).toMatchObject({ role: 'admin', totp_enabled: true });
    expect((await api.get(staff, '/api/users/profile')).json().data).toMatchObject({ role: 'admin', totp_enabled: true });
  });

  it('sets up with an otpauth:// URL for the issuer LuxeMotors, confirms with a code and returns ten recovery codes once', async () => {
    const user = await createStaff(t, 'operator', { totp: false });
    expect((await api.post(undefined, '/api/auth/totp/setup')).statusCode).toBe(401);

    const notStarted = await api.post(user, '/api/auth/totp/confirm', { code: '123456' });
    expect(notStarted.statusCode, notStarted.body).toBe(409);
    expect(notStarted.json().code).toBe('TOTP_NOT_STARTED');

    const setup = await api.post(user, '/api/auth/totp/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauthUrl } = setup.json().data as { secret: string; otpauthUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    expect(otpauthUrl.startsWith('otpauth://totp/')).toBe(true);
    const url = new URL(otpauthUrl);
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('LuxeMotors');
    expect(decodeURIComponent(url.pathname)).toContain('LuxeMotors');
    for (const [key, value] of [['algorithm', 'SHA1'], ['digits', '6'], ['period', '30']] as const) {
      if (url.searchParams.has(key)) expect(url.searchParams.get(key)).toBe(value);
    }
    // Not on yet: sign-in still takes the password alone, and the console still refuses.
    expect((await login(t, user.email)).statusCode).toBe(200);
    expect((await api.get(user, '/api/admin/overview')).json().code).toBe('TOTP_REQUIRED');

    const wrong = await api.post(user, '/api/auth/totp/confirm', { code: wrongTotpCode(secret) });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_TOTP', details: expect.arrayContaining([expect.objectContaining({ field: 'code' })]) });
    expect((await api.get(user, '/api/users/profile')).json().data.totp_enabled).toBe(false);

    const confirmed = await api.post(user, '/api/auth/totp/confirm', { code: totpCode(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = confirmed.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toEqual(expect.any(String));
    expect((await api.get(user, '/api/users/profile')).json().data.totp_enabled).toBe(true);

    // The session that confirmed counts as signed in with the second factor.
    expect((await api.get(user, '/api/admin/overview')).statusCode).toBe(200);

    const again = await api.post(user, '/api/auth/totp/setup');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TOTP_ALREADY_ENABLED');
    const reconfirm = await api.post(user, '/api/auth/totp/confirm', { code: totpCode(secret) });
    expect(reconfirm.statusCode).toBe(409);
    expect(reconfirm.json().code).toBe('TOTP_ALREADY_ENABLED');
    // The stored secret is the one confirmed: the app still works.
    expect((await login(t, user.email, { totp: totpCode(secret) })).statusCode).toBe(200);
  });

  it('then asks for a code at sign-in: missing 401 TOTP_REQUIRED, wrong 401 INVALID_CREDENTIALS, current 200', async () => {
    const user = await createStaff(t, 'operator');
    const secret = user.totpSecret!;
    const missing = await login(t, user.email);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: expect.any(String), code: 'TOTP_REQUIRED' });
    expect(missing.json().data).toBeUndefined();

    const ok = await login(t, user.email, { totp: totpCode(secret) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user).toMatchObject({ id: user.id, role: 'operator', totp_enabled: true });
    const session = { authorization: `Bearer ${ok.json().data.accessToken}` };
    expect((await api.get({ auth: session }, '/api/admin/overview')).statusCode).toBe(200);

    // A wrong password, with or without a good code, is a plain 401 that says nothing about the second factor.
    const wrongPassword = await login(t, user.email, { password: 'Wr0ng-Password!' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().code).not.toBe('TOTP_REQUIRED');
    const wrongPasswordGoodCode = await login(t, user.email, { password: 'Wr0ng-Password!', totp: totpCode(secret, 1) });
    expect(wrongPasswordGoodCode.statusCode).toBe(401);
    expect(wrongPasswordGoodCode.json().code).not.toBe('TOTP_REQUIRED');
  });

  it('accepts a code once: the same code again is refused', async () => {
    const user = await createStaff(t, 'operator');
    const code = totpCode(user.totpSecret!, 1);
    expect((await login(t, user.email, { totp: code })).statusCode).toBe(200);
    const replay = await login(t, user.email, { totp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('accepts each recovery code once, and that session reaches the console', async () => {
    const user = await createStaff(t, 'operator');
    const [first, second] = user.recoveryCodes;
    const used = await login(t, user.email, { totp: first! });
    expect(used.statusCode, used.body).toBe(200);
    expect((await api.get({ auth: { authorization: `Bearer ${used.json().data.accessToken}` } }, '/api/admin/overview')).statusCode).toBe(200);
    const again = await login(t, user.email, { totp: first! });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('INVALID_CREDENTIALS');
    expect((await login(t, user.email, { totp: second! })).statusCode).toBe(200);
    // Another account's code is no use here.
    const other = await createStaff(t, 'operator');
    expect((await login(t, other.email, { totp: user.recoveryCodes[2]! })).statusCode).toBe(401);
  });

  it('counts a wrong code like a wrong password toward the account lockout', async () => {
    const user = await createStaff(t, 'operator');
    const secret = user.totpSecret!;
    for (let i = 0; i < FAILURES_BEFORE_LOCKOUT; i++) {
      const res = await login(t, user.email, { totp: wrongTotpCode(secret) });
      expect(res.statusCode, `attempt ${i + 1}: ${res.body}`).toBe(401);
      expect(res.json().code).toBe('INVALID_CREDENTIALS');
    }
    const locked = await login(t, user.email, { totp: totpCode(secret) });
    expect(locked.statusCode, locked.body).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not count a missing code (after a right password) toward the lockout', async () => {
    const user = await createStaff(t, 'operator');
    for (let i = 0; i < FAILURES_BEFORE_LOCKOUT + 1; i++) expect((await login(t, user.email)).json().code).toBe('TOTP_REQUIRED');
    expect((await login(t, user.email, { totp: totpCode(user.totpSecret!) })).statusCode).toBe(200);
  });

  it('refuses a malformed confirmation body', async () => {
    const user = await createUser(t);
    await api.post(user, '/api/auth/totp/setup');
    for (const body of [{}, { code: '' }, { code: 123456 }, { code: '123456', extra: true }, { code: 'x'.repeat(100) }]) {
      const res = await api.post(user, '/api/auth/totp/confirm', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get(user, '/api/users/profile')).json().data.totp_enabled).toBe(false);
  });
});

// ── 3. Disputes ───────────────────────────────────────────────────────────────────────────

describe('disputes', () => {
  async function disputed() {
    const [buyer, seller] = await Promise.all([createUser(t, { name: 'Dana Buyer' }), createUser(t, { name: 'Sol Seller' })]);
    return { buyer, seller, order: await orderIn(t, 'disputed', buyer, seller) };
  }
  const resolve = (caller: SignedInUser, orderId: number, outcome: string, why: string) => api.post(caller, `/api/admin/orders/${orderId}/resolve`, { outcome, reason: why });

  it('lists open disputes oldest first, with their timelines', async () => {
    const a = await disputed();
    const b = await disputed();
    const calm = await orderIn(t, 'inspection', a.buyer, a.seller);
    const res = await api.get(operator, '/api/admin/disputes');
    expect(res.statusCode, res.body).toBe(200);
    const listedOrders = res.json().data.orders as OrderWithEvents[];
    const ids = listedOrders.map((o) => o.id);
    expect(ids).toContain(a.order.id);
    expect(ids).toContain(b.order.id);
    expect(ids).not.toContain(calm.id);
    expect(ids.indexOf(a.order.id)).toBeLessThan(ids.indexOf(b.order.id));
    for (const order of listedOrders) expect(order.status).toBe('disputed');
    const shown = listedOrders.find((o) => o.id === a.order.id)!;
    expect(shown).toMatchObject({ amount: a.order.amount, buyerId: a.buyer.id });
    expect(shown.events.map((e) => e.to)).toEqual(['awaiting_payment', 'funded', 'in_transit', 'inspection', 'disputed']);
    expect(shown.events.at(-1)).toMatchObject({ actor: 'buyer', note: 'The paint does not match the listing.' });
  });

  it('releases to the seller with the reason as the event note, a payout in the ledger and an audit entry', async () => {
    const { buyer, seller, order } = await disputed();
    const why = reason('The car matches the listing photos');
    const res = await resolve(operator, order.id, 'release', why);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: order.id, status: 'released' });
    const settled = await waitForOrder(t, seller, order.id, (o) => o.payout?.status === 'settled');
    expect(settled.events.at(-1)).toMatchObject({ from: 'disputed', to: 'released', actor: 'operator', note: why });
    expect(settled.payout?.amount).toBe(order.amount);

    const entries = (await ledger()).entries.filter((e) => e.orderId === order.id);
    expect(entries.map((e) => [e.kind, e.amount]).sort()).toEqual([
      ['charge', order.amount + order.escrowFee],
      ['payout', order.amount],
    ]);
    const audit = await auditEntries(t, admin, { targetType: 'order', targetId: order.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'dispute.resolve',
      targetType: 'order',
      targetId: order.id,
      reason: why,
      actor: { id: operator.id, email: operator.email },
      before: expect.objectContaining({ status: 'disputed' }),
      after: expect.objectContaining({ status: 'released' }),
    });
    expect((await api.get(operator, '/api/admin/disputes')).json().data.orders.map((o: { id: number }) => o.id)).not.toContain(order.id);
    expect((await orders.get(buyer, order.id)).json().data.status).toBe('released');
  });

  it('refunds the buyer with a refund in the ledger and an audit entry', async () => {
    const { buyer, order } = await disputed();
    const why = reason('Inspector confirmed the paint damage');
    const res = await resolve(operator2, order.id, 'refund', why);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: order.id, status: 'refunded' });
    const settled = await waitForOrder(t, buyer, order.id, (o) => o.refund?.status === 'settled');
    expect(settled.events.at(-1)).toMatchObject({ from: 'disputed', to: 'refunded', actor: 'operator', note: why });
    const entries = (await ledger()).entries.filter((e) => e.orderId === order.id);
    expect(entries.map((e) => [e.kind, e.amount]).sort()).toEqual([
      ['charge', order.amount + order.escrowFee],
      ['refund', order.amount + order.escrowFee],
    ]);
    expect(await latestAudit({ targetType: 'order', targetId: order.id })).toMatchObject({
      action: 'dispute.resolve',
      reason: why,
      actor: { id: operator2.id, email: operator2.email },
      before: expect.objectContaining({ status: 'disputed' }),
      after: expect.objectContaining({ status: 'refunded' }),
    });
  });

  it('refuses an order that is not disputed with 409 INVALID_TRANSITION and writes nothing', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const calm = await orderIn(t, 'inspection', buyer, seller);
    const { order } = await disputed();
    expect((await resolve(operator, order.id, 'refund', 'First decision')).statusCode).toBe(200);
    const newest = await newestAuditId(t, admin);
    for (const [id, outcome] of [[calm.id, 'refund'], [calm.id, 'release'], [order.id, 'release'], [order.id, 'refund']] as const) {
      const res = await resolve(operator, id, outcome, 'Second thoughts');
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('INVALID_TRANSITION');
    }
    expect(await newestAuditId(t, admin)).toBe(newest);
    expect((await orders.get(buyer, calm.id)).json().data.status).toBe('inspection');
  });

  it('lets one of two operators resolving at once win: one 200, one 409, one payout or refund, one audit entry', async () => {
    const { buyer, order } = await disputed();
    const [a, b] = await Promise.all([resolve(operator, order.id, 'release', 'Seller is right'), resolve(operator2, order.id, 'refund', 'Buyer is right')]);
    expect([a.statusCode, b.statusCode].sort(), `${a.body} / ${b.body}`).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().code).toBe('INVALID_TRANSITION');
    const winner = (a.statusCode === 200 ? a : b).json().data as OrderWithEvents;
    const final = await waitForOrder(t, buyer, order.id, (o) => (o.payout ?? o.refund)?.status === 'settled');
    expect(final.status).toBe(winner.status);
    expect(final.events.filter((e) => e.from === 'disputed')).toHaveLength(1);
    const moves = (await ledger()).entries.filter((e) => e.orderId === order.id && e.kind !== 'charge');
    expect(moves).toHaveLength(1);
    expect(moves[0]!.kind).toBe(winner.status === 'released' ? 'payout' : 'refund');
    const audit = await auditEntries(t, admin, { action: 'dispute.resolve', targetId: order.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toEqual(expect.objectContaining({ status: winner.status }));
  });
});

// ── 4. The ledger ─────────────────────────────────────────────────────────────────────────

describe('ledger', () => {
  let byOrder: Map<string, OrderWithEvents>;

  beforeAll(async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const funded = await orderIn(t, 'funded', buyer, seller);
    const awaiting = await orderIn(t, 'awaiting_payment', buyer, seller);
    const accepting = await orderIn(t, 'inspection', buyer, seller);
    expect((await orders.act(buyer, accepting.id, 'accept')).statusCode).toBe(200);
    const disputed = await orderIn(t, 'disputed', buyer, seller);
    expect((await api.post(operator, `/api/admin/orders/${disputed.id}/resolve`, { outcome: 'refund', reason: 'Ledger test' })).statusCode).toBe(200);
    const released = await waitForOrder(t, seller, accepting.id, (o) => o.payout?.status === 'settled');
    const refunded = await waitForOrder(t, buyer, disputed.id, (o) => o.refund?.status === 'settled');
    byOrder = new Map([
      ['funded', funded],
      ['awaiting', awaiting],
      ['released', released],
      ['refunded', refunded],
    ]);
    // Every movement in the file has settled, so totals and entries tell the same story.
    await waitUntil(async () => (await ledger()).entries.every((e) => e.status === 'settled'), 20_000, 'every ledger entry settled');
  });

  it('lists charges, payouts and refunds per order, with totals that balance', async () => {
    const { entries, totals } = await ledger();
    const of = (key: string) =>
      entries
        .filter((e) => e.orderId === byOrder.get(key)!.id)
        .map((e) => [e.kind, e.amount])
        .sort();
    const charged = (o: OrderWithEvents) => o.amount + o.escrowFee;
    expect(of('awaiting')).toEqual([]);
    expect(of('funded')).toEqual([['charge', charged(byOrder.get('funded')!)]]);
    expect(of('released')).toEqual([
      ['charge', charged(byOrder.get('released')!)],
      ['payout', byOrder.get('released')!.amount],
    ]);
    expect(of('refunded')).toEqual([
      ['charge', charged(byOrder.get('refunded')!)],
      ['refund', charged(byOrder.get('refunded')!)],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ id: expect.any(Number), orderId: expect.any(Number), amount: expect.any(Number), at: expect.any(String) });
      expect(['charge', 'payout', 'refund']).toContain(entry.kind);
      expect(Number.isInteger(entry.amount)).toBe(true);
    }
    const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
    expect(totals).toMatchObject({ charged: sum('charge'), paidOut: sum('payout'), refunded: sum('refund'), held: expect.any(Number) });
    expect(totals.charged).toBe(totals.paidOut + totals.refunded + totals.held);
    expect(totals.held).toBeGreaterThanOrEqual(charged(byOrder.get('funded')!));

    const overview = (await api.get(operator, '/api/admin/overview')).json().data;
    expect(overview).toMatchObject({
      ordersByStatus: expect.any(Object),
      escrowHeld: totals.held,
      payoutsPending: expect.any(Number),
      refundsPending: expect.any(Number),
      disputesOpen: expect.any(Number),
      flaggedBids: expect.any(Number),
      ticketsOpen: expect.any(Number),
    });
    // Counted by status: at least this file's funded order and the matrix's open dispute.
    expect(overview.ordersByStatus, JSON.stringify(overview)).toMatchObject({ funded: expect.any(Number), disputed: overview.disputesOpen });
  });

  it('filters by date range', async () => {
    const { entries } = await ledger();
    const pivot = entries.find((e) => e.orderId === byOrder.get('released')!.id && e.kind === 'payout')!;
    const at = Date.parse(pivot.at);
    const from = new Date(at - 1).toISOString();
    const to = new Date(at + 1).toISOString();

    const later = await ledger(`?from=${from}`);
    expect(later.entries.map((e) => e.id)).toContain(pivot.id);
    for (const e of later.entries) expect(Date.parse(e.at)).toBeGreaterThanOrEqual(at - 1);
    expect(later.entries.length).toBeLessThan(entries.length);
    const earlier = await ledger(`?to=${to}`);
    expect(earlier.entries.map((e) => e.id)).toContain(pivot.id);
    for (const e of earlier.entries) expect(Date.parse(e.at)).toBeLessThanOrEqual(at + 1);
    const both = await ledger(`?from=${from}&to=${to}`);
    expect(both.entries.map((e) => e.id)).toContain(pivot.id);
    expect(both.totals.paidOut).toBe(both.entries.filter((e) => e.kind === 'payout').reduce((s, e) => s + e.amount, 0));

    const future = await ledger('?from=2099-01-01T00:00:00.000Z');
    expect(future).toMatchObject({ entries: [], totals: { charged: 0, paidOut: 0, refunded: 0, held: 0 } });
  });

  it('exports the same entries as CSV with a header row', async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const { entries } = await ledger(`?to=${to}`);
    const res = await api.get(admin, `/api/admin/ledger.csv?to=${to}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.split(/\r?\n/).filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(entries.length + 1);
    const header = lines[0]!.toLowerCase();
    for (const column of ['kind', 'amount']) expect(header).toContain(column);
    const rows = lines.slice(1).map((line) => line.split(',').map((cell) => cell.replace(/^"|"$/g, '')));
    for (const entry of entries) {
      expect(
        rows.some((cells) => cells.includes(String(entry.id)) && cells.includes(String(entry.orderId)) && cells.includes(entry.kind) && cells.includes(String(entry.amount))),
        `a CSV row for entry ${entry.id}`,
      ).toBe(true);
    }
  });

  it('refuses bad dates with 400', async () => {
    for (const query of ['?from=yesterday', '?to=2024-13-45', '?from=1700000000']) {
      for (const path of ['/api/admin/ledger', '/api/admin/ledger.csv']) {
        const res = await api.get(admin, `${path}${query}`);
        expect(res.statusCode, `${path}${query}`).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
      }
    }
  });
});

// ── 5. Users ──────────────────────────────────────────────────────────────────────────────

describe('users', () => {
  it('finds users by name or email', async () => {
    const name = `Quinn ${unique('Zebediah')}`;
    const user = await createUser(t, { name });
    for (const search of [name.split(' ')[1]!, name.toUpperCase(), user.email]) {
      const res = await api.get(operator, `/api/admin/users?search=${encodeURIComponent(search)}`);
      expect(res.statusCode, res.body).toBe(200);
      const found = (res.json().data.users as AdminUser[]).find((u) => u.id === user.id);
      expect(found, search).toEqual({ id: user.id, name, email: user.email, role: 'user', status: 'active', createdAt: expect.any(String), sellerVerified: false });
    }
    const none = await api.get(operator, `/api/admin/users?search=${unique('nobody-at-all')}`);
    expect(none.json().data.users).toEqual([]);
    const found = (await api.get(operator, `/api/admin/users?search=${encodeURIComponent(operator.email)}`)).json().data.users as AdminUser[];
    expect(found.find((u) => u.id === operator.id)?.role).toBe('operator');
  });

  it('suspends: sessions and sockets end at once, sign-in answers 403, listings leave; unsuspend brings them back', async () => {
    const user = await createUser(t);
    const car = await uniqueListing(user);
    expect(await listed(car)).toBe(true);
    const socket = await connectSocket(t.url, { token: user.accessToken });
    sockets.push(socket);
    const revoked = nextEvent(socket, 'session:revoked');
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const why = reason('Chargeback fraud');
    const res = await api.post(operator, `/api/admin/users/${user.id}/suspend`, { reason: why });
    expect(res.statusCode, res.body).toBe(200);
    await revoked;
    await disconnected;
    expect((await api.get(user, '/api/users/profile')).statusCode).toBe(401);
    expect((await api.post(undefined, '/api/auth/refresh-token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    const signIn = await login(t, user.email);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ error: expect.any(String), code: 'ACCOUNT_SUSPENDED' });
    // A wrong password does not reveal the suspension.
    expect((await login(t, user.email, { password: 'Wr0ng-Password!' })).statusCode).toBe(401);
    expect(await listed(car)).toBe(false);
    expect((await carStatus(undefined, car.id)).code).toBe(404);
    expect((await adminUser(user)).status).toBe('suspended');
    expect(await latestAudit({ targetType: 'user', targetId: user.id })).toMatchObject({
      action: 'user.suspend',
      reason: why,
      actor: { id: operator.id, email: operator.email },
    });

    const back = await api.post(operator, `/api/admin/users/${user.id}/unsuspend`, { reason: 'Bank confirmed the payment' });
    expect(back.statusCode, back.body).toBe(200);
    expect((await login(t, user.email)).statusCode).toBe(200);
    expect(await listed(car)).toBe(true);
    expect((await carStatus(undefined, car.id)).code).toBe(200);
    expect((await adminUser(user)).status).toBe('active');
    expect(await latestAudit({ targetType: 'user', targetId: user.id })).toMatchObject({ action: 'user.unsuspend', reason: 'Bank confirmed the payment' });
  });

  it('verifies a seller: seller.verified becomes true on their cars', async () => {
    const user = await createUser(t);
    const car = await uniqueListing(user);
    await t.database.db.update(sellers).set({ verified: false }).where(eq(sellers.userId, user.id));
    expect((await carStatus(undefined, car.id)).sellerVerified).toBe(false);
    expect((await adminUser(user)).sellerVerified).toBe(false);
    const res = await api.post(operator, `/api/admin/users/${user.id}/verify-seller`, { reason: 'Dealer licence checked' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await carStatus(undefined, car.id)).sellerVerified).toBe(true);
    expect((await adminUser(user)).sellerVerified).toBe(true);
    const listing = (await api.get(undefined, `/api/cars?limit=50&search=${encodeURIComponent(car.model)}`)).json().data.cars as { id: number; seller_verified: boolean }[];
    expect(listing.find((c) => c.id === car.id)?.seller_verified).toBe(true);
    expect(await latestAudit({ targetType: 'user', targetId: user.id })).toMatchObject({ action: 'user.verify-seller', reason: 'Dealer licence checked' });
  });

  it('lets an admin change a role, which ends that user\'s sessions; an operator may not', async () => {
    const user = await createUser(t);
    const refused = await api.post(operator, `/api/admin/users/${user.id}/role`, { role: 'operator', reason: 'Help wanted' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('NOT_ALLOWED');
    expect((await api.get(user, '/api/users/profile')).statusCode).toBe(200);

    const why = reason('Joins the support team');
    const res = await api.post(admin, `/api/admin/users/${user.id}/role`, { role: 'operator', reason: why });
    expect(res.statusCode, res.body).toBe(200);
    expect((await api.get(user, '/api/users/profile')).statusCode).toBe(401);
    expect((await api.post(undefined, '/api/auth/refresh-token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    const again = await login(t, user.email);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.user.role).toBe('operator');
    // An operator now, but without a second factor the console stays shut.
    const session = { auth: { authorization: `Bearer ${again.json().data.accessToken}` } };
    expect((await api.get(session, '/api/admin/overview')).json().code).toBe('TOTP_REQUIRED');
    expect((await adminUser(user)).role).toBe('operator');
    expect(await latestAudit({ targetType: 'user', targetId: user.id })).toMatchObject({
      action: 'user.role',
      reason: why,
      actor: { id: admin.id, email: admin.email },
      before: expect.objectContaining({ role: 'user' }),
      after: expect.objectContaining({ role: 'operator' }),
    });

    // And back: the staff member's sessions end too.
    const demoted = await createStaff(t, 'operator');
    expect((await api.post(admin, `/api/admin/users/${demoted.id}/role`, { role: 'user', reason: 'Left the team' })).statusCode).toBe(200);
    expect((await api.get(demoted, '/api/admin/overview')).statusCode).toBe(401);
  });
});

// ── 6. Listings and tickets ───────────────────────────────────────────────────────────────

describe('listings', () => {
  it('hides a listing with a reason: 404 to all but its seller and staff, the seller told why; restore brings it back', async () => {
    const [seller, other] = await Promise.all([createUser(t), createUser(t)]);
    const car = await uniqueListing(seller);
    const why = reason('Photos are stock images from the manufacturer');
    const res = await api.post(operator, `/api/admin/cars/${car.id}/hide`, { reason: why });
    expect(res.statusCode, res.body).toBe(200);

    const anonymous = await api.get(undefined, `/api/cars/${car.id}`);
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await carStatus(other, car.id)).code).toBe(404);
    expect(await carStatus(seller, car.id)).toMatchObject({ code: 200, status: 'hidden' });
    expect(await carStatus(operator, car.id)).toMatchObject({ code: 200, status: 'hidden' });
    expect(await carStatus(admin, car.id)).toMatchObject({ code: 200, status: 'hidden' });
    expect(await listed(car)).toBe(false);
    const notes = (await api.get(seller, '/api/notifications')).json().data.notifications as { title: string; message: string; carId: number | null }[];
    expect(notes.some((n) => `${n.title} ${n.message}`.includes(why)), JSON.stringify(notes)).toBe(true);
    expect(await latestAudit({ targetType: 'car', targetId: car.id })).toMatchObject({
      action: 'car.hide',
      reason: why,
      before: expect.objectContaining({ status: 'active' }),
      after: expect.objectContaining({ status: 'hidden' }),
    });

    const restored = await api.post(operator, `/api/admin/cars/${car.id}/restore`, { reason: 'Real photos uploaded' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await carStatus(undefined, car.id)).toMatchObject({ code: 200, status: 'active' });
    expect(await listed(car)).toBe(true);
    expect(await latestAudit({ targetType: 'car', targetId: car.id })).toMatchObject({
      action: 'car.restore',
      reason: 'Real photos uploaded',
      before: expect.objectContaining({ status: 'hidden' }),
      after: expect.objectContaining({ status: 'active' }),
    });
  });

  it('restores a hidden listing to the status it had before', async () => {
    const [buyer, seller] = await Promise.all([createUser(t), createUser(t)]);
    const order = await orderIn(t, 'funded', buyer, seller);
    expect((await carStatus(undefined, order.carId)).status).toBe('pending');
    expect((await api.post(operator, `/api/admin/cars/${order.carId}/hide`, { reason: 'Suspicious VIN' })).statusCode).toBe(200);
    expect((await carStatus(undefined, order.carId)).code).toBe(404);
    expect((await api.post(operator, `/api/admin/cars/${order.carId}/restore`, { reason: 'VIN checked' })).statusCode).toBe(200);
    expect(await carStatus(undefined, order.carId)).toMatchObject({ code: 200, status: 'pending' });
  });
});

describe('support tickets', () => {
  it('lists open tickets, replies by email and marks them answered', async () => {
    const ticket = await fileTicket();
    const open = await adminTickets('open');
    expect(open.map((x) => x.id)).toContain(ticket.id);
    for (const x of open) expect(x.status).toBe('open');
    expect(open.find((x) => x.id === ticket.id)).toMatchObject({ reference: ticket.reference, email: ticket.email, subject: 'Where is my title?', status: 'open' });

    const message = `The title was posted today by tracked mail. ${unique('ref')}`;
    const res = await api.post(operator, `/api/admin/tickets/${ticket.id}/reply`, { message });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await mailbox.waitFor((m) => m.to.includes(ticket.email) && m.body.includes(message));
    expect(mail.subject).toContain(ticket.reference);
    expect((await adminTickets('open')).map((x) => x.id)).not.toContain(ticket.id);
    const answered = (await adminTickets('answered')).find((x) => x.id === ticket.id);
    expect(answered).toMatchObject({ status: 'answered', replies: [expect.objectContaining({ message })] });
    expect(await latestAudit({ targetType: 'ticket', targetId: ticket.id })).toMatchObject({
      action: 'ticket.reply',
      reason: message,
      actor: { id: operator.id, email: operator.email },
    });
  });

  it('refuses an unknown status filter with 400', async () => {
    for (const status of ['pending', 'OPEN', 'open,answered']) {
      const res = await api.get(operator, `/api/admin/tickets?status=${status}`);
      expect(res.statusCode, status).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });
});

// ── 7. Flagged bids ───────────────────────────────────────────────────────────────────────

describe('flagged bids', () => {
  it('flags (never blocks) a bid by an account that signed in from the seller\'s address', async () => {
    const [seller, sameAddress, elsewhere] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    // Every inject() comes from 127.0.0.1: move the third bidder's sign-ins somewhere else.
    await t.database.db.execute(sql`update sessions set ip_address = '203.0.113.77' where user_id = ${elsewhere.id}`);
    const car = await uniqueListing(seller, { price: 80_000 });

    const flaggedBid = await api.post(sameAddress, '/api/bids', { carId: car.id, amount: 80_000 });
    expect(flaggedBid.statusCode, flaggedBid.body).toBe(201);
    const cleanBid = await api.post(elsewhere, '/api/bids', { carId: car.id, amount: 90_000 });
    expect(cleanBid.statusCode, cleanBid.body).toBe(201);
    const flaggedId = flaggedBid.json().data.bid.id as number;
    const cleanId = cleanBid.json().data.bid.id as number;

    const res = await api.get(operator, '/api/admin/flagged-bids');
    expect(res.statusCode, res.body).toBe(200);
    const bids = res.json().data.bids as { id: number; carId: number; userId: number; amount: number; reason: string }[];
    expect(bids.find((b) => b.id === flaggedId)).toMatchObject({ carId: car.id, userId: sameAddress.id, amount: 80_000, reason: expect.stringMatching(/\S/) });
    expect(bids.map((b) => b.id)).not.toContain(cleanId);
    expect((await api.get(operator, '/api/admin/overview')).json().data.flaggedBids).toBeGreaterThanOrEqual(1);
  });

  it('does not flag a bidder whose shared address is older than 30 days', async () => {
    const [seller, bidder] = await Promise.all([createUser(t), createUser(t)]);
    await t.database.db.execute(sql`update sessions set created_at = now() - interval '40 days', last_used_at = now() - interval '40 days' where user_id = ${bidder.id}`);
    // A fresh session from elsewhere to bid with.
    const fresh = await signIn(t, bidder);
    await t.database.db.execute(sql`update sessions set ip_address = '198.51.100.23' where user_id = ${bidder.id} and created_at > now() - interval '1 day'`);
    const car = await uniqueListing(seller, { price: 70_000 });
    const bid = await api.post(fresh, '/api/bids', { carId: car.id, amount: 70_000 });
    expect(bid.statusCode, bid.body).toBe(201);
    const bids = (await api.get(operator, '/api/admin/flagged-bids')).json().data.bids as { id: number }[];
    expect(bids.map((b) => b.id)).not.toContain(bid.json().data.bid.id);
  });
});
