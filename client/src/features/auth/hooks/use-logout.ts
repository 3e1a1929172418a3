import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { refreshJournal } from '../../../lib/refresh-journal.ts';
import { logout as logoutRequest } from '../api/auth-api.ts';
import { useSessionStore } from '../../../lib/session-store.ts';

/**
 * Logout (spec §2): awaits `POST /api/auth/logout` (its errors are ignored: the session is
 * ended locally either way), clears the session and goes to / (or `then.to`, with `then.state`:
 * say, /login that brings the user back where they were).
 */
export function useLogout(then: { to: string; state?: unknown } = { to: '/' }): { logout: () => Promise<void>; pending: boolean } {
  const { to, state } = then;
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const logout = useCallback(async () => {
    setPending(true);
    try {
      await logoutRequest(useSessionStore.getState().refreshToken);
    } catch {
      // Offline or already signed out on the server: nothing more to do there.
    }
    // Leave the page first (committed synchronously), then clear the session, so a screen
    // that guards on the session (the dashboard) never sees the sign-out and redirects to /login.
    await navigate(to, { flushSync: true, state });
    useSessionStore.getState().clearSession();
    void refreshJournal()?.clear().catch(() => undefined);
    setPending(false);
  }, [navigate, to, state]);

  return { logout, pending };
}
