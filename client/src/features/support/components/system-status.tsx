import { useEffect, useState } from 'react';
import { AlertIcon, CheckIcon, DatabaseIcon, RefreshIcon, ServerIcon } from '../../../components/ui/icons.tsx';
import { isAbortError } from '../../../lib/api-client.ts';
import { checkHealth, type HealthState } from '../api/support.ts';

type Check = { attempt: number; state: HealthState; checkedAt: Date };

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

function summary(state: HealthState): { title: string; tone: 'ok' | 'degraded' | 'down' } {
  switch (state.kind) {
    case 'operational':
      return { title: 'Operational', tone: 'ok' };
    case 'degraded':
      return {
        title: state.database === 'unreachable' ? 'Degraded — database unreachable' : state.database === 'busy' ? 'Degraded — busy, new bids and messages paused' : 'Degraded',
        tone: 'degraded',
      };
    case 'unreachable':
      return { title: 'Unavailable — the service could not be reached', tone: 'down' };
  }
}

/** System Status from `GET /api/health`, with the time of the last check and a refresh button. */
export function SystemStatus() {
  const [attempt, setAttempt] = useState(0);
  const [check, setCheck] = useState<Check | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    checkHealth(controller.signal)
      .then((state) => setCheck({ attempt, state, checkedAt: new Date() }))
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setCheck({ attempt, state: { kind: 'unreachable', message: 'Request failed' }, checkedAt: new Date() });
      });
    return () => controller.abort();
  }, [attempt]);

  // The last result stays on screen while a refresh runs.
  const checking = check?.attempt !== attempt;
  const state = check?.state ?? null;
  const checkedAt = check?.checkedAt ?? null;
  const run = () => setAttempt((n) => n + 1);

  const overall = state ? summary(state) : null;
  const api = state ? (state.kind === 'unreachable' ? 'down' : 'ok') : null;
  const db = state ? (state.kind === 'operational' ? 'ok' : state.kind === 'degraded' && state.database === 'ok' ? 'ok' : 'down') : null;

  return (
    <div className="status">
      <div className={`status__banner status__banner--${overall?.tone ?? 'pending'}`} role="status" data-testid="system-status">
        <span className="status__dot" aria-hidden="true">
          {overall?.tone === 'ok' ? <CheckIcon size={20} /> : overall ? <AlertIcon size={20} /> : null}
        </span>
        <div>
          <p className="status__title">{overall ? overall.title : 'Checking status...'}</p>
          <p className="status__sub">
            {overall?.tone === 'ok' && 'All LuxeMotors services are running normally.'}
            {overall?.tone === 'degraded' &&
              'Browsing may be slow or fail, and new bids, messages and orders may not go through. We are on it.'}
            {overall?.tone === 'down' && 'Check your internet connection and try again.'}
            {!overall && 'Contacting the LuxeMotors servers.'}
          </p>
        </div>
      </div>

      <ul className="status__components" aria-label="Services">
        <li>
          <ServerIcon size={20} />
          <span className="status__name">Website &amp; API</span>
          <StatusPill value={api} />
        </li>
        <li>
          <DatabaseIcon size={20} />
          <span className="status__name">Database</span>
          <StatusPill value={db} downText={state?.kind === 'degraded' ? 'Unreachable' : 'Unknown'} />
        </li>
      </ul>

      <div className="split-row status__footer">
        <p className="status__checked" data-testid="status-checked">
          {checkedAt ? (
            <>
              Last checked <time dateTime={checkedAt.toISOString()}>{timeFormat.format(checkedAt)}</time>
            </>
          ) : (
            'Not checked yet'
          )}
        </p>
        <button
          type="button"
          className="btn btn--outline btn--sm"
          // Not `disabled`: that would drop keyboard focus from the button while it checks.
          aria-disabled={checking}
          onClick={() => {
            if (!checking) run();
          }}
        >
          <RefreshIcon size={16} />
          {checking ? 'Checking...' : 'Refresh Status'}
        </button>
      </div>
    </div>
  );
}

function StatusPill({ value, downText = 'Unavailable' }: { value: 'ok' | 'down' | null; downText?: string }) {
  if (value === null) return <span className="status-pill">Checking</span>;
  return value === 'ok' ? (
    <span className="status-pill status-pill--ok">Operational</span>
  ) : (
    <span className="status-pill status-pill--down">{downText}</span>
  );
}
