import { api } from '../../../lib/api-client.ts';
import type { SessionUser } from '../../../lib/session-store.ts';

/** Calls of the Accounts section of the contract. Every failure rejects with `ApiError`. */

export interface MessageResult {
  message: string;
}

export interface LoginResult {
  accessToken: string;
  refreshToken: string;
  user: SessionUser;
}

export interface VerifyEmailResult {
  message: string;
  user: SessionUser;
}

export function register(body: { name: string; email: string; password: string }): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/register', body);
}

/** `totp`: a code from the authenticator app or an unused recovery code, once two-factor sign-in is on. */
export function login(body: { email: string; password: string; totp?: string }): Promise<LoginResult> {
  return api.post<LoginResult>('/api/auth/login', body);
}

export function resendVerification(email: string): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/resend-verification', { email });
}

export function verifyEmail(token: string): Promise<VerifyEmailResult> {
  return api.post<VerifyEmailResult>('/api/auth/verify-email', { token });
}

export function forgotPassword(email: string): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/forgot-password', { email });
}

export function resetPassword(token: string, newPassword: string): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/reset-password', { token, newPassword });
}

/** Ends the session on the server (the bearer token is sent by the API client too). */
export function logout(refreshToken: string | null): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/logout', refreshToken ? { refreshToken } : {});
}

/** Two-factor enrolment, step one: a new secret (base32) and its `otpauth://` address for the QR code. */
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
}

export function setupTotp(): Promise<TotpSetup> {
  return api.post<TotpSetup>('/api/auth/totp/setup');
}

/** Step two: a current code proves the app holds the secret; the answer's recovery codes are shown once. */
export function confirmTotp(code: string): Promise<{ recoveryCodes: string[] }> {
  return api.post<{ recoveryCodes: string[] }>('/api/auth/totp/confirm', { code });
}
