/** What other features and the app shell use of the notifications feature. */
export { NotificationBell } from './components/notification-bell.tsx';
export { useNotificationStore } from './stores/notification-store.ts';
