import { useCallback, useId, useRef, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { carPath, orderPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { SignedIn } from '../../../components/signed-in.tsx';
import { ConnectionBanner } from '../../../components/ui/connection-banner.tsx';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { ArrowLeftIcon, CarIcon, ReceiptIcon } from '../../../components/ui/icons.tsx';
import { NotFoundPage, ScreenError, ScreenLoading } from '../../../components/ui/load-state.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { parseId } from '@common/ids.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import type { Offer } from '../api/offers-api.ts';
import { actorName, carTitle, historyLine, offerParty, offerStatusLabel, offerStatusTone, turnText } from '../lib/offer-view.ts';
import { syncOffer, useOfferThread } from '../stores/offer-store.ts';
import { DASHBOARD_OFFERS } from './car-offer-entry.tsx';
import { OfferMoves } from './offer-moves.tsx';
import './offers.css';

/** `/offers/:id`: one offer's thread for its buyer or seller; anyone signed out goes to /login and back. */
export function OfferScreen() {
  const offerId = parseId(useParams().id);
  return (
    <SignedIn>
      {(user) => (offerId === null ? <OfferNotFound /> : <LiveOffer key={`${user.id}:${offerId}`} offerId={offerId} userId={user.id} />)}
    </SignedIn>
  );
}

function LiveOffer({ offerId, userId }: { offerId: number; userId: number }) {
  const thread = useOfferThread(userId, offerId);
  if (thread.status === 'not-found') return <OfferNotFound />;
  if (thread.offer) return <OfferView offer={thread.offer} userId={userId} />;
  if (thread.status === 'error') return <ScreenError title={`Offer #${offerId}`} message={thread.error ?? ''} onRetry={() => void syncOffer(offerId)} />;
  return <ScreenLoading title={`Offer #${offerId}`} label="Loading offer..." />;
}

function OfferNotFound() {
  return (
    <NotFoundPage titleId="offer-not-found-title" title="Offer Not Found" action={{ to: DASHBOARD_OFFERS, label: 'Your Offers' }}>
      There is no such offer among yours.
    </NotFoundPage>
  );
}

function OfferView({ offer, userId }: { offer: Offer; userId: number }) {
  useDocumentTitle(`Offer #${offer.id}`);
  const titleId = useId();
  const party = offerParty(offer, userId);
  const title = carTitle(offer.car);
  const open = offer.status === 'open';
  const turnRef = useRef<HTMLParagraphElement>(null);
  // After a move its button (and the dialog it opened) is gone: continue from whose turn it is now.
  const focusTurn = useCallback(() => {
    requestAnimationFrame(() => turnRef.current?.focus());
  }, []);

  return (
    <div className="offer-page" data-testid="offer-page" data-status={offer.status}>
      <ConnectionBanner />
      <PageHero
        overlap
        titleId={titleId}
        eyebrow={`${offer.secondChance ? 'Second chance offer' : 'Private offer'} · ${party === 'buyer' ? 'You are buying' : 'You are selling'}`}
        title={
          <span className="offer-title">
            Offer #{offer.id}
            <span className={`status-badge status-badge--${offerStatusTone(offer.status)}`} data-testid="offer-status">
              {offerStatusLabel(offer.status)}
            </span>
          </span>
        }
        lead={title}
      >
        <Link to={DASHBOARD_OFFERS} className="back-link offer-back">
          <ArrowLeftIcon size={18} />
          Your offers
        </Link>
      </PageHero>

      <div className="container page-overlap">
        <div className="offer-grid">
          <OfferCard title="On the table" className="accent-bar offer-grid__table">
            <p className="offer-amount" data-testid="offer-amount">
              {formatUsd(offer.amount)}
            </p>
            <p className="muted" data-testid="offer-by">
              {party === offer.by ? 'Your' : `${actorName(offer, offer.by, party)}'s`} {offer.history.length > 1 ? 'latest amount' : 'offer'}
            </p>
            <p ref={turnRef} className="offer-turn" data-testid="offer-turn" aria-live="polite" tabIndex={-1}>
              {turnText(offer, party)}
            </p>
            {open && (
              <Countdown
                variant="deadline"
                endsAt={offer.expiresAt}
                label="Time left to answer"
                untilLabel="Expires"
                overText="The time to answer has ended; the offer is expiring."
                testId="offer-countdown"
              />
            )}
            {offer.orderId !== null && (
              <p className="callout callout--icon tone-info">
                <ReceiptIcon size={18} />
                <span>
                  <Link to={orderPath(offer.orderId)} className="text-link" data-testid="offer-order-link">
                    Order #{offer.orderId}
                  </Link>{' '}
                  holds the payment in escrow.
                </span>
              </p>
            )}
            {open && <OfferMoves offer={offer} party={party} onMoved={focusTurn} />}
          </OfferCard>

          <aside className="card offer-card offer-grid__car" aria-label="The car">
            <Link to={carPath(offer.car.id)} className="offer-car">
              {offer.car.primaryImage ? (
                <img className="offer-car__image" src={offer.car.primaryImage} alt="" width={320} height={200} loading="lazy" />
              ) : (
                <span className="offer-car__image offer-car__image--none" aria-hidden="true">
                  <CarIcon size={32} />
                </span>
              )}
              <span className="offer-car__title">{title}</span>
            </Link>
            <p className="split-row">
              <span className="muted">{offer.car.isAuction ? 'Starting price' : 'Asking price'}</span>
              <strong data-testid="offer-asking-price">{formatUsd(offer.car.price)}</strong>
            </p>
            <p className="split-row">
              <span className="muted">{party === 'buyer' ? 'Seller' : 'Buyer'}</span>
              <strong>{party === 'buyer' ? offer.sellerName : offer.buyer.name}</strong>
            </p>
            {offer.message && (
              <blockquote className="offer-message" data-testid="offer-note">
                <p>{offer.message}</p>
                <footer className="muted">{actorName(offer, 'buyer', party)} wrote with the offer</footer>
              </blockquote>
            )}
          </aside>

          <OfferCard title="History" className="offer-grid__history">
            <ol className="offer-history" data-testid="offer-history">
              {offer.history.map((entry, index) => (
                <li key={`${entry.at}:${index}`} className="offer-history__item" data-by={entry.by} data-action={entry.action}>
                  <span className="offer-history__line">{historyLine(offer, entry, party)}</span>
                  <time className="muted offer-history__time" dateTime={entry.at}>
                    {formatDateTime(entry.at)}
                  </time>
                </li>
              ))}
            </ol>
          </OfferCard>
        </div>
      </div>
    </div>
  );
}

/** A card of the thread, named by its small heading. */
function OfferCard({ title, className, children }: { title: string; className: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={`card offer-card ${className}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="caps-label">
        {title}
      </h2>
      {children}
    </section>
  );
}
