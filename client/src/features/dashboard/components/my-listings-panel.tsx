import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS, smallestPlanFor } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { CarIcon, ClockIcon, EyeIcon, GavelIcon, HeartIcon, PencilIcon, PlusIcon, ReceiptIcon } from '../../../components/ui/icons.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { ApiError, errorMessage, isAbortError } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { canWithdraw, listingStatusLabel, listingStatusTone } from '../../../lib/listing-status.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { recordServerTime } from '../../../lib/server-clock.ts';
import { useSecondsLeft } from '../../../lib/countdown.ts';
import { useResource } from '../../../lib/use-resource.ts';
import {
  acceptBid,
  getCarBids,
  getListingDetail,
  getMyListings,
  withdrawListing,
  type Bid,
  type MyListing,
  type OrderWithEvents,
} from '../api/my-listings.ts';
import { carName } from '../lib/dashboard-format.ts';
import { canAcceptBid, listingAuctionOutcome } from '../lib/listing-actions.ts';

const integer = new Intl.NumberFormat('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${integer.format(n)} ${n === 1 ? one : many}`;

function Thumb({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return src && !failed ? (
    <img className="dash-row__thumb" src={src} alt="" width={96} height={64} loading="lazy" onError={() => setFailed(true)} />
  ) : (
    <span className="dash-row__thumb dash-row__thumb--none" aria-hidden="true">
      <CarIcon size={22} />
    </span>
  );
}

type Action = { kind: 'withdraw' | 'accept'; listing: MyListing } | null;

/** "My Listings": the seller's cars with their numbers and what can be done with each. */
export function MyListingsPanel({ userId }: { userId: number }) {
  const { resource, retry, mutate } = useResource(`my-listings:${userId}`, getMyListings);
  const [action, setAction] = useState<Action>(null);

  function patch(id: number, change: Partial<MyListing>) {
    mutate((listings) => listings.map((l) => (l.id === id ? { ...l, ...change } : l)));
  }

  if (resource.status === 'loading') return <LoadingStatus label="Loading your listings..." />;
  if (resource.status === 'error') {
    return (
      <div className="notice notice--error" role="alert">
        <p>{resource.message}</p>
        <button type="button" className="btn btn--dark btn--sm" onClick={retry}>
          Retry
        </button>
      </div>
    );
  }
  const listings = resource.data;

  return (
    <div className="my-listings">
      <div className="my-listings__head">
        <p className="muted">
          {listings.length === 0 ? 'You have no listings yet.' : `${plural(listings.length, 'listing')}, newest first.`}
        </p>
        <Link to="/sell" className="btn btn--gold btn--sm">
          <PlusIcon size={16} />
          Sell your car
        </Link>
      </div>
      {listings.length === 0 ? (
        <div className="dash-empty">
          <span className="dash-empty__icon">
            <CarIcon size={28} />
          </span>
          <p className="dash-empty__title">Nothing listed yet</p>
          <p className="dash-empty__text">
            List your car with photos in a few minutes; buyers bid or buy it through escrow.{' '}
            <Link to="/sell" className="text-link">
              Sell your car
            </Link>
          </p>
        </div>
      ) : (
        <ul className="dash-rows" aria-label="Your listings, newest first">
          {listings.map((listing) => (
            <ListingRow key={listing.id} listing={listing} onAction={setAction} />
          ))}
        </ul>
      )}

      <WithdrawDialog
        listing={action?.kind === 'withdraw' ? action.listing : null}
        onClose={() => setAction(null)}
        onWithdrawn={(id) => patch(id, { status: 'withdrawn', openOrderId: null })}
      />
      <AcceptBidDialog
        listing={action?.kind === 'accept' ? action.listing : null}
        onClose={() => setAction(null)}
        onAccepted={(order) => patch(order.carId, { openOrderId: order.id })}
      />
    </div>
  );
}

/**
 * An auction that ended below its reserve may still be sold for a day: the listing row does not
 * say until when, so such a row reads its car (the seller's view) once. Undefined while unknown.
 */
function useAcceptUntil(listing: MyListing): string | null | undefined {
  const wanted = listing.auction !== null && canAcceptBid(listing);
  const [read, setRead] = useState<{ id: number; acceptUntil: string | null } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    getListingDetail(listing.id, controller.signal)
      .then((detail) => {
        recordServerTime(detail.serverTime);
        setRead({ id: listing.id, acceptUntil: detail.auction?.acceptUntil ?? null });
      })
      .catch(() => {
        // Without it the action stays offered; the server still says when the day has passed.
      });
    return () => controller.abort();
  }, [wanted, listing.id]);
  return wanted && read?.id === listing.id ? read.acceptUntil : undefined;
}

