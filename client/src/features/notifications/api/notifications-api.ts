import { api } from '../../../lib/api-client.ts';

export type { NotificationType } from '@common/enums.ts';
/** Contract §Notifications. */
export type { Notification as AppNotification } from '@common/api-types.ts';
import type { Notification as AppNotification } from '@common/api-types.ts';

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
