import { api } from '../../../lib/api-client.ts';

export type { NotificationType } from '@common/enums.ts';
/** Contract §Notifications. */
export type { Notification as AppNotification, NotificationsSnapshot } from '@common/schemas/notifications.ts';
import type { Notification as AppNotification, NotificationsSnapshot, ReadAll } from '@common/schemas/notifications.ts';

/** Newest first, with the number still unread. */
export function getNotifications(signal?: AbortSignal): Promise<NotificationsSnapshot> {
  return api.get<NotificationsSnapshot>('/api/notifications', { signal });
}

export function markNotificationRead(id: number): Promise<AppNotification> {
  return api.put<AppNotification>(`/api/notifications/${id}/read`);
}

export function markAllNotificationsRead(): Promise<ReadAll> {
  return api.put<ReadAll>('/api/notifications/read-all');
}