const OUTCOME_TEXT = { sold: 'Sold', reserve_not_met: 'Reserve not met', no_bids: 'Ended without bids' } as const;

/** A running auction's countdown and reserve; an ended one's outcome and, below the reserve, the day left to accept. */
function ListingAuction({ listing, acceptUntil }: { listing: MyListing; acceptUntil: string | null | undefined }) {
  const auction = listing.auction!;
  const outcome = listingAuctionOutcome(listing);
  const acceptLeft = useSecondsLeft(acceptUntil ?? null);
  if (!auction.ended) {
    return (
      <div className="listing-auction" data-testid="listing-auction" data-state="running">
        <Countdown endsAt={auction.endsAt} testId="listing-countdown" extensions={auction.extensions} />
        <span className="listing-auction__reserve">
          {!auction.hasReserve ? 'No reserve' : auction.reserveMet ? 'Reserve met' : 'Reserve not met'}
          {auction.extensions > 0 && ` · extended ${auction.extensions === 1 ? 'once' : `${auction.extensions} times`}`}
        </span>
      </div>
    );
  }
  return (
    <div className="listing-auction listing-auction--ended" data-testid="listing-auction" data-state="ended">
      <p className="listing-auction__outcome">
        <ClockIcon size={15} />
        <span>
          Auction ended <time dateTime={auction.endsAt}>{formatDateTime(auction.endsAt)}</time>:{' '}
          <strong data-testid="listing-outcome">
            {outcome === 'sold' && listing.highestBid !== null ? `Sold for ${formatUsd(listing.highestBid)}` : outcome ? OUTCOME_TEXT[outcome] : 'Closed'}
          </strong>
        </span>
      </p>
      {outcome === 'reserve_not_met' && acceptUntil && acceptLeft !== null && acceptLeft > 0 && (
        <Countdown endsAt={acceptUntil} label="You can accept the highest bid for" testId="listing-accept-countdown" />
      )}
      {outcome === 'reserve_not_met' && acceptUntil && acceptLeft === 0 && (
        <p className="listing-auction__passed">The day to accept the highest bid has passed.</p>
      )}
    </div>
  );
}

