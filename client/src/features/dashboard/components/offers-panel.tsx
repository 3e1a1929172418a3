import { Link } from 'react-router-dom';
import { offerPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { BanknoteIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import type { Resource } from '../../../lib/use-resource.ts';
import { offerParty, offerStatusTone, turnLabel, useOfferList, type Offer } from '../../offers/index.ts';
import { CarRow, EmptyPanel } from './panel-parts.tsx';

/** "Offers": private offers the viewer made as buyer or received as seller, with whose turn it is; live. */
export function OffersPanel({ userId }: { userId: number }) {
  const { status, error, offers, retry } = useOfferList(userId);
  const resource: Resource<Offer[]> =
    status === 'ready' ? { status: 'success', data: offers } : status === 'loading' ? { status: 'loading' } : { status: 'error', message: error ?? 'Could not load your offers.' };
  return (
    <Loaded resource={resource} retry={retry} label="Loading your offers...">
      {(list) =>
        list.length === 0 ? (
          <EmptyPanel icon={<BanknoteIcon size={28} />} title="No offers yet" link={{ to: '/', label: 'Browse cars' }}>
            Make an offer below the asking price on a car page; offers you make and receive appear here.
          </EmptyPanel>
        ) : (
          <ul className="divided-list" aria-label="Your offers, newest first" data-testid="offers-list">
            {list.map((offer) => (
              <OfferRow key={offer.id} offer={offer} userId={userId} />
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function OfferRow({ offer, userId }: { offer: Offer; userId: number }) {
  const party = offerParty(offer, userId);
  const yourTurn = offer.status === 'open' && offer.by !== party;
  const tone = offer.status === 'open' ? (yourTurn ? 'active' : 'pending') : offerStatusTone(offer.status);
  const side = (
    <div className="stack dash-row__side">
      <span className={`status-badge status-badge--${tone}`} data-testid="offer-turn">
        {turnLabel(offer, party)}
      </span>
      <Link to={offerPath(offer.id)} className="btn btn--outline btn--sm" aria-label={`View offer #${offer.id}`}>
        View Offer
      </Link>
    </div>
  );
  return (
    <CarRow car={offer.car} aside={side} className="dash-row--order" data-testid="offer-row" data-offer-id={offer.id} data-status={offer.status}
    >
      <p className="dash-row__meta">
        Offer #{offer.id} · <strong>{party === 'buyer' ? 'Buying' : `Selling to ${offer.buyer.name}`}</strong>
        {offer.secondChance && ' · Second chance'}
      </p>
      <p className="dash-row__meta">
        On the table: <strong data-testid="offer-row-amount">{formatUsd(offer.amount)}</strong> by {offer.by === party ? 'you' : offer.by === 'buyer' ? offer.buyer.name : offer.sellerName}
        {' · '}asking {formatUsd(offer.car.price)}
      </p>
      {offer.status === 'open' && <Countdown endsAt={offer.expiresAt} label="Expires in" size="sm" testId="offer-row-countdown" />}
    </CarRow>
  );
}
