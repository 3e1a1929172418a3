import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: for email links and refresh tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as hashes, so a database leak does not hand out working links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
