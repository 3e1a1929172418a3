import { ApiError } from '../../../lib/api-client.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { getSocket, onSocketConnect } from '../../../lib/socket.ts';
import {
  getNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type AppNotification,
} from '../api/notifications-api.ts';
import { EMPTY_NOTIFICATIONS, useNotificationStore } from '../stores/notification-store.ts';
import { addNotification, applySnapshot, markRead, revertRead, type NotificationList } from '../stores/notification-merge.ts';

/**
 * Keeps the signed-in user's notifications current: a REST snapshot on start and after every
 * (re)connect, `notification:new` and `notification:unread` pushed in between. Listeners update
 * the store with `setState`, outside React.
 */

export const LOAD_FAILED_MESSAGE = 'Could not load notifications.';
export const MARK_READ_FAILED_MESSAGE = 'Could not mark as read. Please try again.';
const REFRESH_DEBOUNCE_MS = 300;

let started = false;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

const currentUserId = () => {
  const { isAuthenticated, user } = useSessionStore.getState();
  return isAuthenticated && user ? user.id : null;
};

const listOf = (): NotificationList => {
  const { notifications, unreadCount } = useNotificationStore.getState();
  return { notifications, unreadCount };
};

/** Reads the snapshot and merges it with anything pushed meanwhile. */
export async function loadNotifications(): Promise<void> {
  const userId = currentUserId();
  if (userId === null) return;
  if (useNotificationStore.getState().status !== 'ready') useNotificationStore.setState({ status: 'loading', error: null });
  try {
    const snapshot = await getNotifications();
    if (currentUserId() !== userId) return; // signed out or switched user meanwhile
    useNotificationStore.setState({ ...applySnapshot(listOf(), snapshot), status: 'ready', error: null });
  } catch (error) {
    if (currentUserId() !== userId) return;
    if (useNotificationStore.getState().status !== 'ready') {
      useNotificationStore.setState({ status: 'error', error: error instanceof ApiError ? error.message : LOAD_FAILED_MESSAGE });
    }
  }
}

function scheduleRefresh(): void {
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    if (useNotificationStore.getState().status === 'ready') void loadNotifications();
  }, REFRESH_DEBOUNCE_MS);
}

/** Starts listening (once per page) and loads the snapshot for the signed-in user. */
export function startNotificationSync(): void {
  if (!started) {
    started = true;
    const socket = getSocket();
    socket.on('notification:new', (notification: AppNotification) => {
      if (currentUserId() === null || typeof notification?.id !== 'number') return;
      useNotificationStore.setState(addNotification(listOf(), notification));
    });
    socket.on('notification:unread', (event: { unreadCount: number }) => {
      if (currentUserId() === null || typeof event?.unreadCount !== 'number') return;
      useNotificationStore.getState().setUnreadCount(event.unreadCount);
      // Another tab read some: re-read which ones, so the list's styling matches the count.
      scheduleRefresh();
    });
    onSocketConnect(() => {
      if (currentUserId() !== null) void loadNotifications();
    });
    useSessionStore.subscribe((state, prev) => {
      const was = prev.isAuthenticated ? prev.user?.id : null;
      const is = state.isAuthenticated ? state.user?.id : null;
      if (was === is) return;
      useNotificationStore.setState({ ...EMPTY_NOTIFICATIONS });
      if (is !== null && is !== undefined) void loadNotifications();
    });
  }
  void loadNotifications();
}

/** Optimistically marks one notification read; undone when the server refuses. */
export async function markOneRead(id: number): Promise<void> {
  const { state, changed, decrement } = markRead(listOf(), [id]);
  if (changed.length === 0) return;
  useNotificationStore.setState({ ...state, error: null });
  try {
    await markNotificationRead(id);
  } catch {
    useNotificationStore.setState({ ...revertRead(listOf(), changed, decrement), error: MARK_READ_FAILED_MESSAGE });
  }
}

/** Optimistically marks everything read; undone when the server refuses. */
export async function markEveryRead(): Promise<void> {
  const { state, changed, decrement } = markRead(listOf(), 'all');
  if (changed.length === 0 && decrement === 0) return;
  useNotificationStore.setState({ ...state, error: null });
  try {
    await markAllNotificationsRead();
  } catch {
    useNotificationStore.setState({ ...revertRead(listOf(), changed, decrement), error: MARK_READ_FAILED_MESSAGE });
  }
}
