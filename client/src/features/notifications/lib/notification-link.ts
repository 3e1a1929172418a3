import type { AppNotification } from '../api/notifications-api.ts';
import { carPath, orderPath } from '@common/paths.ts';

/** "... (Order #123) ..." → 123: order notifications name their order this way. */
export function orderIdIn(text: string): number | null {
  const match = /Order #(\d{1,10})\b/.exec(text);
  if (!match) return null;
  const id = Number(match[1]);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** Where a notification leads: its order when it names one, else its car, else nowhere. */
export function notificationLink(n: Pick<AppNotification, 'title' | 'message' | 'carId'>): { to: string; label: string } | null {
  const orderId = orderIdIn(n.message) ?? orderIdIn(n.title);
  if (orderId !== null) return { to: orderPath(orderId), label: 'View order' };
  if (n.carId !== null) return { to: carPath(n.carId), label: 'View car' };
  return null;
}
