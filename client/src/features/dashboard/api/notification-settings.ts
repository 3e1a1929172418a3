import { api } from '../../../lib/api-client.ts';
import type { Preferences, PreferencesUpdate, PushDevice, PushSubscriptionBody } from './notification-types.ts';

/** `GET /api/users/notification-preferences`. */
export function getNotificationPreferences(signal?: AbortSignal): Promise<Preferences> {
  return api.get<Preferences>('/api/users/notification-preferences', { signal });
}

/** `PUT /api/users/notification-preferences`: resolves to the preferences as now stored. */
export function saveNotificationPreferences(update: PreferencesUpdate): Promise<Preferences> {
  return api.put<Preferences>('/api/users/notification-preferences', update);
}

/** `GET /api/push/public-key`: the server's VAPID public key (base64url). */
export async function getPushPublicKey(signal?: AbortSignal): Promise<string> {
  return (await api.get<{ publicKey: string }>('/api/push/public-key', { signal })).publicKey;
}

/** `POST /api/push/subscriptions`: stores this browser's subscription (the same endpoint again updates its keys). */
export async function addPushSubscription(subscription: PushSubscriptionBody): Promise<number> {
  return (await api.post<{ id: number }>('/api/push/subscriptions', subscription)).id;
}

/** `GET /api/push/subscriptions`: the signed-in user's devices. */
export async function listPushSubscriptions(signal?: AbortSignal): Promise<PushDevice[]> {
  return (await api.get<{ subscriptions: PushDevice[] }>('/api/push/subscriptions', { signal })).subscriptions;
}

/** `DELETE /api/push/subscriptions` with `{endpoint}`. */
export async function removePushSubscription(endpoint: string): Promise<void> {
  await api.delete<unknown>('/api/push/subscriptions', { body: { endpoint } });
}

/** `POST /api/push/test`: a test notification to each of the user's devices (202). */
export async function sendTestPush(): Promise<void> {
  await api.post<unknown>('/api/push/test');
}
