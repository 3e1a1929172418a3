import { useEffect, useId, useState } from 'react';
import {
  ActivityIcon,
  BellIcon,
  GavelIcon,
  HeartIcon,
  LogoutIcon,
  MessageIcon,
} from '../../../components/ui/icons.tsx';
import { SignedIn } from '../../../components/signed-in.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { ResendVerificationButton, useLogout } from '../../auth/index.ts';
import { toSessionUser, useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useNotificationStore } from '../../notifications/index.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { useWatchlistStore } from '../../../lib/watchlist-store.ts';
import { getDashboardSummary, type DashboardStats } from '../api/dashboard.ts';
import { getProfile } from '../api/profile.ts';
import { DashboardTabs } from './dashboard-tabs.tsx';
import { ProfileCard } from './profile-card.tsx';
import './dashboard.css';
import '../../../components/ui/alert.css';

/** The four figures of `GET /api/users/dashboard`. */
const STAT_TILES = [
  { key: 'activeBids', label: 'Active Bids', hint: 'Cars you are bidding on', Icon: GavelIcon },
  { key: 'watchlist', label: 'Watchlist', hint: 'Cars you are watching', Icon: HeartIcon },
  { key: 'messages', label: 'Messages', hint: 'Messages you have posted', Icon: MessageIcon },
  { key: 'activity', label: 'Activity', hint: 'Events in the last 30 days', Icon: ActivityIcon },
] as const satisfies readonly { key: keyof DashboardStats; label: string; hint: string; Icon: unknown }[];

/** `/dashboard`: signed-in users only; anyone else is sent to /login and brought back after. */
export function DashboardScreen() {
  useDocumentTitle('Dashboard');
  return <SignedIn>{(user) => <Dashboard user={user} />}</SignedIn>;
}

function Dashboard({ user }: { user: SessionUser }) {
  const titleId = useId();
  const unreadCount = useNotificationStore((s) => s.unreadCount);
  const { logout, pending: loggingOut } = useLogout();
  const [editing, setEditing] = useState(false);
  const userId = user.id;
  const { resource: summary, retry: retrySummary } = useResource(`dashboard:${userId}`, getDashboardSummary);
  // The watchlist count follows the hearts and Remove buttons on this page once the ids are loaded.
  const watchedCount = useWatchlistStore((s) => (s.ownerId === userId && s.status === 'ready' ? s.ids.size : null));
  const ensureWatchlist = useWatchlistStore((s) => s.ensureLoaded);
  useEffect(() => {
    void ensureWatchlist();
  }, [ensureWatchlist, userId]);

  // The stored copy may be stale (edited in another tab, verified since): re-read it once.
  useEffect(() => {
    const controller = new AbortController();
    getProfile(controller.signal)
      .then((data) => {
        const fresh = toSessionUser(data);
        const { user: current } = useSessionStore.getState();
        if (fresh && current && fresh.id === current.id) useSessionStore.getState().setSession({ user: fresh });
      })
      .catch(() => {
        // Offline, or the session ended (the API client then clears it and the guard redirects).
      });
    return () => controller.abort();
  }, [userId]);

  function editFromSettings() {
    setEditing(true);
    document.getElementById('profile')?.scrollIntoView({ block: 'start' });
  }

  const firstName = user.name.trim().split(/\s+/)[0] || user.name;

  return (
    <div className="dashboard" data-testid="dashboard">
      <section className="dash-hero" aria-labelledby={titleId}>
        <div className="container split-row dash-hero__inner">
          <div>
            <p className="eyebrow">Your dashboard</p>
            <h1 id={titleId} className="dash-hero__title">
              Welcome back, {firstName}
            </h1>
            <p className="dash-hero__lead">Your profile, bids, saved cars and conversations in one place.</p>
          </div>
          <div className="cluster dash-hero__actions">
            <p className="notif-pill" data-testid="dashboard-unread">
              <BellIcon size={18} />
              <span className="count-pill notif-pill__count">{unreadCount}</span>
              <span>{unreadCount === 1 ? 'unread notification' : 'unread notifications'}</span>
            </p>
            <button type="button" className="btn btn--ghost-light" onClick={logout} disabled={loggingOut}>
              <LogoutIcon size={18} />
              Logout
            </button>
          </div>
        </div>
      </section>

      <div className="container over-band">
        {!user.email_verified && (
          <div className="alert tone-warning dash-verify" role="region" aria-label="Email verification">
            <div className="alert__body">
              <p className="alert__title">Please verify your email address</p>
              <p>
                We sent a link to <strong>{user.email}</strong>. Verification unlocks live chat,
                bidding and escrow.
              </p>
              <ResendVerificationButton email={user.email} className="link-button" />
            </div>
          </div>
        )}

        <div className="dash-grid">
          <div id="profile" className="dash-grid__side">
            <ProfileCard
              user={user}
              editing={editing}
              onEdit={() => setEditing(true)}
              onDone={() => setEditing(false)}
            />
          </div>

          <div className="dash-grid__main">
            <ul className="stat-grid dash-stats" aria-label="Your activity at a glance" aria-busy={summary.status === 'loading'}>
              {STAT_TILES.map(({ key, label, hint, Icon }) => {
                const value =
                  key === 'watchlist' && watchedCount !== null
                    ? watchedCount
                    : summary.status === 'success'
                      ? summary.data.stats[key]
                      : null;
                return (
                  <li key={key} className="card stat-tile" data-testid="stat-tile" data-stat={key}>
                    <span className="icon-disc stat-tile__icon">
                      <Icon size={20} />
                    </span>
                    <p className="stat-label stat-tile__label">{label}</p>
                    <p className="stat-value stat-tile__value" data-testid="stat-value">
                      {value !== null ? (
                        value.toLocaleString('en-US')
                      ) : summary.status === 'error' ? (
                        <>
                          <span aria-hidden="true">—</span>
                          <span className="sr-only">unavailable</span>
                        </>
                      ) : (
                        <>
                          <span className="skeleton" aria-hidden="true" />
                          <span className="sr-only">Loading</span>
                        </>
                      )}
                    </p>
                    <p className="stat-tile__hint">{hint}</p>
                  </li>
                );
              })}
            </ul>

            <DashboardTabs
              userId={userId}
              summary={summary}
              retrySummary={retrySummary}
              onEditProfile={editFromSettings}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
