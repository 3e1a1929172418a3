import { useId } from 'react';
import { Link } from 'react-router-dom';
import { compareToMarket, formatUsd } from '@common/pricing.ts';
import { EyeIcon, GavelIcon, ShieldCheckIcon, TrendIcon } from '../../../components/ui/icons.tsx';
import { formatRelativeTime } from '../../../lib/relative-time.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { Bid, CarDetail } from '../api/car-room-api.ts';
import { WatchButton } from '../../../components/watch-button.tsx';
import { BuyWithEscrow } from '../../escrow/components/buy-with-escrow.tsx';
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
}: {
  detail: CarDetail;
  currentBids: number;
  highestBid: number | null;
  viewers: number;
  minimum: number | null;
  bids: Bid[];
}) {
  const titleId = useId();
  const market = compareToMarket(detail.price, detail.marketValue);
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
        Market value: <strong>{formatUsd(detail.marketValue)}</strong>
      </p>

      <dl className="pricing-stats">
        <div className="pricing-stats__item">
          <dt>
            <TrendIcon size={16} /> Price vs Market
          </dt>
          <dd>
            <span className={`market-label market-label--${market.kind}`} data-testid="price-vs-market">
              {market.label}
            </span>
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

      <BidForm carId={detail.id} minimum={minimum} />

      {bids.length > 0 && <RecentBids bids={bids.slice(0, RECENT_BIDS_SHOWN)} />}

      <BuyWithEscrow carId={detail.id} price={detail.price} title={`${detail.year} ${detail.make} ${detail.model}`} />
      <WatchButton carId={detail.id} carTitle={`${detail.year} ${detail.make} ${detail.model}`} variant="full" />
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
