import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { compareToMarket, formatUsd } from '@common/pricing.ts';
import {
  EyeIcon,
  GaugeIcon,
  GavelIcon,
  MapPinIcon,
  ShieldCheckIcon,
  UserIcon,
} from '../../../components/ui/icons.tsx';
import { WatchButton } from '../../../components/watch-button.tsx';
import type { CarListItem } from '../api/get-cars.ts';
import { useListingLiveStore } from '../stores/listing-live-store.ts';
import { countLabel, formatMileage } from '../lib/format.ts';

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

  return (
    <article className="car-card" data-testid="car-card" aria-labelledby={titleId}>
      <div className="car-card__media">
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
          <span className="badge badge--condition">{car.condition}</span>
          {car.seller_verified && (
            <span className="badge badge--verified">
              <ShieldCheckIcon size={14} />
              Verified
            </span>
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
          <p className="car-card__price">{formatUsd(car.price)}</p>
          {market && <p className={`market-label market-label--${market.kind}`}>{market.label}</p>}
          {car.market_value === null ? (
            <p className="car-card__market-value car-card__market-value--none">Market value: too few comparable cars</p>
          ) : (
            <p className="car-card__market-value">Market value: {formatUsd(car.market_value)}</p>
          )}
        </div>

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

        <Link to={`/car/${car.id}`} className="btn btn--primary btn--block" aria-describedby={titleId}>
          View Details &amp; Chat
        </Link>
      </div>
    </article>
  );
}
