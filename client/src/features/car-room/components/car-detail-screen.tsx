import { useId } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ConnectionBanner } from '../../../components/ui/connection-banner.tsx';
import { GaugeIcon, MapPinIcon, ShieldCheckIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { NotFoundPage, ScreenError, ScreenLoading } from '../../../components/ui/load-state.tsx';
import { parseId } from '@common/ids.ts';
import { PAGE_TITLES, carName, carPageName } from '@common/page-titles.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useRefreshUnverifiedUser } from '../../../lib/use-refresh-unverified-user.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import type { CarDetail } from '../api/car-room-api.ts';
import { useCarRoom } from '../hooks/use-car-room.ts';
import { formatMileage } from '../../../lib/quantities.ts';
import { formatRating } from '../lib/format.ts';
import { carStatusNotice } from '../lib/car-status.ts';
import { auctionView, currentMinimumBid, maximumBid, orderToShow, type CarRoom } from '../stores/car-room-merge.ts';
import { ownCarKey, syncRoom, useCarRoomStore } from '../stores/car-room-store.ts';
import { CarDossier } from './car-dossier.tsx';
import { CarGallery } from './car-gallery.tsx';
import { CarReviews } from './car-reviews.tsx';
import { LiveDiscussion } from './live-discussion.tsx';
import { PricingCard } from './pricing-card.tsx';
import { SellerQuestions } from './seller-questions.tsx';
import { PriceHistory, SoldResultNote } from '../../market/index.ts';
import { ArrowLeftIcon, StarIcon, TagIcon } from './room-icons.tsx';
import { Stars } from './stars.tsx';
import './car-room.css';

/** `/car/:id` (spec §2 Car detail): the car, its live counters, bids and discussion. */
export function CarDetailScreen() {
  const { id } = useParams();
  const carId = parseId(id);
  const room = useCarRoom(carId);
  useRefreshUnverifiedUser();

  if (carId === null || room?.status === 'not-found') return <CarNotFound />;
  if (!room || room.status === 'loading' || !room.detail) {
    if (room?.status === 'error') {
      return <ScreenError title="Car Details" message={room.error ?? ''} onRetry={() => void syncRoom(carId)} />;
    }
    return <ScreenLoading title="Car Details" label="Loading vehicle..." />;
  }
  return <CarRoomView room={room} detail={room.detail} />;
}

function CarNotFound() {
  return (
    <NotFoundPage titleId="car-not-found-title" title={PAGE_TITLES.carNotFound} action={{ to: '/', label: 'Back to Listings' }}>
      This vehicle does not exist or is no longer listed.
    </NotFoundPage>
  );
}

function CarRoomView({ room, detail }: { room: CarRoom; detail: CarDetail }) {
  const title = carName(detail);
  // The bid as it stands now: the title follows the auction live, as the page does.
  useDocumentTitle(carPageName({ ...detail, highestBid: room.highestBid ?? detail.highestBid }));
  const titleId = useId();
  const aboutId = useId();
  const featuresId = useId();
  const sellerId = useId();
  const viewers = room.viewers ?? detail.viewingCount;
  const userId = useSessionStore((s) => (s.isAuthenticated && s.user ? s.user.id : null));
  // The seller's own car: known from the listing, or from the server refusing their bid.
  const toldOwn = useCarRoomStore((s) => (userId === null ? false : Boolean(s.ownCars[ownCarKey(userId, detail.id)])));
  const ownCar = userId !== null && (detail.seller.userId === userId || toldOwn);
  const notice = carStatusNotice(detail.status);
  const auction = auctionView(room, userId);

  return (
    <>
      <ConnectionBanner />
      <article className="container car-room" aria-labelledby={titleId}>
        <Link to="/" className="back-link car-room__back">
          <ArrowLeftIcon size={18} />
          Back to Listings
        </Link>

        <header className="car-room__header">
          <div className="car-room__badges">
            {notice && (
              <span className={`badge badge--listing badge--listing-${notice.tone}`} data-testid="car-status-badge">
                {notice.badge}
              </span>
            )}
            {auction?.live && (
              <span className="badge badge--auction" data-testid="auction-badge">
                Auction
              </span>
            )}
            <span className="badge badge--condition">{detail.condition}</span>
            {detail.seller.verified && (
              <span className="badge badge--verified">
                <ShieldCheckIcon size={14} />
                Verified Seller
              </span>
            )}
          </div>
          <h1 id={titleId} className="car-room__title">
            {title}
          </h1>
          <ul className="car-room__facts" aria-label="Key facts">
            <li>
              <MapPinIcon size={17} />
              {detail.location}
            </li>
            <li>
              <GaugeIcon size={17} />
              {formatMileage(detail.mileage)}
            </li>
            <li>
              <TagIcon size={17} />
              {detail.condition} condition
            </li>
            <li>
              <StarIcon size={17} className="stars__on" />
              <span>
                {formatRating(detail.seller.rating)} <span className="car-room__fact-label">seller rating</span>
              </span>
            </li>
          </ul>
        </header>

        <div className="car-room__layout">
          <div className="car-room__main">
            <div className="car-room__gallery">
              <CarGallery images={detail.images} photos={detail.photos} title={title} />
            </div>

            <div className="car-room__details">
              <section className="room-card" aria-labelledby={aboutId}>
                <h2 id={aboutId} className="room-card__title">
                  About this vehicle
                </h2>
                <p className="car-room__description">{detail.description}</p>
              </section>

              <section className="room-card" aria-labelledby={featuresId}>
                <h2 id={featuresId} className="room-card__title">
                  Features
                </h2>
                {detail.features.length === 0 ? (
                  <p className="muted">No features listed.</p>
                ) : (
                  <ul className="feature-list">
                    {detail.features.map((feature) => (
                      <li key={feature}>{feature}</li>
                    ))}
                  </ul>
                )}
              </section>

              <CarDossier dossier={detail.dossier} />

              <section className="room-card seller-card" aria-labelledby={sellerId}>
                <h2 id={sellerId} className="room-card__title">
                  Seller
                </h2>
                <div className="seller-card__body">
                  <span className="ink-disc seller-card__avatar" aria-hidden="true">
                    <UserIcon size={22} />
                  </span>
                  <div>
                    <p className="seller-card__name">{detail.seller.name}</p>
                    <p className="seller-card__rating">
                      <Stars rating={detail.seller.rating} size={15} />
                      <span>{formatRating(detail.seller.rating)} seller rating</span>
                    </p>
                    <p className={detail.seller.verified ? 'seller-card__status is-verified' : 'seller-card__status'}>
                      <ShieldCheckIcon size={15} />
                      {detail.seller.verified ? 'Verified seller' : 'Seller not yet verified'}
                    </p>
                  </div>
                </div>
                <p className="muted seller-card__hint">
                  Questions for the seller? Ask in the Live Discussion, or contact our sales team.
                </p>
              </section>

              <SellerQuestions questions={room.questions} loaded={room.questionsLoaded} failed={room.questionsFailed} />

              <CarReviews reviews={detail.reviews} />
            </div>
          </div>

          <aside className="car-room__aside" aria-label="Pricing, bids and discussion">
            <PricingCard
              detail={detail}
              currentBids={room.currentBids}
              highestBid={room.highestBid}
              viewers={viewers}
              minimum={currentMinimumBid(room)}
              maximum={maximumBid(room)}
              bids={room.bids}
              myOrder={orderToShow(room, userId)}
              userId={userId}
              ownCar={ownCar}
              auction={auction}
            />
            {detail.status === 'sold' && <SoldResultNote carId={detail.id} />}
            <PriceHistory carId={detail.id} />
            <LiveDiscussion
              carId={detail.id}
              sellerUserId={detail.seller.userId}
              messages={room.messages}
              loaded={room.messagesLoaded}
              loadError={room.messagesError}
            />
          </aside>
        </div>
      </article>
    </>
  );
}
