import { Type, type Static } from 'typebox';
import { NOTIFICATION_TYPES } from '../enums.ts';
import { IsoDateTime, StringEnum } from './kit.ts';

/** What the notification routes answer; `notification:new` pushes the same notification. */

export const NotificationSchema = Type.Object(
  {
    id: Type.Integer(),
    type: StringEnum(NOTIFICATION_TYPES),
    title: Type.String(),
    message: Type.String(),
    timestamp: IsoDateTime,
    read: Type.Boolean(),
    carId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'Notification' },
);
export type Notification = Static<typeof NotificationSchema>;

/** `GET /api/notifications`: newest first, with the number still unread. */
export const NotificationsSnapshotSchema = Type.Object({ notifications: Type.Array(NotificationSchema), unreadCount: Type.Integer() });
export type NotificationsSnapshot = Static<typeof NotificationsSnapshotSchema>;

/** `PUT /api/notifications/read-all`: how many were marked read. */
export const ReadAllSchema = Type.Object({ updated: Type.Integer() });
export type ReadAll = Static<typeof ReadAllSchema>;
