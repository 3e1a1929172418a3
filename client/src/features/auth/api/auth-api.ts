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

export function login(body: { email: string; password: string }): Promise<LoginResult> {
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
