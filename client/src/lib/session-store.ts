import { create } from 'zustand';
import type { PublicUser } from '@common/schemas/users.ts';
import { USER_ROLES, type UserRole } from '@common/back-office.ts';

/** The signed-in user as the client keeps it (spec §3 "User (stored locally)"; contract `User`). */
export type SessionUser = PublicUser;

const nullableString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Validates and normalises a user from the server or from storage; null when it is not one. */
export function toSessionUser(value: unknown): SessionUser | null {
  if (!isSessionUser(value)) return null;
  const v = value as unknown as Record<string, unknown>;
  return {
    id: value.id,
    name: value.name,
    email: value.email,
    email_verified: value.email_verified,
    avatar: nullableString(v.avatar),
    bio: nullableString(v.bio),
    phone: nullableString(v.phone),
    location: nullableString(v.location),
    created_at: typeof v.created_at === 'string' ? v.created_at : '',
    // A user stored before roles existed is a plain user until the server says otherwise.
    role: (USER_ROLES as readonly unknown[]).includes(v.role) ? (v.role as UserRole) : 'user',
    totp_enabled: v.totp_enabled === true,
  };
}

export interface SessionData {
  accessToken: string | null;
  refreshToken: string | null;
  user: SessionUser | null;
}

export interface SessionState extends SessionData {
  /** True only when both an access token and a stored user exist (spec §4). */
  isAuthenticated: boolean;
  /** Merges the given fields into the session and persists them (e.g. login, token rotation, profile update). */
  setSession: (patch: Partial<SessionData>) => void;
  /** Signs out locally: clears tokens and user from memory and storage. */
  clearSession: () => void;
}

export const STORAGE_KEYS = {
  accessToken: 'luxemotors.accessToken',
  refreshToken: 'luxemotors.refreshToken',
  user: 'luxemotors.user',
} as const;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    // Access can throw (privacy mode, sandboxed iframes): fall back to memory only.
    return null;
  }
}

function isSessionUser(value: unknown): value is Pick<SessionUser, 'id' | 'name' | 'email' | 'email_verified'> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.name === 'string' &&
    typeof v.email === 'string' &&
    typeof v.email_verified === 'boolean'
  );
}

/** Reads the persisted session; corrupt or partial entries are treated as absent. */
export function readStoredSession(): SessionData {
  const s = storage();
  if (!s) return { accessToken: null, refreshToken: null, user: null };
  let user: SessionUser | null = null;
  const rawUser = s.getItem(STORAGE_KEYS.user);
  if (rawUser) {
    try {
      user = toSessionUser(JSON.parse(rawUser));
    } catch {
      user = null;
    }
  }
  return {
    accessToken: s.getItem(STORAGE_KEYS.accessToken) || null,
    refreshToken: s.getItem(STORAGE_KEYS.refreshToken) || null,
    user,
  };
}

/**
 * The freshest session this tab can know: what is in storage (another tab may have rotated the
 * tokens a moment ago, before its `storage` event reached us), or memory when storage is unusable.
 */
export function readLatestSession(): SessionData {
  if (!storage()) {
    const { accessToken, refreshToken, user } = useSessionStore.getState();
    return { accessToken, refreshToken, user };
  }
  return readStoredSession();
}

function writeStoredSession(data: SessionData): void {
  const s = storage();
  if (!s) return;
  try {
    const put = (key: string, value: string | null) => {
      if (value === null) s.removeItem(key);
      else s.setItem(key, value);
    };
    put(STORAGE_KEYS.accessToken, data.accessToken);
    put(STORAGE_KEYS.refreshToken, data.refreshToken);
    put(STORAGE_KEYS.user, data.user ? JSON.stringify(data.user) : null);
  } catch {
    // Quota or privacy errors: the in-memory session still works for this tab.
  }
}

function withDerived(data: SessionData) {
  return { ...data, isAuthenticated: Boolean(data.accessToken && data.user) };
}

const SIGNED_OUT: SessionData = { accessToken: null, refreshToken: null, user: null };

/**
 * Created signed out, then given the stored session: the store's initial state is what a page
 * drawn on the server shows (it cannot see this browser's storage), and React hydrates with
 * it before showing the signed-in parts.
 */
export const useSessionStore = create<SessionState>()((set, get) => ({
  ...withDerived(SIGNED_OUT),
  setSession: (patch) => {
    const { accessToken, refreshToken, user } = get();
    const next: SessionData = { accessToken, refreshToken, user, ...patch };
    writeStoredSession(next);
    set(withDerived(next));
  },
  clearSession: () => {
    writeStoredSession(SIGNED_OUT);
    set(withDerived(SIGNED_OUT));
  },
}));
useSessionStore.setState(withDerived(readStoredSession()));

// Keep tabs in sync: signing in or out in one tab updates the others.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || (Object.values(STORAGE_KEYS) as string[]).includes(event.key)) {
      useSessionStore.setState(withDerived(readStoredSession()));
    }
  });
}
