import { api } from '../../../lib/api-client.ts';

export type NotificationType = 'bid' | 'message' | 'system';

/** Contract §Notifications. */
export interface AppNotification {
  id: number;
  type: NotificationType;
  title: string;
  message: string;
  timestamp: string;
  read: boolean;
  carId: number | null;
}

export interface NotificationsSnapshot {
  notifications: AppNotification[];
  unreadCount: number;
}

/** Newest first, with the number still unread. */
export function getNotifications(signal?: AbortSignal): Promise<NotificationsSnapshot> {
  return api.get<NotificationsSnapshot>('/api/notifications', { signal });
}

export function markNotificationRead(id: number): Promise<AppNotification> {
  return api.put<AppNotification>(`/api/notifications/${id}/read`);
}

export function markAllNotificationsRead(): Promise<{ updated: number }> {
  return api.put<{ updated: number }>('/api/notifications/read-all');
}
