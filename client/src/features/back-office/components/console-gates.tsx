import { Link, useLocation } from 'react-router-dom';
import { LockIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import type { SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useLogout } from '../../auth/index.ts';
import type { ConsoleRefusal } from '../hooks/console-access.ts';
import './console-gates.css';

/** The dashboard's settings tab, where two-factor sign-in is set up. */
const TWO_FACTOR_SETTINGS = '/dashboard?tab=settings';

/** An account without a staff role at `/admin`. */
export function NoConsoleAccess() {
  useDocumentTitle('No Access');
  return (
    <section className="container page console-gate" aria-labelledby="console-gate-title" data-testid="console-no-access">
      <span className="icon-disc console-gate__icon" aria-hidden="true">
        <LockIcon size={30} />
      </span>
      <h1 id="console-gate-title" className="page-title">
        You don&apos;t have access to the console
      </h1>
      <p className="muted console-gate__text">
        The operator console is for the LuxeMotors team. If you need help with an order, a listing or your account, our support team
        will take it from here.
      </p>
      <div className="console-gate__actions">
        <Link to="/" className="btn btn--dark">
          Return Home
        </Link>
        <Link to="/support" className="btn btn--outline">
          Contact Support
        </Link>
      </div>
    </section>
  );
}

/** The API turned the console away: not staff after all, or no second factor on this session. */
export function ConsoleRefused({ refusal, user }: { refusal: ConsoleRefusal; user: SessionUser }) {
  if (refusal === 'NOT_ALLOWED') return <NoConsoleAccess />;
  return <SecondFactorNeeded user={user} />;
}

function SecondFactorNeeded({ user }: { user: SessionUser }) {
  const location = useLocation();
  const { logout, pending } = useLogout({ to: '/login', state: { from: `${location.pathname}${location.search}` } });
  const enrolled = user.totp_enabled;
  useDocumentTitle(enrolled ? 'Sign In Again' : 'Two-Factor Sign-In Needed');
  return (
    <section className="container page console-gate" aria-labelledby="console-gate-title" data-testid="console-totp-required">
      <span className="icon-disc console-gate__icon" aria-hidden="true">
        <ShieldCheckIcon size={30} />
      </span>
      <h1 id="console-gate-title" className="page-title">
        {enrolled ? 'Sign in again with your authentication code' : 'Set up two-factor sign-in to open the console'}
      </h1>
      <p className="muted console-gate__text">
        {enrolled
          ? 'The console only opens for a session signed in with the code from your authenticator app, and this one was signed in with your password alone.'
          : 'The console holds buyers’ money and people’s accounts, so it needs a code from an authenticator app as well as your password. It takes a minute.'}
      </p>
      <div className="console-gate__actions">
        {enrolled ? (
          <button type="button" className="btn btn--dark" onClick={() => void logout()} disabled={pending}>
            {pending ? 'Signing out...' : 'Sign In Again'}
          </button>
        ) : (
          <Link to={TWO_FACTOR_SETTINGS} className="btn btn--dark">
            Set Up Two-Factor Sign-In
          </Link>
        )}
        {enrolled && (
          <Link to={TWO_FACTOR_SETTINGS} className="btn btn--outline">
            Two-Factor Settings
          </Link>
        )}
      </div>
    </section>
  );
}
