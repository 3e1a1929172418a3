import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  ActivityIcon,
  BellIcon,
  CardIcon,
  GavelIcon,
  HeartIcon,
  LockIcon,
  MessageIcon,
  UserIcon,
} from '../../../components/ui/icons.tsx';

export const DASHBOARD_TABS = [
  { id: 'activity', label: 'Recent Activity' },
  { id: 'bids', label: 'My Bids' },
  { id: 'watchlist', label: 'Watchlist' },
  { id: 'messages', label: 'Messages' },
  { id: 'settings', label: 'Settings' },
] as const;

export type DashboardTabId = (typeof DASHBOARD_TABS)[number]['id'];

function EmptyPanel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="dash-empty">
      <span className="dash-empty__icon">{icon}</span>
      <p className="dash-empty__title">{title}</p>
      <p className="dash-empty__text">{children}</p>
    </div>
  );
}

function SettingsPanel({ onEditProfile }: { onEditProfile: () => void }) {
  return (
    <ul className="settings-grid">
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <UserIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Profile Information</h3>
        <p className="settings-tile__text">Your name, photo, phone, location and bio.</p>
        <button type="button" className="btn btn--outline btn--sm" onClick={onEditProfile}>
          Update Profile
        </button>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <LockIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Security</h3>
        <p className="settings-tile__text">
          Change your password with a secure link sent to your email. Every device will need to
          sign in again.
        </p>
        <Link to="/forgot-password" className="btn btn--outline btn--sm">
          Change Password
        </Link>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <BellIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Notifications</h3>
        <p className="settings-tile__text">
          Bids, messages and order updates arrive in the bell at the top of every page. Email
          preferences are coming soon.
        </p>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <CardIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Payment Methods</h3>
        <p className="settings-tile__text">
          Purchases are paid into escrow for each order, so no card is stored on your account.
        </p>
        <Link to="/escrow" className="btn btn--outline btn--sm">
          How Escrow Works
        </Link>
      </li>
    </ul>
  );
}

/** The dashboard's tabs (WAI-ARIA tabs pattern: arrow keys, Home and End; automatic activation). */
export function DashboardTabs({ onEditProfile }: { onEditProfile: () => void }) {
  const baseId = useId();
  const [active, setActive] = useState<DashboardTabId>('activity');
  const tabRefs = useRef(new Map<DashboardTabId, HTMLButtonElement>());
  const tabId = (id: DashboardTabId) => `${baseId}-tab-${id}`;
  const panelId = (id: DashboardTabId) => `${baseId}-panel-${id}`;

  function select(id: DashboardTabId) {
    setActive(id);
    tabRefs.current.get(id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = DASHBOARD_TABS.findIndex((t) => t.id === active);
    const last = DASHBOARD_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % DASHBOARD_TABS.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + DASHBOARD_TABS.length) % DASHBOARD_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    select(DASHBOARD_TABS[next]!.id);
  }

  const panels: Record<DashboardTabId, ReactNode> = {
    activity: (
      <EmptyPanel icon={<ActivityIcon size={28} />} title="No recent activity yet">
        Bids, messages and purchases you make will show up here.{' '}
        <Link to="/" className="text-link">
          Explore the listings
        </Link>
      </EmptyPanel>
    ),
    bids: (
      <EmptyPanel icon={<GavelIcon size={28} />} title="No bids yet">
        Place a bid on a car&apos;s page and follow it here.
      </EmptyPanel>
    ),
    watchlist: (
      <EmptyPanel icon={<HeartIcon size={28} />} title="Your watchlist is empty">
        Cars you save will appear here so you can follow their price and bids.
      </EmptyPanel>
    ),
    messages: (
      <EmptyPanel icon={<MessageIcon size={28} />} title="No messages yet">
        Ask a seller a question in a car&apos;s live discussion and the conversation will appear here.
      </EmptyPanel>
    ),
    settings: <SettingsPanel onEditProfile={onEditProfile} />,
  };

  return (
    <section className="dash-card dash-tabs" aria-label="Your account">
      <div role="tablist" aria-label="Dashboard sections" className="dash-tabs__list" onKeyDown={onKeyDown}>
        {DASHBOARD_TABS.map((tab) => {
          const selected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) tabRefs.current.set(tab.id, el);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={selected}
              aria-controls={panelId(tab.id)}
              tabIndex={selected ? 0 : -1}
              className="dash-tabs__tab"
              onClick={() => select(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {DASHBOARD_TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          tabIndex={0}
          hidden={tab.id !== active}
          className="dash-tabs__panel"
        >
          {tab.id === active && panels[tab.id]}
        </div>
      ))}
    </section>
  );
}
