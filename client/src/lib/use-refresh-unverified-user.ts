import { useEffect } from 'react';
import { api } from './api-client.ts';
import { toSessionUser, useSessionStore } from './session-store.ts';

/**
 * A stored user who had not verified their email may have done so since (in another tab, or
 * from the emailed link): re-read the profile once, so what needs a verified email unlocks
 * without a new login.
 */
export function useRefreshUnverifiedUser(): void {
  const userId = useSessionStore((s) => (s.isAuthenticated && s.user && !s.user.email_verified ? s.user.id : null));
  useEffect(() => {
    if (userId === null) return;
    const controller = new AbortController();
    api
      .get<unknown>('/api/users/profile', { signal: controller.signal })
      .then((data) => {
        const fresh = toSessionUser(data);
        const current = useSessionStore.getState().user;
        if (fresh && current && fresh.id === current.id && fresh.email_verified !== current.email_verified) {
          useSessionStore.getState().setSession({ user: fresh });
        }
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [userId]);
}
