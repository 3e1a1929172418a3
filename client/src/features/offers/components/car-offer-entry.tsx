import { useState } from 'react';
import { Link } from 'react-router-dom';
import { offerPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { BanknoteIcon } from '../../../components/ui/icons.tsx';
import { openOfferAsBuyer, openOffersAsSeller } from '../lib/offer-view.ts';
import { useOfferList } from '../stores/offer-store.ts';
import { MakeOfferDialog } from './make-offer-dialog.tsx';
import './offers.css';

export const DASHBOARD_OFFERS = '/dashboard?tab=offers';

/**
 * The car page's way into offers, for a signed-in user: the seller sees how many are open; a
 * buyer sees their open offer, or "Make an offer" where offers are taken (`takesOffers`: a
 * fixed-price car on sale, or an auction that ended with its reserve not met).
 */
export function CarOfferEntry({
  userId,
  ownCar,
  takesOffers,
  car,
}: {
  userId: number;
  ownCar: boolean;
  takesOffers: boolean;
  car: { id: number; title: string; price: number; isAuction: boolean };
}) {
  const { status, offers } = useOfferList(userId);
  const [open, setOpen] = useState(false);
  if (ownCar) {
    const count = openOffersAsSeller(offers, car.id, userId);
    return (
      <Link to={DASHBOARD_OFFERS} className="btn btn--outline btn--block offer-entry" data-testid="car-offers-link">
        <BanknoteIcon size={16} />
        Offers ({status === 'ready' ? count : '…'} open)
      </Link>
    );
  }
  const mine = openOfferAsBuyer(offers, car.id, userId);
  if (mine) {
    return (
      <p className="callout callout--icon tone-info offer-entry" data-testid="my-offer">
        <BanknoteIcon size={18} />
        <span>
          Your offer: <strong>{formatUsd(mine.amount)}</strong> —{' '}
          <Link to={offerPath(mine.id)} className="text-link">
            View offer
          </Link>
        </span>
      </p>
    );
  }
  if (!takesOffers || status !== 'ready') return null;
  return (
    <>
      <button type="button" className="btn btn--outline btn--block offer-entry" aria-haspopup="dialog" onClick={() => setOpen(true)} data-testid="make-offer">
        <BanknoteIcon size={16} />
        Make an offer
      </button>
      <MakeOfferDialog open={open} onClose={() => setOpen(false)} car={car} />
    </>
  );
}
