import { useId, type ComponentProps } from 'react';
import { Link } from 'react-router-dom';
import { compareToMarket, formatUsd } from '@common/pricing.ts';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { EyeIcon, GavelIcon, InfoIcon, PencilIcon, ReceiptIcon, ShieldCheckIcon, TrendIcon } from '../../../components/ui/icons.tsx';
import { isFinalOrderStatus } from '../../../lib/order-progress.ts';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { formatRelativeTime } from '../../../lib/relative-time.ts';
import { serverNow } from '../../../lib/server-clock.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { RecordedBid, CarDetail, Order } from '../api/car-room-api.ts';
import { WatchButton } from '../../../components/watch-button.tsx';
import { BuyWithEscrow } from '../../escrow/index.ts';
import { CarOfferEntry } from '../../offers/index.ts';
import { carStatusNotice } from '../lib/car-status.ts';
import type { AuctionView } from '../stores/car-room-merge.ts';
import { recordPlacedOrder, syncRoom } from '../stores/car-room-store.ts';
import { AuctionClock, AuctionOutcomePanel, useAuctionCloseWatch } from './auction-panel.tsx';
import { BidForm } from './bid-form.tsx';
import { BidAnnouncements } from './bid-announcements.tsx';
import { MarketValue } from './market-value.tsx';
import { TrophyIcon } from './room-icons.tsx';
import { editListingPath, orderPath } from '@common/paths.ts';

const RECENT_BIDS_SHOWN = 5;

/**
 * Asking price against market value, the live counters, the bid form and the order button. On a
 * timed auction: the starting or current bid, the countdown and the reserve, the bid form while
 * it runs and the outcome after the close; never Buy with Escrow (auctions sell by bidding).
 */
