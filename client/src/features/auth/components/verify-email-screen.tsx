import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AlertIcon } from '../../../components/ui/icons.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { verifyEmail, type VerifyEmailResult } from '../api/auth-api.ts';
import { oncePerKey } from '../lib/once-per-key.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { AuthCard } from './auth-card.tsx';
import { DoneThenLogin } from './done-then-login.tsx';
import './auth.css';

const NO_VERIFICATION_TOKEN = 'No verification token provided';

type Outcome = { status: 'success'; result: VerifyEmailResult } | { status: 'error'; message: string };

// The token is single-use: StrictMode's mount → unmount → mount must not spend it twice.
const verifyOnce = oncePerKey(
  (token): Promise<Outcome> =>
    verifyEmail(token).then(
      (result) => ({ status: 'success', result }),
      (error: unknown) => ({ status: 'error', message: errorMessage(error) }),
    ),
);

export function VerifyEmailScreen() {
  useDocumentTitle('Verify Email');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [settled, setSettled] = useState<{ token: string; outcome: Outcome } | null>(null);

  useEffect(() => {
    if (!token) return;
    let active = true;
    void verifyOnce(token).then((outcome) => {
      if (!active) return;
      if (outcome.status === 'success') {
        // A signed-in user verifying their own address: the stored copy is now stale.
        const { user } = useSessionStore.getState();
        if (user && user.id === outcome.result.user.id) {
          useSessionStore.getState().setSession({ user: { ...user, email_verified: true } });
        }
      }
      setSettled({ token, outcome });
    });
    return () => {
      active = false;
    };
  }, [token]);

  const outcome: Outcome | null = !token
    ? { status: 'error', message: NO_VERIFICATION_TOKEN }
    : settled?.token === token
      ? settled.outcome
      : null;

  if (!outcome) {
    return (
      <AuthCard title="Email Verification" testId="verify-email-screen">
        <LoadingStatus label="Verifying your email..." />
      </AuthCard>
    );
  }

  if (outcome.status === 'success') {
    return (
      <DoneThenLogin
        title="Email Verified!"
        testId="verify-email-success"
        subtitle="Your email address is confirmed. Verification unlocks live chat, bidding and escrow."
      />
    );
  }

  return (
    <AuthCard
      title="Verification Failed"
      icon={<AlertIcon size={40} />}
      testId="verify-email-failure"
    >
      <p className="callout tone-error auth-error-text" role="alert">
        {outcome.message}
      </p>
      <p className="auth-note">
        Verification links can be used once and expire after 24 hours. Sign in to request a new
        one, or register again.
      </p>
      <div className="auth-actions">
        <Link to="/register" className="btn btn--outline btn--block">
          Register Again
        </Link>
        <Link to="/login" className="btn btn--primary btn--block">
          Go to Login
        </Link>
      </div>
    </AuthCard>
  );
}
