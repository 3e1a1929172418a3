import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PAGES } from '@common/paths.ts';
import { BellIcon, CardIcon, LockIcon, UserIcon, type IconProps } from '../../../components/ui/icons.tsx';
import { useSessionStore } from '../../../lib/session-store.ts';
import { TwoFactorSettings } from '../../auth/index.ts';

/** A setting and what it covers; `link` goes to where it is changed, `action` does it here. */
function SettingsTile({
  Icon,
  title,
  children,
  link,
  action,
}: {
  Icon: ComponentType<IconProps>;
  title: string;
  children: ReactNode;
  link?: { to: string; label: string };
  action?: ReactNode;
}) {
  return (
    <li className="stack settings-tile">
      <span className="icon-disc settings-tile__icon">
        <Icon size={22} />
      </span>
      <h3 className="settings-tile__title">{title}</h3>
      <p className="settings-tile__text">{children}</p>
      {link ? (
        <Link to={link.to} className="btn btn--outline btn--sm">
          {link.label}
        </Link>
      ) : (
        action
      )}
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
          Icon={UserIcon}
          title="Profile Information"
          action={
            <button type="button" className="btn btn--outline btn--sm" onClick={onEditProfile}>
              Update Profile
            </button>
          }
        >
          Your name, photo, phone, location and bio.
        </SettingsTile>
        <SettingsTile Icon={LockIcon} title="Security" link={{ to: '/forgot-password', label: 'Change Password' }}>
          Change your password with a secure link sent to your email. Every device will need to sign in again.
        </SettingsTile>
        <SettingsTile Icon={BellIcon} title="Notifications" link={{ to: PAGES.notificationSettings, label: 'Notification Settings' }}>
          Choose what reaches you in the app, by email and as push notifications on your devices, and set quiet hours.
        </SettingsTile>
        <SettingsTile Icon={CardIcon} title="Payment Methods" link={{ to: '/escrow', label: 'How Escrow Works' }}>
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
