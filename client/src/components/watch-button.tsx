import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSessionStore } from '../lib/session-store.ts';
import { useWatchlistStore } from '../lib/watchlist-store.ts';
import { HeartIcon } from './ui/icons.tsx';
import './watch-button.css';

/**
 * Heart toggle that adds a car to the signed-in user's watchlist or takes it off
 * (`aria-pressed` tells which). Signed out, it is a link to /login that brings the user back.
 *
 * `carTitle` names the car for screen readers ("Watch 2021 Porsche 911"); `variant="full"`
 * shows the words Watch / Watching beside the heart (for the car page).
 */
export function WatchButton({
  carId,
  carTitle,
  variant = 'icon',
  className,
}: {
  carId: number;
  carTitle?: string;
  variant?: 'icon' | 'full';
  className?: string;
}) {
  const location = useLocation();
  const signedIn = useSessionStore((s) => s.isAuthenticated && s.user !== null);
  const watched = useWatchlistStore((s) => s.ids.has(carId));
  const pending = useWatchlistStore((s) => s.pending.has(carId));
  const failed = useWatchlistStore((s) => s.failedId === carId);
  const ensureLoaded = useWatchlistStore((s) => s.ensureLoaded);
  const toggle = useWatchlistStore((s) => s.toggle);

  useEffect(() => {
    if (signedIn) void ensureLoaded();
  }, [signedIn, ensureLoaded]);

  const classes = ['watch-btn', `watch-btn--${variant}`, className].filter(Boolean).join(' ');
  const name = carTitle ? `Watch ${carTitle}` : 'Watch this car';

  if (!signedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return (
      <Link
        to="/login"
        state={{ from }}
        className={classes}
        aria-label={carTitle ? `Sign in to watch ${carTitle}` : 'Sign in to watch this car'}
        title="Sign in to add to your watchlist"
      >
        <HeartIcon size={20} />
        {variant === 'full' && <span aria-hidden="true">Watch</span>}
      </Link>
    );
  }

  return (
    <span className="watch-btn__wrap">
      <button
        type="button"
        className={classes}
        aria-pressed={watched}
        aria-label={name}
        title={watched ? 'Remove from watchlist' : 'Add to watchlist'}
        data-testid="watch-button"
        onClick={() => {
          if (!pending) void toggle(carId);
        }}
      >
        <HeartIcon size={20} fill={watched ? 'currentColor' : 'none'} />
        {variant === 'full' && <span aria-hidden="true">{watched ? 'Watching' : 'Watch'}</span>}
      </button>
      {failed && (
        <span className="watch-btn__error" role="alert">
          Could not update your watchlist
        </span>
      )}
    </span>
  );
}
