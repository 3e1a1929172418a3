import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS, smallestPlanFor, amountCharged } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { ErrorNotice } from '../../../components/ui/load-state.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { acceptBid, getCarBids, type RecordedBid, type MyListing, type OrderWithEvents } from '../api/my-listings.ts';
import { carName } from '../lib/dashboard-format.ts';
import { orderPath } from '@common/paths.ts';

/** "Accept the highest bid?": the bid, what follows, and the order it creates. */
export function AcceptBidDialog({
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
  // Newest first; accepted bids only ever rise, so the first is the highest.
  const { resource, retry } = useResource(`highest-bid:${listing.id}`, (signal) => getCarBids(listing.id, signal).then((bids) => bids[0] ?? null));
  const [key] = useState(newIdempotencyKey);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [order, setOrder] = useState<OrderWithEvents | null>(null);

  async function accept(bid: RecordedBid) {
    setSubmitting(true);
    setError(null);
    try {
      const placed = await acceptBid(listing.id, bid.id, key);
      setOrder(placed);
      onAccepted(placed);
    } catch (err) {
      setError(errorMessage(err));
      if (err instanceof ApiError && err.code === ErrorCode.BID_NOT_HIGHEST) {
        // A higher bid came in meanwhile: show it instead.
        retry();
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
            {order.buyerName} can now pay <strong>{formatUsd(amountCharged(order))}</strong> into escrow. The car
            leaves the market once the payment is held, and you are paid after the buyer approves it.
          </p>
        </Alert>
        <div className="modal-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={onClose}>
            Close
          </button>
          <Link to={orderPath(order.id)} className="btn btn--primary" data-autofocus>
            Go to Order #{order.id}
          </Link>
        </div>
      </div>
    );
  }

  if (resource.status === 'loading') return <LoadingStatus label="Loading the highest bid..." />;
  if (resource.status === 'error') return <ErrorNotice message={resource.message} onRetry={retry} />;
  const bid = resource.data;
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
      <Facts className="modal-dialog__facts">
        <Fact label="Highest bid">{formatUsd(bid.amount)}</Fact>
        <Fact label="Bidder">{bid.userName}</Fact>
        <Fact label="Placed">
          <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
        </Fact>
        <Fact label="Asking price">{formatUsd(listing.price)}</Fact>
        {plan && (
          <Fact label="Escrow plan (fee paid by the buyer)">
            {ESCROW_PLANS[plan].name}, {formatUsd(ESCROW_PLANS[plan].price)}
          </Fact>
        )}
      </Facts>
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
