import { useEffect, useRef, useState } from 'react';
import { nextCountdownAnnouncement, type CountdownAnnouncerState } from '../../lib/live-announcements.ts';
import { countdownView, extensionsText, timeLeftText, useSecondsLeft, useShowsExtended } from '../../lib/countdown.ts';
import { formatDateTime } from '../../lib/relative-time.ts';
import { ClockIcon } from './icons.tsx';
import './countdown.css';

const endFormatter = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** "Mar 4, 3:07:42 PM" in the viewer's time zone ('' for an unreadable time). */
export function formatAuctionEnd(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : endFormatter.format(time);
}

interface AuctionCountdownProps {
  variant?: 'auction';
  endsAt: string;
  size?: 'sm' | 'lg';
  /** Local time (ms) a later end was seen, for the "Extended" notice. */
  extendedAt?: number | null;
  /** How many late bids moved the end (the server's count). */
  extensions?: number;
  label?: string;
  testId?: string;
}

interface DeadlineCountdownProps {
  variant: 'deadline';
  endsAt: string;
  /** "Time left to pay": said before the time left. */
  label: string;
  /** "Pay by": said before the deadline itself. */
  untilLabel: string;
  /** Said instead once the deadline has passed (the server then decides what follows). */
  overText: string;
  testId?: string;
}

/**
 * Time left until a deadline, ticking on its own (the page around it does not re-render), on the
 * server's clock as this browser estimates it. It never says what happened at zero: that is the
 * server's to say.
 *
 * An auction (the default variant): urgent in the last five minutes; "Extended" for a while after
 * a late bid moved the end; "Ended" at zero. `size="lg"` (the car page) also shows the end time
 * and the number of extensions, and announces urgency, extensions and the end to screen readers;
 * `size="sm"` (cards, lists) stays quiet.
 *
 * `variant="deadline"` (an order's payment window or inspection period): a sentence with the time
 * left and the deadline, and `overText` once it has passed.
 */
export function Countdown(props: AuctionCountdownProps | DeadlineCountdownProps) {
  return props.variant === 'deadline' ? <DeadlineCountdown {...props} /> : <AuctionCountdown {...props} />;
}

function DeadlineCountdown({ endsAt, label, untilLabel, overText, testId = 'deadline-countdown' }: DeadlineCountdownProps) {
  const seconds = useSecondsLeft(endsAt) ?? 0;
  return (
    <p className="countdown countdown--deadline" data-testid={testId}>
      <ClockIcon size={18} />
      {seconds > 0 ? (
        <span>
          {label}:{' '}
          <strong className="countdown__time" role="timer">
            {timeLeftText(seconds)}
          </strong>{' '}
          <span className="countdown__until">
            {untilLabel} <time dateTime={endsAt}>{formatDateTime(endsAt)}</time>
          </span>
        </span>
      ) : (
        <span>{overText}</span>
      )}
    </p>
  );
}

function AuctionCountdown({
  endsAt,
  size = 'sm',
  extendedAt = null,
  extensions = 0,
  label = 'Ends in',
  testId = 'auction-countdown',
}: AuctionCountdownProps) {
  const seconds = useSecondsLeft(endsAt);
  const extended = useShowsExtended(extendedAt);
  const view = countdownView(seconds ?? 0);
  const count = extensionsText(extensions);
  const state = view.ended ? 'ended' : view.urgent ? 'urgent' : 'running';
  const announcement = useCountdownAnnouncement(seconds, extensions, size === 'lg');

  return (
    <div
      className={`countdown countdown--${size} countdown--${state}${extended ? ' is-extended' : ''}`}
      data-testid={testId}
      data-state={state}
    >
      <p className="countdown__row">
        <ClockIcon size={size === 'lg' ? 20 : 15} className="countdown__icon" aria-hidden="true" />
        <span className="countdown__label">{view.ended ? 'Auction' : label}</span>
        <span className="countdown__value" role="timer" aria-label={view.ended ? 'Auction ended' : `${label} ${view.spoken}`}>
          <span aria-hidden="true" data-testid={`${testId}-value`}>
            {view.text}
          </span>
        </span>
        {view.urgent && <span className="countdown__flag">Ending soon</span>}
        {extended && !view.ended && (
          <span className="countdown__extended" data-testid={`${testId}-extended`}>
            Extended
          </span>
        )}
      </p>
      {size === 'lg' && (
        <p className="countdown__meta">
          <span>
            {view.ended ? 'Ended ' : 'Ends '}
            <time dateTime={endsAt} data-testid={`${testId}-ends-at`}>
              {formatAuctionEnd(endsAt)}
            </time>
          </span>
          {count && <span data-testid={`${testId}-extensions`}>{count}: bids in the last minutes move the end</span>}
        </p>
      )}
      {size === 'lg' && (
        <p className="sr-only" role="status" aria-atomic="true" data-testid={`${testId}-announcement`}>
          {announcement}
        </p>
      )}
    </div>
  );
}

/**
 * What the big countdown says to screen readers: one minute left, thirty seconds left, each
 * extension and the end (live-announcements.ts), never each second. The timer itself is
 * `role="timer"`, which screen readers do not read out as it changes.
 */
function useCountdownAnnouncement(seconds: number | null, extensions: number, speaks: boolean): string {
  const state = useRef<CountdownAnnouncerState>({ seconds: null, extensions });
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!speaks || seconds === null) return;
    const step = nextCountdownAnnouncement(state.current, seconds, extensions);
    state.current = step.state;
    if (step.say) setSaid(step.say);
  }, [seconds, extensions, speaks]);
  return said;
}
