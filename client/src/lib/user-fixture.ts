import type { SessionUser } from './session-store.ts';

/** For tests: a signed-in user with a verified email and an empty profile, with `patch` over it. */
export function sampleUser(patch: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    name: 'Ann Driver',
    email: 'ann@example.com',
    email_verified: true,
    avatar: null,
    bio: null,
    phone: null,
    location: null,
    created_at: '2025-01-01T00:00:00.000Z',
    role: 'user',
    totp_enabled: false,
    ...patch,
  };
}
