import { isConnectionDown, useConnectionStore } from '../../lib/connection-store.ts';
import './connection-banner.css';

/**
 * "Reconnecting…" while the live connection is down. The status region is always present (so
 * screen readers announce the change); it is only visible while there is something to say.
 */
export function ConnectionBanner() {
  const status = useConnectionStore((s) => s.status);
  const down = isConnectionDown(status);
  return (
    <div className={down ? 'connection-banner is-visible' : 'connection-banner'} role="status" aria-live="polite">
      {down && (
        <div className="container connection-banner__inner" data-testid="reconnecting-banner">
          <span className="spinner connection-banner__spinner" aria-hidden="true" />
          <p>
            <strong>Reconnecting…</strong>{' '}
            {status === 'offline'
              ? 'You appear to be offline. Live bids, viewers and messages will catch up when you are back.'
              : 'Live updates are paused and will catch up automatically.'}
          </p>
        </div>
      )}
    </div>
  );
}
