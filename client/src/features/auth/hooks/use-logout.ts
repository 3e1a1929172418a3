import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { refreshJournal } from '../../../lib/refresh-journal.ts';
import { logout as logoutRequest } from '../api/auth-api.ts';
import { useSessionStore } from '../../../lib/session-store.ts';

/**
 * Logout (spec §2): goes to / (or `then.to`, with `then.state`: say, /login that brings the user
 * back where they were), sends `POST /api/auth/logout`, clears the session, and awaits the
 * server's answer (its errors are ignored: the session is ended locally either way).
 *
 * The order matters. The tab leaves the page first (committed synchronously), so that a screen
 * guarding on the session (the dashboard) is gone before the session is. And the server announces
 * the revoked session on the socket while it handles the request, so that announcement may reach
 * this tab before the answer does: were the session still here then, the tab would take it for a
 * sign-out elsewhere and go to /login. So the request is sent (its tokens read as it goes out)
 * and the session cleared in one step, before anything can arrive; the announcement then finds
 * nothing to end.
 */
export function useLogout(then: { to: string; state?: unknown } = { to: '/' }): { logout: () => Promise<void>; pending: boolean } {
  const { to, state } = then;
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const logout = useCallback(async () => {
    setPending(true);
    await navigate(to, { flushSync: true, state });
    const ended = logoutRequest(useSessionStore.getState().refreshToken).catch(() => {
      // Offline or already signed out on the server: nothing more to do there.
    });
    useSessionStore.getState().clearSession();
    void refreshJournal()?.clear().catch(() => undefined);
    await ended;
    setPending(false);
  }, [navigate, to, state]);

  return { logout, pending };
}
