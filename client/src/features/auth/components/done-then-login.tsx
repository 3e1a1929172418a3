import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { AUTH_REDIRECT_DELAY_MS } from '../lib/redirect-target.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The end of an account step that calls for signing in (email verified, password reset): says
 * so, and goes to sign-in by itself after a few seconds.
 */
export function DoneThenLogin({ title, subtitle, testId }: { title: string; subtitle: string; testId: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/login', { replace: true }), AUTH_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <AuthCard title={title} icon={<ShieldCheckIcon size={40} />} testId={testId} subtitle={subtitle}>
      <p className="auth-note" role="status">
        Redirecting you to sign in in 3 seconds...
      </p>
      <div className="auth-actions">
        <Link to="/login" className="btn btn--primary btn--block" replace>
          Go to Login
        </Link>
      </div>
    </AuthCard>
  );
}