export function PricingCard({
  detail,
  currentBids,
  highestBid,
  viewers,
  minimum,
  maximum,
  bids,
  myOrder,
  userId,
  ownCar,
  auction,
}: {
  detail: CarDetail;
  currentBids: number;
  highestBid: number | null;
  viewers: number;
  minimum: number | null;
  /** The largest bid allowed (auctions), else null. */
  maximum: number | null;
  bids: RecordedBid[];
  /** The signed-in user's order for this car, if any. */
  myOrder: Order | null;
  userId: number | null;
  /** The signed-in user sells this car. */
  ownCar: boolean;
  /** The timed auction, or null for a fixed price. */
  auction: AuctionView | null;
}) {
  const titleId = useId();
  const market = compareToMarket(detail.price, detail.marketValue);
  // An auction's close is told by its outcome panel, not by the generic "ended" notice.
  const notice = auction && detail.status === 'ended' ? null : carStatusNotice(detail.status);
  const title = `${detail.year} ${detail.make} ${detail.model}`;
  // A buyer with an open order for the car follows it rather than ordering twice.
  const buyingAlready = myOrder !== null && myOrder.buyerId === userId && !isFinalOrderStatus(myOrder.status);
  useAuctionCloseWatch(detail.id, auction?.endsAt ?? null, !(auction?.live && detail.status === 'active'));
  const running = auction !== null && auction.live;
  return (
    <section className={auction ? 'pricing-card accent-bar pricing-card--auction' : 'pricing-card accent-bar'} aria-labelledby={titleId}>
      <h2 id={titleId} className="sr-only">
        {auction ? 'Auction and bidding' : 'Pricing and bidding'}
      </h2>
      {auction ? (
        <>
          <p className="caps-label pricing-card__eyebrow">
            <span className="pricing-card__auction-badge">Auction</span>{' '}
            {highestBid === null ? 'Starting bid' : auction.closed ? 'Final bid' : 'Current bid'}
          </p>
          <p className="pricing-card__price" data-testid="auction-price">
            {formatUsd(highestBid ?? detail.price)}
          </p>
          {highestBid !== null && (
            <p className="pricing-card__start" data-testid="starting-bid">
              Starting bid {formatUsd(detail.price)}
            </p>
          )}
        </>
      ) : (
        <>
          <p className="caps-label pricing-card__eyebrow">Asking price</p>
          <p className="pricing-card__price" data-testid="asking-price">
            {formatUsd(detail.price)}
          </p>
        </>
      )}
      <MarketValue detail={detail} />
      {auction?.live && <AuctionClock view={auction} ownCar={ownCar} />}

      <Facts className="pricing-stats">
        <Stat label={<><TrendIcon size={16} /> Price vs Market</>}>
          {market ? (
            <span className={`market-label market-label--${market.kind}`} data-testid="price-vs-market">
              {market.label}
            </span>
          ) : (
            <span data-testid="price-vs-market" className="pricing-stats__none">
              No estimate
            </span>
          )}
        </Stat>
        <Stat label={<><GavelIcon size={16} /> Active bids</>} testId="active-bids">
          {currentBids.toLocaleString('en-US')}
        </Stat>
        <Stat label={<><EyeIcon size={16} /> Currently viewing</>} testId="viewers">
          <span className="live-dot" aria-hidden="true" />
          {viewers.toLocaleString('en-US')}
        </Stat>
        <Stat label={<><TrophyIcon size={16} /> Highest bid</>} testId="highest-bid" valueClassName="pricing-stats__highest">
          {highestBid === null ? 'No bids yet' : formatUsd(highestBid)}
        </Stat>
      </Facts>

      {notice && (
        <div className={`callout callout--icon listing-status listing-status--${notice.tone}`} role="status" data-testid="car-status-notice">
          <InfoIcon size={20} />
          <div>
            <p className="listing-status__title">{notice.badge}</p>
            <p>{notice.text}</p>
          </div>
        </div>
      )}
      {auction?.closed && <AuctionOutcomePanel carId={detail.id} view={auction} ownCar={ownCar} />}
      {ownCar
        ? (!auction || running) && <OwnListing carId={detail.id} auction={running} />
        : !notice &&
          (!auction || running) && (
            <BidForm carId={detail.id} minimum={minimum} maximum={maximum} auction={auction !== null} highestBid={highestBid} />
          )}

      {!notice && (!auction || running) && <BidAnnouncements highestBid={highestBid} userId={userId} leaderId={bids[0]?.userId ?? null} />}

      {bids.length > 0 && (
        <RecentBids
          bids={bids.slice(0, RECENT_BIDS_SHOWN)}
          leadLabel={auction?.closed ? (auction.outcome === 'sold' ? 'Won' : 'Highest') : 'Leading'}
        />
      )}

      {myOrder && (
        <p className="callout callout--icon tone-info my-order" data-testid="my-order">
          <ReceiptIcon size={18} />
          <span>
            {myOrder.buyerId === userId ? 'Your order' : 'An order'} for this car: Order #{myOrder.id},{' '}
            {orderStatusLabel(myOrder.status).toLowerCase()}.{' '}
            <Link to={orderPath(myOrder.id)} className="text-link">
              View your order
            </Link>
          </span>
        </p>
      )}

      {!notice && !ownCar && !auction && (
        <BuyWithEscrow
          carId={detail.id}
          price={detail.price}
          title={title}
          showTrigger={!buyingAlready}
          onPlaced={recordPlacedOrder}
          onStale={() => void syncRoom(detail.id)}
        />
      )}
      {userId !== null && (
        <CarOfferEntry
          userId={userId}
          ownCar={ownCar}
          // Offers: while the server takes them (offers-service make): a fixed-price car for sale, or
          // an auction that ended below its reserve and is still unsold (not since pending or sold).
          takesOffers={auction ? detail.status === 'ended' && detail.auction?.outcome === 'reserve_not_met' : !notice && !buyingAlready}
          car={{ id: detail.id, title, price: detail.price, isAuction: auction !== null }}
        />
      )}
      {!ownCar && <WatchButton carId={detail.id} carTitle={title} variant="full" />}
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

/** One of the card's figures, label and value on one row. */
function Stat(props: Omit<ComponentProps<typeof Fact>, 'className'>) {
  return <Fact className="split-row pricing-stats__item" {...props} />;
}

function RecentBids({ bids, leadLabel }: { bids: RecordedBid[]; leadLabel: string }) {
  const titleId = useId();
  // Bid times are the server's: age them on its clock, not on a device clock that may be off.
  const now = serverNow(useNow());
  return (
    // A log a screen reader can read back, but silent as it grows: BidAnnouncements says the price, throttled.
    <section className="recent-bids" aria-labelledby={titleId} role="log" aria-live="off">
      <h3 id={titleId} className="caps-label recent-bids__title">
        Recent bids
      </h3>
      <ol className="recent-bids__list" data-testid="recent-bids">
        {bids.map((bid, i) => (
          <li key={bid.id} className={i === 0 ? 'recent-bids__item is-leading' : 'recent-bids__item'}>
            <span className="recent-bids__who">
              {bid.userName}
              {i === 0 && <span className="tag recent-bids__lead">{leadLabel}</span>}
              {bid.auto && (
                <span className="recent-bids__auto" title="Placed automatically for the bidder's maximum">
                  auto
                </span>
              )}
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

/** What the seller sees instead of the bid form and Buy with Escrow on their own car. */
function OwnListing({ carId, auction }: { carId: number; auction: boolean }) {
  return (
    <div className="own-listing" data-testid="own-listing">
      <p className="own-listing__title">This is your listing</p>
      {auction ? (
        <p className="own-listing__text">
          Buyers bid and ask questions here. Answer them in the Live Discussion: your messages carry a Seller badge. The
          highest bid when the clock reaches zero wins; if it is below your reserve, you can still accept it for a day.
        </p>
      ) : (
        <p className="own-listing__text">
          Buyers bid and ask questions here. Answer them in the Live Discussion: your messages carry a Seller badge.
          Accept the highest bid from{' '}
          <Link to="/dashboard?tab=listings" className="text-link">
            My Listings
          </Link>
          .
        </p>
      )}
      <Link to={editListingPath(carId)} className="btn btn--outline btn--block">
        <PencilIcon size={17} />
        Edit Listing
      </Link>
    </div>
  );
}
