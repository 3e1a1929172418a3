import type { AppNotification } from '../api/notifications-api.ts';
import { parseId } from '@common/ids.ts';
import { carPath, offerPath, orderPath } from '@common/paths.ts';

/** "... <kind> #123 ..." → 123, for a real database id. */
function idAfter(kind: 'Order' | 'Offer', text: string): number | null {
  return parseId(new RegExp(`${kind} #(\\d+)\\b`).exec(text)?.[1]);
}

/** "... (Order #123) ..." → 123: order notifications name their order this way. */
export const orderIdIn = (text: string) => idAfter('Order', text);

/** "Offer #45: ..." → 45: offer notifications start their message this way. */
export const offerIdIn = (text: string) => idAfter('Offer', text);

/** Where a notification leads: its order when it names one, else its offer, else its car, else nowhere. */
export function notificationLink(n: Pick<AppNotification, 'title' | 'message' | 'carId'>): { to: string; label: string } | null {
  const orderId = orderIdIn(n.message) ?? orderIdIn(n.title);
  if (orderId !== null) return { to: orderPath(orderId), label: 'View order' };
  const offerId = offerIdIn(n.message) ?? offerIdIn(n.title);
  if (offerId !== null) return { to: offerPath(offerId), label: 'View offer' };
  if (n.carId !== null) return { to: carPath(n.carId), label: 'View car' };
  return null;
}
