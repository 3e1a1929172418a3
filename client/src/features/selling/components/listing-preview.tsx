import { useId, useState } from 'react';
import { formatUsd } from '@common/pricing.ts';
import { Countdown, formatAuctionEnd } from '../../../components/ui/countdown.tsx';
import { EyeIcon, GaugeIcon, GavelIcon, MapPinIcon, ShieldCheckIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { formatMileage } from '../../../lib/quantities.ts';
import type { LocalPhoto } from '../hooks/use-photo-queue.ts';
import { BODY_STYLES, type NewListing } from '../lib/listing-form.ts';
import '../../cars/index.ts';

const MARKET_VALUE_PENDING = 'Market value: estimated from comparable cars once published';

/**
 * How the listing will look before it goes out: its card in the listing (cover photo, price,
 * the counters starting at zero) and the top of its car page (title, facts, the gallery in the
 * chosen order, the asking price). The market value is the server's to estimate, so it says so.
 */
export function ListingPreview({
  listing,
  photos,
  sellerName,
}: {
  listing: NewListing;
  photos: readonly LocalPhoto[];
  sellerName: string;
}) {
  const cardTitleId = useId();
  const pageTitleId = useId();
  const title = `${listing.year} ${listing.make} ${listing.model}`;
  const cover = photos[0];
  const [shown, setShown] = useState(0);
  const current = photos[Math.min(shown, photos.length - 1)];
  const bodyStyle = BODY_STYLES.find((b) => b.value === listing.bodyStyle)?.label ?? listing.bodyStyle;
  const auction = listing.auction ?? null;
  const reserve = auction?.reservePrice;

  return (
    <div className="listing-preview" data-testid="listing-preview">
      <section className="listing-preview__pane" aria-labelledby={cardTitleId}>
        <h3 id={cardTitleId} className="caps-label">
          In the listing
        </h3>
        <article className="car-card listing-preview__card" aria-label={`Listing card: ${title}`} data-testid="preview-card">
          <div className="media-frame car-card__media">
            {cover ? (
              <img src={cover.url} alt={title} width={640} height={400} decoding="async" />
            ) : (
              <div className="car-card__no-image">No Image</div>
            )}
            <div className="car-card__badges">
              <span className="car-card__badge-group">
                <span className="badge badge--condition">{listing.condition}</span>
                {auction && <span className="badge badge--auction">Auction</span>}
              </span>
            </div>
          </div>
          <div className="car-card__body">
            <p className="car-card__title">{title}</p>
            <p className="car-card__location">
              <MapPinIcon size={16} />
              {listing.location}
            </p>
            <div className="car-card__pricing">
              {auction && <p className="caps-label caps-label--sm car-card__price-label">Starting bid</p>}
              <p className="car-card__price">{formatUsd(listing.price)}</p>
              <p className="car-card__market-value">{MARKET_VALUE_PENDING}</p>
            </div>
            {auction && (
              <div className="split-row car-card__auction" data-testid="preview-auction">
                <Countdown endsAt={auction.endsAt} testId="preview-countdown" />
                <p className={`car-card__reserve car-card__reserve--${reserve === undefined ? 'ok' : 'open'}`}>
                  {reserve === undefined ? 'No reserve' : 'Reserve not met'}
                </p>
              </div>
            )}
            <ul className="car-card__stats">
              <li>
                <GavelIcon size={16} />0 bids
              </li>
              <li>
                <EyeIcon size={16} />0 viewing
              </li>
              <li>
                <GaugeIcon size={16} />
                {formatMileage(listing.mileage)}
              </li>
            </ul>
            <p className="car-card__seller">
              <UserIcon size={16} />
              <span className="car-card__seller-label">Seller:</span> {sellerName}
            </p>
            <span className="btn btn--primary btn--block listing-preview__fake-button" aria-hidden="true">
              View Details &amp; Chat
            </span>
          </div>
        </article>
      </section>

      <section className="listing-preview__pane listing-preview__pane--page" aria-labelledby={pageTitleId}>
        <h3 id={pageTitleId} className="caps-label">
          On its car page
        </h3>
        <div className="page-preview" data-testid="preview-page">
          <div className="cluster page-preview__badges">
            <span className="badge badge--condition page-preview__badge">{listing.condition}</span>
            <span className="badge page-preview__badge page-preview__badge--style">{bodyStyle}</span>
          </div>
          <p className="page-preview__title">{title}</p>
          <ul className="page-preview__facts" aria-label="Key facts">
            <li>
              <MapPinIcon size={16} />
              {listing.location}
            </li>
            <li>
              <GaugeIcon size={16} />
              {formatMileage(listing.mileage)}
            </li>
            <li>
              <ShieldCheckIcon size={16} />
              {listing.condition} condition
            </li>
          </ul>
          <div className="page-preview__layout">
            <div className="page-preview__gallery">
              <div className="page-preview__stage">
                {current ? (
                  <img src={current.url} alt={`${title} (${Math.min(shown, photos.length - 1) + 1} of ${photos.length})`} width={1280} height={800} decoding="async" />
                ) : (
                  <div className="car-card__no-image">No Image</div>
                )}
              </div>
              {photos.length > 1 && (
                <ul className="page-preview__thumbs" aria-label="Photos in order">
                  {photos.map((photo, i) => (
                    <li key={photo.id}>
                      <button
                        type="button"
                        className="photo-thumb page-preview__thumb"
                        aria-current={photo === current ? 'true' : undefined}
                        aria-label={`Show photo ${i + 1} of ${photos.length}`}
                        onClick={() => setShown(i)}
                      >
                        <img src={photo.url} alt="" width={160} height={100} decoding="async" />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="page-preview__price">
              <p className="page-preview__eyebrow">{auction ? 'Starting bid' : 'Asking price'}</p>
              <p className="page-preview__amount" data-testid="preview-price">
                {formatUsd(listing.price)}
              </p>
              <p className="page-preview__market">{MARKET_VALUE_PENDING}</p>
              {auction && (
                <div className="page-preview__auction" data-testid="preview-auction-page">
                  <p>
                    Timed auction, ends <strong>{formatAuctionEnd(auction.endsAt)}</strong>
                  </p>
                  <p>
                    {reserve === undefined
                      ? 'No reserve: the highest bid at the end wins.'
                      : `Reserve ${formatUsd(reserve)}: only you see it; buyers see whether it is met.`}
                  </p>
                </div>
              )}
            </div>
          </div>
          <div className="page-preview__about">
            <p className="page-preview__subtitle">About this vehicle</p>
            <p className="page-preview__description">{listing.description}</p>
            {listing.features.length > 0 && (
              <ul className="page-preview__features" aria-label="Features">
                {listing.features.map((feature, i) => (
                  <li key={`${i}-${feature}`}>{feature}</li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
