import type { AppNotification, NotificationsSnapshot } from '../api/notifications-api.ts';

/**
 * Pure transitions of the notification list and unread count. A REST snapshot and pushed
 * `notification:new` events are merged by id; the count stays consistent with both.
 */

/** The list and its unread count, as `GET /api/notifications` answers them. */
export type NotificationList = NotificationsSnapshot;

const newestFirst = (a: AppNotification, b: AppNotification) => b.id - a.id;
const clampCount = (n: number) => Math.max(0, Math.floor(n));

/**
 * A `GET /api/notifications` snapshot. Notifications pushed while it was in flight (newer than
 * anything in it) are kept and counted on top of the snapshot's unread count.
 */
export function applySnapshot(state: NotificationList, snapshot: NotificationsSnapshot): NotificationList {
  const inSnapshot = new Set(snapshot.notifications.map((n) => n.id));
  const newestInSnapshot = snapshot.notifications.reduce((max, n) => Math.max(max, n.id), 0);
  const newer = state.notifications.filter((n) => !inSnapshot.has(n.id) && n.id > newestInSnapshot);
  return {
    notifications: [...newer, ...snapshot.notifications].sort(newestFirst),
    unreadCount: clampCount(snapshot.unreadCount + newer.filter((n) => !n.read).length),
  };
}

/** A `notification:new` event: prepended once, counted once. */
export function addNotification(state: NotificationList, notification: AppNotification): NotificationList {
  if (state.notifications.some((n) => n.id === notification.id)) return state;
  return {
    notifications: [notification, ...state.notifications].sort(newestFirst),
    unreadCount: state.unreadCount + (notification.read ? 0 : 1),
  };
}

/**
 * Marks the given ids (or all) read. Returns the new state, the ids that changed and by how much
 * the unread count dropped, so a refusal can be undone exactly (`revertRead`).
 */
export function markRead(
  state: NotificationList,
  ids: readonly number[] | 'all',
): { state: NotificationList; changed: number[]; decrement: number } {
  const wanted = ids === 'all' ? null : new Set(ids);
  const changed: number[] = [];
  const notifications = state.notifications.map((n) => {
    if (n.read || (wanted && !wanted.has(n.id))) return n;
    changed.push(n.id);
    return { ...n, read: true };
  });
  // "All" clears the count even when some unread ones are not loaded (the server marks them too).
  const unreadCount = ids === 'all' ? 0 : clampCount(state.unreadCount - changed.length);
  const decrement = state.unreadCount - unreadCount;
  if (changed.length === 0 && decrement === 0) return { state, changed, decrement };
  return { state: { notifications, unreadCount }, changed, decrement };
}

/** Undoes an optimistic `markRead` the server refused (notifications that arrived since stay). */
export function revertRead(state: NotificationList, ids: readonly number[], decrement: number): NotificationList {
  const revert = new Set(ids);
  const notifications = state.notifications.map((n) => (revert.has(n.id) && n.read ? { ...n, read: false } : n));
  return { notifications, unreadCount: clampCount(state.unreadCount + decrement) };
}
