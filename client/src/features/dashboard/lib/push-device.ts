import { addPushSubscription, getPushPublicKey, removePushSubscription } from '../api/notification-settings.ts';
import type { PushSubscriptionBody } from '../api/notification-types.ts';

/**
 * This browser as a device that receives Web Push: the service worker (/sw.js, scope /), the
 * browser's subscription with the server's VAPID key, and the server's copy of it. Permission
 * is asked for only in `turnOn`, which runs when the user presses the button: never on load.
 */

export const SERVICE_WORKER_URL = '/sw.js';

export type DeviceState =
  /** No service worker, Push API or Notification API here (an old browser, an iPhone outside the home screen). */
  | { kind: 'unsupported' }
  /** The user blocked notifications for this site; only the browser's site settings can undo it. */
  | { kind: 'blocked' }
  | { kind: 'off' }
  | { kind: 'on'; endpoint: string };

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** What this browser is now, read without asking anything of the user. */
export async function readDeviceState(): Promise<DeviceState> {
  if (!pushSupported()) return { kind: 'unsupported' };
  if (Notification.permission === 'denied') return { kind: 'blocked' };
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? { kind: 'on', endpoint: subscription.endpoint } : { kind: 'off' };
}

/** A base64url VAPID key as the bytes `PushManager.subscribe` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** The subscription as the contract's body: `PushSubscription.toJSON()`'s endpoint and keys. */
export function subscriptionBody(subscription: PushSubscription): PushSubscriptionBody {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new Error('This browser gave a push subscription without its keys');
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

export class PushSetupError extends Error {
  constructor(
    message: string,
    readonly state: DeviceState,
  ) {
    super(message);
    this.name = 'PushSetupError';
  }
}

/**
 * Asks for permission (the browser's prompt), registers the service worker, subscribes with the
 * server's key (again if the key changed) and stores the subscription on the server.
 */
export async function turnOn(): Promise<{ kind: 'on'; endpoint: string; id: number }> {
  if (!pushSupported()) throw new PushSetupError('This browser cannot receive notifications.', { kind: 'unsupported' });
  const permission = await Notification.requestPermission();
  if (permission === 'denied') {
    throw new PushSetupError('Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.', { kind: 'blocked' });
  }
  if (permission !== 'granted') throw new PushSetupError('Notifications were not allowed. Press the button again to be asked once more.', { kind: 'off' });

  const [registration, publicKey] = await Promise.all([
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).then(() => navigator.serviceWorker.ready),
    getPushPublicKey(),
  ]);
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const body = subscriptionBody(subscription);
  const id = await addPushSubscription(body);
  return { kind: 'on', endpoint: body.endpoint, id };
}

/** Stops this browser's notifications: the server forgets the subscription, then the browser drops it. */
export async function turnOff(endpoint: string): Promise<void> {
  await removePushSubscription(endpoint);
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription?.endpoint === endpoint) await subscription.unsubscribe();
}
