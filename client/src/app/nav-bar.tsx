import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { PAGES } from '@common/paths.ts';
import { CloseIcon, Emblem, MenuIcon, PhoneIcon, PlusIcon, ShieldCheckIcon, UserIcon } from '../components/ui/icons.tsx';
import { useLogout } from '../features/auth/index.ts';
import { canOpenConsole } from '../features/back-office/index.ts';
import { useSessionStore } from '../lib/session-store.ts';
import { NotificationBell } from '../features/notifications/index.ts';
import './nav-bar.css';
import './console-link.css';
import { useSessionDependent } from '../lib/use-hydrated.ts';

const PRIMARY_LINKS = [
  { to: '/', label: 'Cars', end: true },
  { to: '/testimonials', label: 'Testimonials', end: false },
  { to: '/escrow', label: 'Escrow Service', end: false },
  { to: '/support', label: 'Support', end: false },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'nav-link nav-link--active' : 'nav-link';

const consoleLinkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'nav-link nav-link--console nav-link--active' : 'nav-link nav-link--console';

const sellLinkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'nav-link nav-link--sell nav-link--active' : 'nav-link nav-link--sell';

export function NavBar() {
  const location = useLocation();
  const user = useSessionStore((s) => s.user);
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const { logout: endSession, pending: loggingOut } = useLogout();
  const sessionDependent = useSessionDependent();
  const staff = isAuthenticated && canOpenConsole(user);

  // The menu remembers the location it was opened at, so any navigation
  // (a link in the menu, Back, a redirect) closes it without an effect.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const menuOpen = openedAt === location.key;

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenedAt(null);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  async function logout() {
    await endSession(); // POST /api/auth/logout (errors ignored), then / and a cleared session
    setOpenedAt(null);
  }

  return (
    <header className="site-header">
      <nav className={staff ? 'navbar navbar--staff container' : 'navbar container'} aria-label="Main">
        <Link to="/" className="brand" aria-label="LuxeMotors home">
          <Emblem size={34} />
          <span className="brand__name" aria-hidden="true">
            Luxe<span className="brand__accent">Motors</span>
          </span>
        </Link>

        <div id="primary-menu" className={menuOpen ? 'navbar__menu is-open' : 'navbar__menu'}>
          <ul className="navbar__links">
            {PRIMARY_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="navbar__auth" {...sessionDependent}>
            {isAuthenticated && user ? (
              <>
                {staff && (
                  <NavLink to={PAGES.admin} className={consoleLinkClass} title="Operator console">
                    <ShieldCheckIcon size={18} />
                    <span className="nav-link__more">Console</span>
                  </NavLink>
                )}
                <NavLink to="/sell" className={sellLinkClass}>
                  <PlusIcon size={16} />
                  Sell<span className="nav-link__more"> your car</span>
                </NavLink>
                <NavLink to="/dashboard" className={navLinkClass} title={user.name}>
                  <UserIcon size={18} />
                  <span className="navbar__user-name">{user.name}</span>
                </NavLink>
                <button
                  type="button"
                  className="btn btn--ghost-light btn--sm"
                  onClick={logout}
                  disabled={loggingOut}
                >
                  Logout
                </button>
              </>
            ) : (
              <>
                <NavLink to="/login" className={navLinkClass}>
                  Sign In
                </NavLink>
                <NavLink to="/register" className="btn btn--gold btn--sm">
                  Sign Up
                </NavLink>
              </>
            )}
          </div>
        </div>

        <div className="navbar__actions">
          <Link to="/support" className="icon-btn" aria-label="Contact support" title="Contact support">
            <PhoneIcon />
          </Link>
          <NotificationBell />
          <button
            type="button"
            className="icon-btn navbar__toggle"
            aria-controls="primary-menu"
            aria-expanded={menuOpen}
            aria-label={menuOpen ? 'Close Menu' : 'Open Menu'}
            onClick={() => setOpenedAt(menuOpen ? null : location.key)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </nav>
    </header>
  );
}
