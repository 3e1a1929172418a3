import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BellIcon, CardIcon, LockIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { useSessionStore } from '../../../lib/session-store.ts';
import { TwoFactorSettings } from '../../auth/index.ts';

function SettingsTile({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <li className="stack settings-tile">
      <span className="icon-disc settings-tile__icon">{icon}</span>
      <h3 className="settings-tile__title">{title}</h3>
      <p className="settings-tile__text">{children}</p>
      {action}
    </li>
  );
}

/** "Settings": profile, security, notifications and payments, and where each is changed; two-factor sign-in. */
export function SettingsPanel({ onEditProfile }: { onEditProfile: () => void }) {
  const user = useSessionStore((s) => s.user);
  return (
    <>
      <ul className="tile-grid">
        <SettingsTile
          icon={<UserIcon size={22} />}
          title="Profile Information"
          action={
            <button type="button" className="btn btn--outline btn--sm" onClick={onEditProfile}>
              Update Profile
            </button>
          }
        >
          Your name, photo, phone, location and bio.
        </SettingsTile>
        <SettingsTile
          icon={<LockIcon size={22} />}
          title="Security"
          action={
            <Link to="/forgot-password" className="btn btn--outline btn--sm">
              Change Password
            </Link>
          }
        >
          Change your password with a secure link sent to your email. Every device will need to sign in again.
        </SettingsTile>
        <SettingsTile icon={<BellIcon size={22} />} title="Notifications">
          Bids, messages and order updates arrive in the bell at the top of every page. Email preferences are coming soon.
        </SettingsTile>
        <SettingsTile
          icon={<CardIcon size={22} />}
          title="Payment Methods"
          action={
            <Link to="/escrow" className="btn btn--outline btn--sm">
              How Escrow Works
            </Link>
          }
        >
          Purchases are paid into escrow for each order, so no card is stored on your account.
        </SettingsTile>
      </ul>
      {user && (
        <Suspense fallback={null}>
          <TwoFactorSettings user={user} />
        </Suspense>
      )}
    </>
  );
}
