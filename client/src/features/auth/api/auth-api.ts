import type { Credentials, LoginResult, MessageResult, RecoveryCodes, Registration, TotpSetup, VerifyEmailResult } from '@common/schemas/auth.ts';
import { api } from '../../../lib/api-client.ts';

/** Calls of the Accounts section of the contract. Every failure rejects with `ApiError`. */

export type { LoginResult, MessageResult, TotpSetup, VerifyEmailResult } from '@common/schemas/auth.ts';

export function register(body: Registration): Promise<MessageResult> {
  return api.post<MessageResult>('/api/auth/register', body);
}

/** `totp`: a code from the authenticator app or an unused recovery code, once two-factor sign-in is on. */
export function login(body: Credentials): Promise<LoginResult> {
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
export function setupTotp(): Promise<TotpSetup> {
  return api.post<TotpSetup>('/api/auth/totp/setup');
}

/** Step two: a current code proves the app holds the secret; the answer's recovery codes are shown once. */
export function confirmTotp(code: string): Promise<RecoveryCodes> {
  return api.post<RecoveryCodes>('/api/auth/totp/confirm', { code });
}
