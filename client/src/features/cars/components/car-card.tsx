import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AuctionOutcome } from '@common/auction-rules.ts';
import { compareToMarket, formatUsd } from '@common/pricing.ts';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { EyeIcon, GaugeIcon, GavelIcon, MapPinIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { VerifiedBadge } from '../../../components/ui/verified-badge.tsx';
import { WatchButton } from '../../../components/watch-button.tsx';
import type { CarListItem } from '../api/get-cars.ts';
import { useListingLiveStore, type LiveCounts } from '../stores/listing-live-store.ts';
import { countLabel, formatMileage } from '../../../lib/quantities.ts';
import './car-card.css';
import { carPath } from '@common/paths.ts';

export function CarCard({ car }: { car: CarListItem }) {
  const titleId = useId();
  const [imageFailed, setImageFailed] = useState(false);
  const title = `${car.year} ${car.make} ${car.model}`;
  const market = compareToMarket(car.price, car.market_value);
  // Live counters from `car:summary` (listing-live-store) win over the page snapshot.
  const live = useListingLiveStore((s) => s.byId[car.id]);
  const currentBids = Math.max(car.current_bids, live?.currentBids ?? 0);
  const viewing = live?.viewers ?? car.viewing_count;
  const showImage = Boolean(car.primary_image) && !imageFailed;
  const auction = car.auction ? auctionOnCard(car, live) : null;

  return (
    <article className="car-card" data-testid="car-card" aria-labelledby={titleId}>
      <div className="media-frame car-card__media">
        {showImage ? (
          <img
            src={car.primary_image ?? undefined}
            alt={title}
            loading="lazy"
            decoding="async"
            width={640}
            height={400}
            onError={() => setImageFailed(true)}
          />
        ) : (
          <div className="car-card__no-image">No Image</div>
        )}
        <div className="car-card__badges">
          <span className="car-card__badge-group">
            <span className="badge badge--condition">{car.condition}</span>
            {auction && (
              <span className="badge badge--auction" data-testid="card-auction-badge">
                Auction
              </span>
            )}
          </span>
          {car.seller_verified && (
            <VerifiedBadge />
          )}
        </div>
        <div className="car-card__watch">
          <WatchButton carId={car.id} carTitle={title} />
        </div>
      </div>

      <div className="car-card__body">
        <h3 id={titleId} className="car-card__title">
          {title}
        </h3>
        <p className="car-card__location">
          <MapPinIcon size={16} />
          {car.location}
        </p>

        <div className="car-card__pricing">
          {auction && (
            <p className="caps-label caps-label--sm car-card__price-label" data-testid="card-price-label">
              {auction.highestBid === null ? 'Starting bid' : auction.ended ? 'Final bid' : 'Current bid'}
            </p>
          )}
          <p className="car-card__price">{formatUsd(auction?.highestBid ?? car.price)}</p>
          {market && <p className={`market-label market-label--${market.kind}`}>{market.label}</p>}
          {car.market_value === null ? (
            <p className="car-card__market-value car-card__market-value--none">Market value: too few comparable cars</p>
          ) : (
            <p className="car-card__market-value">Market value: {formatUsd(car.market_value)}</p>
          )}
        </div>

        {auction && <CardAuction auction={auction} />}

        <ul className="car-card__stats">
          <li>
            <GavelIcon size={16} />
            {countLabel(currentBids, 'bid')}
          </li>
          <li>
            <EyeIcon size={16} />
            {`${viewing.toLocaleString('en-US')} viewing`}
          </li>
          <li>
            <GaugeIcon size={16} />
            {formatMileage(car.mileage)}
          </li>
        </ul>

        <p className="car-card__seller">
          <UserIcon size={16} />
          <span className="car-card__seller-label">Seller:</span>{' '}
          {car.seller_name}
        </p>

        <Link to={carPath(car.id)} className="btn btn--primary btn--block" aria-describedby={titleId}>
          View Details &amp; Chat
        </Link>
      </div>
    </article>
  );
}

interface CardAuctionView {
  endsAt: string;
  extendedAt: number | null;
  highestBid: number | null;
  hasReserve: boolean;
  reserveMet: boolean;
  ended: boolean;
  outcome: AuctionOutcome | null;
}

/** The card's auction: its snapshot, overtaken by what was heard live since. */
function auctionOnCard(car: CarListItem, live: LiveCounts | undefined): CardAuctionView {
  const auction = car.auction!;
  return {
    endsAt: live?.endsAt ?? auction.endsAt,
    extendedAt: live?.extendedAt ?? null,
    highestBid: live?.highestBid ?? null,
    hasReserve: auction.hasReserve,
    reserveMet: auction.reserveMet || Boolean(live?.reserveMet),
    ended: auction.ended || Boolean(live?.ended),
    outcome: live?.outcome ?? null,
  };
}

const OUTCOME_TEXT: Record<AuctionOutcome, string> = {
  sold: 'Sold',
  reserve_not_met: 'Reserve not met',
  no_bids: 'Ended without bids',
};

/** The countdown and the reserve while it runs; how it ended once the server closed it. */
function CardAuction({ auction }: { auction: CardAuctionView }) {
  if (auction.ended) {
    const text =
      auction.outcome === 'sold' && auction.highestBid !== null
        ? `Sold for ${formatUsd(auction.highestBid)}`
        : auction.outcome
          ? OUTCOME_TEXT[auction.outcome]
          : 'Bidding closed';
    return (
      <div className="split-row car-card__auction car-card__auction--ended" data-testid="card-auction" data-state="ended">
        <p className="car-card__auction-ended">
          <span className="car-card__auction-flag">Auction ended</span>
          <span data-testid="card-outcome">{text}</span>
        </p>
      </div>
    );
  }
  const reserve = !auction.hasReserve ? 'No reserve' : auction.reserveMet ? 'Reserve met' : 'Reserve not met';
  return (
    <div className="split-row car-card__auction" data-testid="card-auction" data-state="running">
      <Countdown endsAt={auction.endsAt} extendedAt={auction.extendedAt} testId="card-countdown" />
      <p className={`car-card__reserve car-card__reserve--${auction.reserveMet || !auction.hasReserve ? 'ok' : 'open'}`} data-testid="card-reserve">
        {reserve}
      </p>
    </div>
  );
}
