import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSessionStore, type SessionUser } from '../lib/session-store.ts';

/**
 * A screen for signed-in users only: renders `children(user)`; anyone else is sent to /login,
 * which brings them back here after.
 */
export function SignedIn({ children }: { children: (user: SessionUser) => ReactNode }) {
  const location = useLocation();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const user = useSessionStore((s) => s.user);
  if (!isAuthenticated || !user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return <>{children(user)}</>;
}
