import { create } from 'zustand';

export interface NotificationState {
  /** Number of notifications whose read flag is false; the navbar badge hides at 0. */
  unreadCount: number;
  setUnreadCount: (count: number) => void;
}

export const useNotificationStore = create<NotificationState>()((set) => ({
  unreadCount: 0,
  setUnreadCount: (count) => set({ unreadCount: Math.max(0, Math.floor(count)) }),
}));