function ListingRow({ listing, onAction }: { listing: MyListing; onAction: (action: Action) => void }) {
  const name = carName(listing);
  const acceptUntil = useAcceptUntil(listing);
  const acceptLeft = useSecondsLeft(acceptUntil ?? null);
  // After a reserve-not-met close the action is offered only while the day to accept runs.
  const acceptable = canAcceptBid(listing) && !(acceptUntil !== undefined && (acceptUntil === null || acceptLeft === 0));
  const draft = listing.status === 'draft';
  const editable = listing.status === 'draft' || listing.status === 'active' || listing.status === 'ended';
  return (
    <li className="dash-row dash-row--listing" data-testid="listing-row" data-car-id={listing.id}>
      <Thumb src={listing.primary_image} />
      <div className="dash-row__main">
        {draft ? (
          <span className="dash-row__title">{name}</span>
        ) : (
          <Link to={`/car/${listing.id}`} className="dash-row__title dash-link">
            {name}
          </Link>
        )}
        <p className="dash-row__meta listing-row__money">
          <strong>{formatUsd(listing.price)}</strong> ·{' '}
          <span data-testid="listing-market-value">
            {listing.market_value === null ? 'Market value: Not enough data' : `Market value ${formatUsd(listing.market_value)}`}
          </span>
        </p>
        <ul className="listing-row__stats" aria-label="Interest">
          <li>
            <GavelIcon size={15} />
            {plural(listing.current_bids, 'bid')}
            {listing.highestBid !== null && <>, highest {formatUsd(listing.highestBid)}</>}
          </li>
          <li>
            <EyeIcon size={15} />
            {integer.format(listing.viewing_count)} viewing now
          </li>
          <li>
            <HeartIcon size={15} />
            {integer.format(listing.watchers)} watching
          </li>
        </ul>
        {listing.auction && <ListingAuction listing={listing} acceptUntil={acceptUntil} />}
        {listing.openOrderId !== null && (
          <p className="dash-row__next">
            <ReceiptIcon size={15} />{' '}
            <Link to={`/orders/${listing.openOrderId}`} className="dash-link" data-testid="listing-order-link">
              Order #{listing.openOrderId}
            </Link>
          </p>
        )}
        {draft && <p className="dash-row__next">Not published yet: add photos and publish when you are ready.</p>}
      </div>
      <div className="dash-row__side listing-row__side">
        <span className={`status-badge status-badge--${listingStatusTone(listing.status)}`} data-testid="listing-status">
          {listingStatusLabel(listing.status)}
        </span>
      </div>
      <div className="listing-row__actions">
        {editable && (
          <Link to={`/sell/${listing.id}/edit`} className="btn btn--outline btn--sm" aria-label={`${draft ? 'Continue' : 'Edit'} ${name}`}>
            <PencilIcon size={15} />
            {draft ? 'Continue' : 'Edit'}
          </Link>
        )}
        {acceptable && (
          <button
            type="button"
            className="btn btn--gold btn--sm"
            aria-haspopup="dialog"
            aria-label={`Accept highest bid for ${name}`}
            onClick={() => onAction({ kind: 'accept', listing })}
          >
            Accept Highest Bid
          </button>
        )}
        {canWithdraw(listing.status) && (
          <button
            type="button"
            className="btn btn--outline btn--sm"
            aria-haspopup="dialog"
            aria-label={`Withdraw ${name}`}
            onClick={() => onAction({ kind: 'withdraw', listing })}
          >
            Withdraw
          </button>
        )}
      </div>
    </li>
  );
}

