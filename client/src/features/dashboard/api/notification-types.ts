/**
 * The wire shapes of the contract's "Notifications beyond the open tab (v4)" as the Settings
 * page uses them: the shared lists (common/notifications.ts) and schemas' types
 * (common/schemas/notifications.ts).
 */
export { NOTIFICATION_CHANNELS, NOTIFICATION_EVENTS, type ChannelChoice, type NotificationChannel, type NotificationEvent } from '@common/notifications.ts';
export type {
  Preferences,
  PreferencesUpdate,
  PushSubscriptionBody,
  PushSubscriptionSummary as PushDevice,
  QuietHoursValue as QuietHours,
} from '@common/schemas/notifications.ts';
