import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, type Location } from 'react-router-dom';
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

/** Navigation bar + main + footer around every screen. */
export function Layout() {
  useSessionRevokedRedirect();
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
