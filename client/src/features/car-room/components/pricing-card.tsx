import { useId } from 'react';
import { Link } from 'react-router-dom';
import { compareToMarket, formatUsd } from '@common/pricing.ts';
import { EyeIcon, GavelIcon, InfoIcon, ReceiptIcon, ShieldCheckIcon, TrendIcon } from '../../../components/ui/icons.tsx';
import { isFinalOrderStatus } from '../../../lib/order-progress.ts';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { formatRelativeTime } from '../../../lib/relative-time.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { Bid, CarDetail, Order } from '../api/car-room-api.ts';
import { WatchButton } from '../../../components/watch-button.tsx';
import { BuyWithEscrow } from '../../escrow/components/buy-with-escrow.tsx';
import { carStatusNotice } from '../lib/car-status.ts';
import { recordPlacedOrder, syncRoom } from '../stores/car-room-store.ts';
import { BidForm } from './bid-form.tsx';
import { TrophyIcon } from './room-icons.tsx';

const RECENT_BIDS_SHOWN = 5;

/** Asking price against market value, the live counters, the bid form and the order button. */
export function PricingCard({
  detail,
  currentBids,
  highestBid,
  viewers,
  minimum,
  bids,
  myOrder,
  userId,
}: {
  detail: CarDetail;
  currentBids: number;
  highestBid: number | null;
  viewers: number;
  minimum: number | null;
  bids: Bid[];
  /** The signed-in user's order for this car, if any. */
  myOrder: Order | null;
  userId: number | null;
}) {
  const titleId = useId();
  const market = compareToMarket(detail.price, detail.marketValue);
  const notice = carStatusNotice(detail.status);
  const title = `${detail.year} ${detail.make} ${detail.model}`;
  // A buyer with an open order for the car follows it rather than ordering twice.
  const buyingAlready = myOrder !== null && myOrder.buyerId === userId && !isFinalOrderStatus(myOrder.status);
  return (
    <section className="pricing-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="sr-only">
        Pricing and bidding
      </h2>
      <p className="pricing-card__eyebrow">Asking price</p>
      <p className="pricing-card__price" data-testid="asking-price">
        {formatUsd(detail.price)}
      </p>
      <p className="pricing-card__market">
        Market value: <strong>{detail.marketValue === null ? 'not yet estimated' : formatUsd(detail.marketValue)}</strong>
      </p>

      <dl className="pricing-stats">
        <div className="pricing-stats__item">
          <dt>
            <TrendIcon size={16} /> Price vs Market
          </dt>
          <dd>
            {market ? (
              <span className={`market-label market-label--${market.kind}`} data-testid="price-vs-market">
                {market.label}
              </span>
            ) : (
              <span data-testid="price-vs-market">Too few comparable cars</span>
            )}
          </dd>
        </div>
        <div className="pricing-stats__item">
          <dt>
            <GavelIcon size={16} /> Active bids
          </dt>
          <dd data-testid="active-bids">{currentBids.toLocaleString('en-US')}</dd>
        </div>
        <div className="pricing-stats__item">
          <dt>
            <EyeIcon size={16} /> Currently viewing
          </dt>
          <dd data-testid="viewers">
            <span className="live-dot" aria-hidden="true" />
            {viewers.toLocaleString('en-US')}
          </dd>
        </div>
        <div className="pricing-stats__item">
          <dt>
            <TrophyIcon size={16} /> Highest bid
          </dt>
          <dd data-testid="highest-bid" className="pricing-stats__highest">
            {highestBid === null ? 'No bids yet' : formatUsd(highestBid)}
          </dd>
        </div>
      </dl>

      {notice ? (
        <div className={`listing-status listing-status--${notice.tone}`} role="status" data-testid="car-status-notice">
          <InfoIcon size={20} />
          <div>
            <p className="listing-status__title">{notice.badge}</p>
            <p>{notice.text}</p>
          </div>
        </div>
      ) : (
        <BidForm carId={detail.id} minimum={minimum} />
      )}

      {bids.length > 0 && <RecentBids bids={bids.slice(0, RECENT_BIDS_SHOWN)} />}

      {myOrder && (
        <p className="my-order" data-testid="my-order">
          <ReceiptIcon size={18} />
          <span>
            {myOrder.buyerId === userId ? 'Your order' : 'An order'} for this car: Order #{myOrder.id},{' '}
            {orderStatusLabel(myOrder.status).toLowerCase()}.{' '}
            <Link to={`/orders/${myOrder.id}`} className="text-link">
              View your order
            </Link>
          </span>
        </p>
      )}

      {!notice && (
        <BuyWithEscrow
          carId={detail.id}
          price={detail.price}
          title={title}
          showTrigger={!buyingAlready}
          onPlaced={recordPlacedOrder}
          onStale={() => void syncRoom(detail.id)}
        />
      )}
      <WatchButton carId={detail.id} carTitle={title} variant="full" />
      <Link to="/support" className="btn btn--primary btn--block btn--lg pricing-card__order">
        Place Order - Contact Sales
      </Link>
      <p className="pricing-card__escrow">
        <ShieldCheckIcon size={18} />
        <span>
          Every purchase is protected by our{' '}
          <Link to="/escrow" className="text-link">
            escrow service
          </Link>
          : your payment is held securely until you have inspected and approved the vehicle.
        </span>
      </p>
    </section>
  );
}

function RecentBids({ bids }: { bids: Bid[] }) {
  const titleId = useId();
  const now = useNow();
  return (
    <section className="recent-bids" aria-labelledby={titleId}>
      <h3 id={titleId} className="recent-bids__title">
        Recent bids
      </h3>
      <ol className="recent-bids__list" data-testid="recent-bids">
        {bids.map((bid, i) => (
          <li key={bid.id} className={i === 0 ? 'recent-bids__item is-leading' : 'recent-bids__item'}>
            <span className="recent-bids__who">
              {bid.userName}
              {i === 0 && <span className="recent-bids__lead">Leading</span>}
            </span>
            <span className="recent-bids__amount">{formatUsd(bid.amount)}</span>
            <time className="recent-bids__time" dateTime={bid.timestamp}>
              {formatRelativeTime(bid.timestamp, now)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
