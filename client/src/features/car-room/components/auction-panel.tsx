import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { GavelIcon, ReceiptIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { serverNow } from '../../../lib/server-clock.ts';
import { useSecondsLeft } from '../../../lib/countdown.ts';
import type { OrderWithEvents } from '../api/car-room-api.ts';
import type { AuctionView } from '../stores/car-room-merge.ts';
import { acceptHighestBidOf, refreshDetail } from '../stores/car-room-store.ts';
import { orderPath } from '@common/paths.ts';

/** How long after the end (on the server's clock) a page that heard no close reads the car again. */
const CLOSE_GRACE_MS = 2_500;
const CLOSE_SPREAD_MS = 1_500;
/** Then how often, until the close shows. */
const CLOSE_POLL_MS = 10_000;
/** Timers wait at most this long at once (browsers cap timeouts near 24.8 days). */
const LONGEST_WAIT_MS = 86_400_000;

/**
 * The close normally arrives live (`auction:ended`). If this page hears nothing a little after
 * the end (its connection was down, say), it reads the car again, then every few seconds until
 * the server shows the close. Nothing is decided here: the page only asks.
 */
export function useAuctionCloseWatch(carId: number, endsAt: string | null, closed: boolean): void {
  useEffect(() => {
    if (closed || endsAt === null) return;
    const end = Date.parse(endsAt);
    if (Number.isNaN(end)) return;
    let timer: ReturnType<typeof setTimeout>;
    const wait = (ms: number) => {
      timer = setTimeout(tick, Math.min(LONGEST_WAIT_MS, Math.max(0, ms)));
    };
    function tick() {
      const left = end - serverNow();
      if (left > 0) {
        wait(left + CLOSE_GRACE_MS + Math.random() * CLOSE_SPREAD_MS);
        return;
      }
      void refreshDetail(carId);
      wait(CLOSE_POLL_MS);
    }
    wait(end - serverNow() + CLOSE_GRACE_MS + Math.random() * CLOSE_SPREAD_MS);
    return () => clearTimeout(timer);
  }, [carId, endsAt, closed]);
}

/** The running auction: the big countdown (with "Extended") and where the reserve stands. */
export function AuctionClock({ view, ownCar }: { view: AuctionView; ownCar: boolean }) {
  return (
    <div className="auction-clock" data-testid="auction-clock">
      <Countdown endsAt={view.endsAt} size="lg" extendedAt={view.extendedAt} extensions={view.extensions} label="Ends in" />
      <ReserveStatus view={view} ownCar={ownCar} />
    </div>
  );
}

/** "No reserve", "Reserve met" or "Reserve not met"; the seller also sees their reserve. */
export function ReserveStatus({ view, ownCar }: { view: AuctionView; ownCar: boolean }) {
  const kind = !view.hasReserve ? 'none' : view.reserveMet ? 'met' : 'not-met';
  const text = { none: 'No reserve', met: 'Reserve met', 'not-met': 'Reserve not met' }[kind];
  const detail = {
    none: 'The highest bid at the end wins.',
    met: 'The highest bid at the end wins.',
    'not-met': 'The car sells only if bidding reaches the reserve.',
  }[kind];
  return (
    <p className={`callout callout--icon auction-reserve auction-reserve--${kind}`}>
      <ShieldCheckIcon size={16} />
      <span>
        <strong data-testid="reserve-status">{text}</strong> <span className="auction-reserve__detail">{detail}</span>
        {ownCar && view.reservePrice !== null && (
          <span className="auction-reserve__own" data-testid="own-reserve">
            Your reserve: {formatUsd(view.reservePrice)} (only you see it)
          </span>
        )}
      </span>
    </p>
  );
}

/**
 * After the close, instead of the bid form: how the auction ended, in the server's words, and
 * the next step for whoever has one (the winner pays; the seller may accept a bid below the
 * reserve for a day). Until the result is known it says it is on its way.
 */
export function AuctionOutcomePanel({ carId, view, ownCar }: { carId: number; view: AuctionView; ownCar: boolean }) {
  const outcome = view.outcome;
  const highest = view.highestBid;
  return (
    <section
      className={`auction-outcome auction-outcome--${outcome ?? 'pending'}`}
      data-testid="auction-outcome"
      data-outcome={outcome ?? 'pending'}
      aria-live="polite"
    >
      {view.lateBid && (
        <Alert tone="error" testId="late-bid">
          <p>
            {view.lateBid.replace(/[.!]+$/, '')}. Your bid was not placed: every auction closes by the server&apos;s clock.
          </p>
        </Alert>
      )}
      {outcome === null && (
        <>
          <p className="auction-outcome__title">Auction ended</p>
          <p className="auction-outcome__text" role="status">
            <span className="spinner auction-outcome__spinner" aria-hidden="true" />
            Waiting for the result…
          </p>
        </>
      )}
      {outcome === 'sold' && (
        <>
          <p className="auction-outcome__eyebrow">Auction ended</p>
          <p className="auction-outcome__title">Sold for {highest === null ? '' : formatUsd(highest)}</p>
          {view.won ? (
            <div className="auction-outcome__win">
              <p className="auction-outcome__text">
                <strong>You won!</strong> Pay into escrow to complete the purchase: your money is held until you approve the car.
              </p>
              {view.order ? (
                <Link to={orderPath(view.order.id)} className="btn btn--gold btn--block btn--lg" data-testid="pay-now">
                  {view.order.status === 'awaiting_payment' ? 'Pay now' : 'View your order'}
                </Link>
              ) : (
                <p className="muted">Finding your order…</p>
              )}
            </div>
          ) : ownCar ? (
            <p className="auction-outcome__text">
              The winner pays into escrow next; you are paid once they approve the car.
              {view.order && (
                <>
                  {' '}
                  <Link to={orderPath(view.order.id)} className="text-link">
                    Order #{view.order.id}
                  </Link>
                </>
              )}
            </p>
          ) : (
            <p className="auction-outcome__text">The highest bid won; the sale completes through escrow.</p>
          )}
        </>
      )}
      {outcome === 'reserve_not_met' && (
        <>
          <p className="auction-outcome__eyebrow">Auction ended</p>
          <p className="auction-outcome__title">Reserve not met</p>
          <p className="auction-outcome__text">
            Bidding ended at {highest === null ? 'no bid' : formatUsd(highest)}, below the seller&apos;s reserve
            {ownCar && view.reservePrice !== null ? ` of ${formatUsd(view.reservePrice)}` : ''}.
            {!ownCar && ' The seller may still accept the highest bid.'}
          </p>
          {ownCar && <AcceptHighestBid carId={carId} view={view} />}
        </>
      )}
      {outcome === 'no_bids' && (
        <>
          <p className="auction-outcome__eyebrow">Auction ended</p>
          <p className="auction-outcome__title">Ended without bids</p>
          <p className="auction-outcome__text">Nobody bid before the end{ownCar ? '. You can list the car again from Sell your car.' : '.'}</p>
        </>
      )}
    </section>
  );
}

/** The seller's "Accept highest bid" after a reserve-not-met close, while the day to do so runs. */
function AcceptHighestBid({ carId, view }: { carId: number; view: AuctionView }) {
  const [key] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [order, setOrder] = useState<OrderWithEvents | null>(null);
  const secondsLeft = useSecondsLeft(view.acceptUntil);
  const existing = order ? { id: order.id } : view.order;

  if (existing) {
    return (
      <p className="auction-outcome__next" data-testid="accepted-order">
        <ReceiptIcon size={18} />
        <span>
          {order ? `You accepted ${formatUsd(order.amount)}: ` : 'An order is open for this car: '}
          <Link to={orderPath(existing.id)} className="text-link">
            Go to Order #{existing.id}
          </Link>
        </span>
      </p>
    );
  }
  if (view.acceptUntil === null || view.highestBid === null) return null;
  if (secondsLeft === 0) {
    return <p className="auction-outcome__text muted">The day to accept the highest bid has passed.</p>;
  }

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      setOrder(await acceptHighestBidOf(carId, key));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auction-accept">
      <button type="button" className="btn btn--gold btn--block btn--lg" onClick={() => void accept()} disabled={busy} data-testid="accept-highest-bid">
        <GavelIcon size={18} />
        {busy ? 'Accepting...' : `Accept highest bid (${formatUsd(view.highestBid)})`}
      </button>
      <Countdown endsAt={view.acceptUntil} label="You can accept for" testId="accept-countdown" />
      <p className="auction-accept__note">An escrow order is created for the highest bidder, who then pays into escrow.</p>
      {error && (
        <Alert tone="error" testId="accept-error">
          <p>{error}</p>
        </Alert>
      )}
    </div>
  );
}
