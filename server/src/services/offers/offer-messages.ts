import { offerPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import type { OfferActor, OfferHistoryAction, OfferParty } from '@common/offer-lifecycle.ts';
import type { NewNotification } from '../notifications.ts';
import { formatDeadline } from '../orders/order-messages.ts';
import type { OfferRecord } from './offer-views.ts';

/** A move on an offer, as its parties are told of it. */
export interface OfferNews {
  action: OfferHistoryAction;
  actor: OfferActor;
  /** Why the server declined it (the car sold to someone else, withdrawn). */
  reason?: string;
  /** The escrow order an accepted offer became. */
  orderId?: number | null;
}

const OTHER: Record<OfferParty, OfferParty> = { buyer: 'seller', seller: 'buyer' };

/**
 * The bell notifications about `news` on `record` (the offer after the move): the other party of
 * a party's move, both parties of the server's. Each names "Offer #id", which the web app links
 * to the offer's thread.
 */
export function offerNotifications(news: OfferNews, record: OfferRecord): NewNotification[] {
  const { offer, car, buyer, seller } = record;
  const ref = `Offer #${offer.id}`;
  const title = `${car.year} ${car.make} ${car.model}`;
  const amount = formatUsd(offer.amount);
  const who = (party: OfferActor) => (party === 'buyer' ? buyer.name : party === 'seller' ? seller.name : 'LuxeMotors');
  const until = formatDeadline(offer.expiresAt);
  const userOf = { buyer: buyer.id, seller: seller.userId } as const;
  // Offers and counters are `offer_received`, delivered beyond the bell; what follows them stays in-app.
  const delivered = news.action === 'offer' || news.action === 'counter';
  const to = (party: OfferParty, heading: string, text: string): NewNotification[] =>
    userOf[party] === null
      ? []
      : [{ userId: userOf[party]!, type: 'bid', event: 'offer_received', title: heading, message: `${ref}: ${text}`, carId: car.id, delivery: delivered ? { amount: offer.amount, url: offerPath(offer.id) } : false }];

  switch (news.action) {
    case 'offer':
      return offer.secondChance
        ? to('buyer', 'Second chance offer', `the seller offers you the ${title} at your highest bid of ${amount}. Accept by ${until}.`)
        : to('seller', 'New offer', `${buyer.name} offers ${amount} for the ${title}. Answer by ${until}.`);
    case 'counter': {
      const mover = news.actor as OfferParty;
      return to(OTHER[mover], 'Counter-offer', `${who(mover)} counters with ${amount} for the ${title}. Answer by ${until}.`);
    }
    case 'accept': {
      const mover = news.actor as OfferParty;
      const next = mover === 'seller' ? `Order #${news.orderId} awaits your payment.` : `Order #${news.orderId} awaits the buyer's payment.`;
      return to(OTHER[mover], 'Offer accepted', `${who(mover)} accepted ${amount} for the ${title}. ${next}`);
    }
    case 'decline':
      if (news.actor === 'system') {
        const text = `your offer on the ${title} was declined: ${news.reason ?? 'the car is no longer for sale'}`;
        return [...to('buyer', 'Offer declined', text), ...to('seller', 'Offer declined', `the offer of ${amount} for the ${title} was closed: ${news.reason ?? 'the car is no longer for sale'}`)];
      }
      return to(OTHER[news.actor], 'Offer declined', `${who(news.actor)} declined ${amount} for the ${title}.`);
    case 'withdraw':
      return to(OTHER[news.actor as OfferParty], 'Offer withdrawn', `${who(news.actor)} withdrew ${amount} for the ${title}.`);
    case 'expire': {
      const text = `${amount} for the ${title} expired without an answer.`;
      return [...to('buyer', 'Offer expired', text), ...to('seller', 'Offer expired', text)];
    }
  }
}
