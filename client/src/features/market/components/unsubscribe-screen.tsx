import { Link, useSearchParams } from 'react-router-dom';
import { PAGES } from '@common/paths.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useSubmission } from '../../../lib/use-submission.ts';
import { useState } from 'react';
import { unsubscribeAlerts } from '../api/market-api.ts';
import './market.css';

/**
 * `/unsubscribe?token=`: the link in an alert email. Opening it changes nothing (mail scanners
 * follow links; RFC 8058 keeps one-click unsubscribing to a POST): one button press turns the
 * search's alerts off. No sign-in: the token names the search.
 */
export function UnsubscribeScreen() {
  useDocumentTitle('Turn off alerts');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { submitting, error, submit } = useSubmission();
  const [done, setDone] = useState<string | null>(null);

  function turnOff() {
    void submit(async () => {
      const { name } = await unsubscribeAlerts(token);
      setDone(name);
    });
  }

  return (
    <div className="container page">
      <section className="card unsubscribe" aria-labelledby="unsubscribe-title" data-testid="unsubscribe">
        <h1 id="unsubscribe-title" className="section-title">
          {done === null ? 'Turn off alerts' : 'Alerts turned off'}
        </h1>
        {!token ? (
          <p className="callout tone-error" role="alert">
            This link has no token. Use the unsubscribe link in the alert email, or change the alerts under Saved searches in your dashboard.
          </p>
        ) : done !== null ? (
          <p className="callout tone-success" role="status" data-testid="unsubscribe-done">
            {`Alerts for "${done}" are off`}
          </p>
        ) : (
          <>
            <p>Stop the emails of this saved search? The search itself stays in your dashboard, where you can turn its alerts on again.</p>
            {error && (
              <p className="callout tone-error" role="alert">
                {error}
              </p>
            )}
            <button type="button" className="btn btn--dark" onClick={turnOff} disabled={submitting}>
              {submitting ? 'Turning off...' : 'Turn off alerts'}
            </button>
          </>
        )}
        <p className="muted">
          <Link to={`${PAGES.dashboard}?tab=searches`} className="text-link">
            Manage saved searches
          </Link>
          {' · '}
          <Link to={PAGES.home} className="text-link">
            Browse cars
          </Link>
        </p>
      </section>
    </div>
  );
}
