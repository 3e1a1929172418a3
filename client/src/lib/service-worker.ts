/**
 * A notification clicked while a tab of the app was open before the service worker took it
 * over: the worker cannot navigate such a tab itself, so it asks the tab (client/public/sw.js),
 * and the app goes there as a link inside it would.
 */
export function followServiceWorkerNavigation(navigate: (path: string) => void): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown; url?: unknown } | null;
    if (!data || data.type !== 'navigate' || typeof data.url !== 'string') return;
    try {
      const target = new URL(data.url, window.location.origin);
      if (target.origin === window.location.origin) navigate(`${target.pathname}${target.search}${target.hash}`);
    } catch {
      // Not a URL: nothing to follow.
    }
  });
  navigator.serviceWorker.startMessages();
}
