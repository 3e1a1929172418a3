import { create } from 'zustand';
import type { AppNotification } from '../api/notifications-api.ts';

export type NotificationsStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface NotificationState {
  /** Newest first. Filled for signed-in users by notification-sync.ts. */
  notifications: AppNotification[];
  /** Number of notifications whose read flag is false; the navbar badge hides at 0. */
  unreadCount: number;
  status: NotificationsStatus;
  /** Why the list could not be loaded, or why a mark-read was undone. */
  error: string | null;
  setUnreadCount: (count: number) => void;
}

export const EMPTY_NOTIFICATIONS = {
  notifications: [] as AppNotification[],
  unreadCount: 0,
  status: 'idle' as NotificationsStatus,
  error: null,
};

export const useNotificationStore = create<NotificationState>()((set) => ({
  ...EMPTY_NOTIFICATIONS,
  setUnreadCount: (count) => set({ unreadCount: Math.max(0, Math.floor(count)) }),
}));
