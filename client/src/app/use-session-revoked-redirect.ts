import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { onSessionRevoked } from '../lib/socket.ts';

/** The server ended this session (logout elsewhere, password reset): the session is cleared; go to /login. */
export function useSessionRevokedRedirect(): void {
  const navigate = useNavigate();
  useEffect(() => onSessionRevoked(() => void navigate('/login', { replace: true })), [navigate]);
}