function WithdrawDialog({
  listing,
  onClose,
  onWithdrawn,
}: {
  listing: MyListing | null;
  onClose: () => void;
  onWithdrawn: (id: number) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<number | null>(null);
  // A new listing in the dialog starts without the last one's error.
  if ((listing?.id ?? null) !== shownFor) {
    setShownFor(listing?.id ?? null);
    setError(null);
  }

  async function confirm() {
    if (!listing) return;
    setBusy(true);
    setError(null);
    try {
      await withdrawListing(listing.id);
      onWithdrawn(listing.id);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog
      open={listing !== null}
      busy={busy}
      onClose={onClose}
      title="Withdraw this listing?"
      subtitle={listing ? carName(listing) : undefined}
      description="The car leaves the market at once. Unpaid orders for it are cancelled and everyone watching it is told. A withdrawn listing cannot be put back."
      testId="withdraw-dialog"
    >
      {error && (
        <Alert tone="error">
          <p>{error}</p>
        </Alert>
      )}
      <div className="modal-dialog__actions">
        <button type="button" className="btn btn--outline" onClick={onClose} disabled={busy} data-autofocus>
          Keep Listing
        </button>
        <button type="button" className="btn btn--danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Withdrawing...' : 'Withdraw Listing'}
        </button>
      </div>
    </ModalDialog>
  );
}

type BidState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; bid: Bid | null };

function AcceptBidDialog({
  listing,
  onClose,
  onAccepted,
}: {
  listing: MyListing | null;
  onClose: () => void;
  onAccepted: (order: OrderWithEvents) => void;
}) {
  return (
    <ModalDialog
      open={listing !== null}
      onClose={onClose}
      title="Accept the highest bid?"
      subtitle={listing ? carName(listing) : undefined}
      testId="accept-bid-dialog"
    >
      {listing && <AcceptBidBody key={listing.id} listing={listing} onClose={onClose} onAccepted={onAccepted} />}
    </ModalDialog>
  );
}

function AcceptBidBody({
  listing,
  onClose,
  onAccepted,
}: {
  listing: MyListing;
  onClose: () => void;
  onAccepted: (order: OrderWithEvents) => void;
}) {
  const [bidState, setBidState] = useState<BidState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [key] = useState(newIdempotencyKey);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [order, setOrder] = useState<OrderWithEvents | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getCarBids(listing.id, controller.signal)
      .then((bids) => setBidState({ status: 'ready', bid: bids[0] ?? null }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted && !isAbortError(err)) setBidState({ status: 'error', message: errorMessage(err) });
      });
    return () => controller.abort();
  }, [listing.id, attempt]);

  async function accept(bid: Bid) {
    setSubmitting(true);
    setError(null);
    try {
      const placed = await acceptBid(listing.id, bid.id, key);
      setOrder(placed);
      onAccepted(placed);
    } catch (err) {
      setError(errorMessage(err));
      if (err instanceof ApiError && err.code === 'BID_NOT_HIGHEST') {
        // A higher bid came in meanwhile: show it instead.
        setBidState({ status: 'loading' });
        setAttempt((n) => n + 1);
      }
    } finally {
      setSubmitting(false);
    }
  }

  if (order) {
    return (
      <div className="accept-bid" data-testid="accept-bid-done">
        <Alert tone="success" title={`Order #${order.id} created`}>
          <p>
            {order.buyerName} can now pay <strong>{formatUsd(order.amount + order.escrowFee)}</strong> into escrow. The car
            leaves the market once the payment is held, and you are paid after the buyer approves it.
          </p>
        </Alert>
        <div className="modal-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={onClose}>
            Close
          </button>
          <Link to={`/orders/${order.id}`} className="btn btn--primary" data-autofocus>
            Go to Order #{order.id}
          </Link>
        </div>
      </div>
    );
  }

  if (bidState.status === 'loading') return <LoadingStatus label="Loading the highest bid..." />;
  if (bidState.status === 'error') {
    return (
      <div className="notice notice--error" role="alert">
        <p>{bidState.message}</p>
        <button
          type="button"
          className="btn btn--dark btn--sm"
          onClick={() => {
            setBidState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          Retry
        </button>
      </div>
    );
  }
  const bid = bidState.bid;
  if (!bid) {
    return (
      <>
        <p>There are no bids on this car yet.</p>
        <div className="modal-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
      </>
    );
  }
  const plan = smallestPlanFor(bid.amount);
  return (
    <div className="accept-bid">
      <p className="accept-bid__lead">
        Accept <strong data-testid="accept-bid-amount">{formatUsd(bid.amount)}</strong> from <strong>{bid.userName}</strong>?
      </p>
      <dl className="modal-dialog__facts">
        <div>
          <dt>Highest bid</dt>
          <dd>{formatUsd(bid.amount)}</dd>
        </div>
        <div>
          <dt>Bidder</dt>
          <dd>{bid.userName}</dd>
        </div>
        <div>
          <dt>Placed</dt>
          <dd>
            <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
          </dd>
        </div>
        <div>
          <dt>Asking price</dt>
          <dd>{formatUsd(listing.price)}</dd>
        </div>
        {plan && (
          <div>
            <dt>Escrow plan (fee paid by the buyer)</dt>
            <dd>
              {ESCROW_PLANS[plan].name}, {formatUsd(ESCROW_PLANS[plan].price)}
            </dd>
          </div>
        )}
      </dl>
      <p className="muted">
        An escrow order is created for {bid.userName} at {formatUsd(bid.amount)}. They pay into escrow; the car leaves the
        market once the payment is held, and you are paid after the buyer approves the car.
      </p>
      {error && (
        <Alert tone="error" testId="accept-bid-error">
          <p>{error}</p>
        </Alert>
      )}
      <AcceptActions busy={submitting} onCancel={onClose} onConfirm={() => void accept(bid)}>
        {submitting ? 'Accepting...' : `Accept ${formatUsd(bid.amount)}`}
      </AcceptActions>
    </div>
  );
}

function AcceptActions({ busy, onCancel, onConfirm, children }: { busy: boolean; onCancel: () => void; onConfirm: () => void; children: ReactNode }) {
  return (
    <div className="modal-dialog__actions">
      <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy} data-autofocus>
        Cancel
      </button>
      <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy}>
        {children}
      </button>
    </div>
  );
}
