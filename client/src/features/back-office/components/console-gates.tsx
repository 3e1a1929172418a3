import type { ComponentType, ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ErrorCode } from '@common/error-codes.ts';
import { LockIcon, ShieldCheckIcon, type IconProps } from '../../../components/ui/icons.tsx';
import type { SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useLogout } from '../../auth/index.ts';
import type { ConsoleRefusal } from '../hooks/console-access.ts';
import './console-gates.css';

/** The dashboard's settings tab, where two-factor sign-in is set up. */
const TWO_FACTOR_SETTINGS = '/dashboard?tab=settings';

/** A way on from a closed door: a page to go to, or a button. The first one is the dark button. */
type GateAction = { label: string; to: string } | { label: string; onClick: () => void; disabled?: boolean };

/**
 * A closed door of the console: a full page (laid out as the not-found page) with its icon, what
 * is wrong, and the ways on.
 */
function ConsoleGate({
  testId,
  tabTitle,
  Icon,
  title,
  text,
  actions,
}: {
  testId: string;
  /** The browser tab's title, shorter than the page's. */
  tabTitle: string;
  Icon: ComponentType<IconProps>;
  title: string;
  text: ReactNode;
  actions: GateAction[];
}) {
  useDocumentTitle(tabTitle);
  return (
    <section className="container page not-found console-gate" aria-labelledby="console-gate-title" data-testid={testId}>
      <span className="icon-disc console-gate__icon" aria-hidden="true">
        <Icon size={30} />
      </span>
      <h1 id="console-gate-title" className="page-title">
        {title}
      </h1>
      <p className="muted console-gate__text">{text}</p>
      <div className="not-found__actions">
        {actions.map((action, index) => {
          const className = index === 0 ? 'btn btn--dark' : 'btn btn--outline';
          return 'to' in action ? (
            <Link key={action.label} to={action.to} className={className}>
              {action.label}
            </Link>
          ) : (
            <button key={action.label} type="button" className={className} onClick={action.onClick} disabled={action.disabled}>
              {action.label}
            </button>
          );
        })}
      </div>
    </section>
  );
}

/** An account without a staff role at `/admin`. */
export function NoConsoleAccess() {
  return (
    <ConsoleGate
      testId="console-no-access"
      tabTitle="No Access"
      Icon={LockIcon}
      title="You don't have access to the console"
      text="The operator console is for the LuxeMotors team. If you need help with an order, a listing or your account, our support team will take it from here."
      actions={[
        { label: 'Return Home', to: '/' },
        { label: 'Contact Support', to: '/support' },
      ]}
    />
  );
}

/** The API turned the console away: not staff after all, or no second factor on this session. */
export function ConsoleRefused({ refusal, user }: { refusal: ConsoleRefusal; user: SessionUser }) {
  if (refusal === ErrorCode.NOT_ALLOWED) return <NoConsoleAccess />;
  return <SecondFactorNeeded user={user} />;
}

function SecondFactorNeeded({ user }: { user: SessionUser }) {
  const location = useLocation();
  const { logout, pending } = useLogout({ to: '/login', state: { from: `${location.pathname}${location.search}` } });
  if (!user.totp_enabled) {
    return (
      <ConsoleGate
        testId="console-totp-required"
        tabTitle="Two-Factor Sign-In Needed"
        Icon={ShieldCheckIcon}
        title="Set up two-factor sign-in to open the console"
        text="The console holds buyers’ money and people’s accounts, so it needs a code from an authenticator app as well as your password. It takes a minute."
        actions={[{ label: 'Set Up Two-Factor Sign-In', to: TWO_FACTOR_SETTINGS }]}
      />
    );
  }
  return (
    <ConsoleGate
      testId="console-totp-required"
      tabTitle="Sign In Again"
      Icon={ShieldCheckIcon}
      title="Sign in again with your authentication code"
      text="The console only opens for a session signed in with the code from your authenticator app, and this one was signed in with your password alone."
      actions={[
        { label: pending ? 'Signing out...' : 'Sign In Again', onClick: () => void logout(), disabled: pending },
        { label: 'Two-Factor Settings', to: TWO_FACTOR_SETTINGS },
      ]}
    />
  );
}
