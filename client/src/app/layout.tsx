import { Suspense, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, type Location } from 'react-router-dom';
import { LoadingStatus } from '../components/ui/spinner.tsx';
import { NavBar } from './nav-bar.tsx';
import { SiteFooter } from './site-footer.tsx';
import { useSessionRevokedRedirect } from './use-session-revoked-redirect.ts';
import './layout.css';

/** Positions are kept per history entry (see history-entry.ts), so only Back/Forward restores one. */
const scrollKey = (location: Location) => location.key;

/**
 * Marks the page (`<html data-app-ready>`) once the first screen is live: drawn by the app, or
 * on a page drawn on the server, hydrated and answering input. Inside the screen's boundary, so
 * it waits for the screen's code too. Automated checks wait for it before they click.
 */
function ScreenReady() {
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
  }, []);
  return null;
}

/**
 * After a move to another screen that took the focused control away with the old one (a form
 * sent, a dialog's button that opened the next page), focus continues at the start of the new
 * content, where "Skip to content" leads, instead of being lost to the page. Focus still on
 * something (a link in the header, a field the new screen focused) stays where it is.
 */
function useFocusKeptAcrossScreens(): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const active = document.activeElement;
    if (active === null || active === document.body) document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

/** Navigation bar + main + footer around every screen. */
export function Layout() {
  useSessionRevokedRedirect();
  useFocusKeptAcrossScreens();
  return (
    <div className="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <NavBar />
      <main id="main" tabIndex={-1}>
        <Suspense
          fallback={
            <div className="container page">
              <LoadingStatus label="Loading..." />
            </div>
          }
        >
          <Outlet />
          <ScreenReady />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration getKey={scrollKey} />
    </div>
  );
}
