import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import type { AuditEntry } from '@common/schemas/admin.ts';
import type { UserRole } from '@common/back-office.ts';
import { request } from './api.ts';
import type { TestApp } from './app.ts';
import { TEST_PASSWORD, createUser, type SignedInUser } from './users.ts';

/** A back-office account: its role, its authenticator secret and the recovery codes shown once. */
export interface StaffUser extends SignedInUser {
  role: UserRole;
  totpSecret: string | null;
  recoveryCodes: string[];
}

const TOTP_PERIOD_MS = 30_000;

/** The code an authenticator app shows for `secret` now, or `steps` periods later (RFC 6238: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, steps = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * TOTP_PERIOD_MS,
  });
}

/** A six-digit code that is none of the codes accepted around now for `secret`. */
export function wrongTotpCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => totpCode(secret, steps)));
  for (let n = 0; ; n++) {
    const code = String((123_456 + n * 7_919) % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/** Sets a role straight in the database, as an earlier `npm run operator -- grant` would have. */
export async function setRole(t: TestApp, userId: number, role: UserRole): Promise<void> {
  await t.database.db.execute(sql`update users set role = ${role} where id = ${userId}`);
}

/** `POST /api/auth/login` from 127.0.0.1, with a second factor when given. */
export function login(t: TestApp, email: string, options: { password?: string; totp?: string; remoteAddress?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: options.password ?? TEST_PASSWORD, ...(options.totp !== undefined ? { totp: options.totp } : {}) },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** Signs in (expecting success) and answers the new session's tokens on `user`. */
export async function signIn<T extends SignedInUser>(t: TestApp, user: T, totp?: string): Promise<T> {
  const res = await login(t, user.email, totp !== undefined ? { totp } : {});
  expect(res.statusCode, res.body).toBe(200);
  const { accessToken, refreshToken } = res.json().data;
  return { ...user, accessToken, refreshToken, auth: { authorization: `Bearer ${accessToken}` } };
}

/** Enrols two-factor sign-in on the session of `user`; the confirmed session counts as signed in with it. */
export async function enrolTotp(t: TestApp, user: SignedInUser): Promise<{ secret: string; otpauthUrl: string; recoveryCodes: string[] }> {
  const setup = await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: user.auth });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauthUrl } = setup.json().data as { secret: string; otpauthUrl: string };
  const confirm = await t.app.inject({ method: 'POST', url: '/api/auth/totp/confirm', headers: user.auth, payload: { code: totpCode(secret) } });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { secret, otpauthUrl, recoveryCodes: confirm.json().data.recoveryCodes };
}

/**
 * A new account with `role`, signed in after the role was set. With `totp` (the default) it
 * enrols an authenticator on that session, which then reaches the console.
 */
export async function createStaff(t: TestApp, role: UserRole, options: { name?: string; totp?: boolean } = {}): Promise<StaffUser> {
  const created = await createUser(t, options.name ? { name: options.name } : {});
  await setRole(t, created.id, role);
  const user = await signIn(t, created);
  if (options.totp === false) return { ...user, role, totpSecret: null, recoveryCodes: [] };
  const { secret, recoveryCodes } = await enrolTotp(t, user);
  return { ...user, role, totpSecret: secret, recoveryCodes };
}

type Caller = { auth: { authorization: string } } | undefined;

/** Calls to the API as `user` (signed out when undefined). */
export function apiCalls(t: TestApp) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: Caller, payload?: unknown) => request(t, method, url, user, payload);
  return {
    call,
    get: (user: Caller, url: string) => call('GET', url, user),
    post: (user: Caller, url: string, payload?: unknown) => call('POST', url, user, payload ?? {}),
  };
}

/** The audit log as an admin reads it, newest first (`query` as in the contract). */
export async function auditEntries(t: TestApp, admin: SignedInUser, query: Record<string, string | number> = {}): Promise<AuditEntry[]> {
  const search = new URLSearchParams(Object.entries({ limit: 200, ...query }).map(([k, v]) => [k, String(v)]));
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/audit?${search}`, headers: admin.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.entries;
}

/** The id of the newest audit entry (0 when there is none): unchanged means nothing was written. */
export async function newestAuditId(t: TestApp, admin: SignedInUser): Promise<number> {
  return (await auditEntries(t, admin, { limit: 1 }))[0]?.id ?? 0;
}
