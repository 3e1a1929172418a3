/* global self */
// The app's service worker (scope /): it shows Web Push notifications and opens their page when
// one is clicked. It caches nothing: every page and answer still comes from the server, so a
// new deployment is never hidden behind an old copy. The payload is the contract's
// `{title, body, url, event, carId}`; see docs/api.md.

var ICON = '/icons/icon-192.png';
var APP_NAME = 'LuxeMotors';

self.addEventListener('install', function () {
  // A newer worker takes over at once: it holds no state an open tab depends on.
  self.skipWaiting();
});

self.addEventListener('activate', function (event) {
  // Open tabs come under this worker now, so a click can bring one of them to the right page.
  event.waitUntil(self.clients.claim());
});

/**
 * Only pages of this site: a payload naming another site (or something that is not a URL) opens
 * the home page instead, so a notification can never send someone elsewhere.
 */
function pageUrl(url) {
  try {
    var target = new URL(typeof url === 'string' && url ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

function readPayload(data) {
  if (!data) return {};
  try {
    var parsed = data.json();
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    // Not JSON: show the text as it came.
    return { body: data.text() };
  }
}

self.addEventListener('push', function (event) {
  var payload = readPayload(event.data);
  var title = typeof payload.title === 'string' && payload.title ? payload.title : APP_NAME;
  var carId = typeof payload.carId === 'number' ? payload.carId : null;
  var kind = typeof payload.event === 'string' ? payload.event : null;
  var options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: ICON,
    badge: ICON,
    data: { url: pageUrl(payload.url), event: kind, carId: carId },
  };
  // A newer notice of the same kind about the same car replaces the older one on the device
  // (as the push service's Topic does for ones not yet delivered), and still alerts.
  if (kind && carId !== null) {
    options.tag = kind + ':' + carId;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Brings a tab of the app to `url`: the one showing it, else any (navigated there), else a new one. */
function openPage(url) {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    var showing = windows.find(function (client) {
      return client.url === url;
    });
    if (showing) return focus(showing);
    var tab = windows.find(function (client) {
      return new URL(client.url).origin === self.location.origin;
    });
    if (!tab) return self.clients.openWindow(url);
    return focus(tab).then(function () {
      // A tab this worker controls is navigated; one opened before it (not yet controlled) is
      // asked to go there itself (client/src/lib/service-worker.ts listens).
      return tab.navigate(url).catch(function () {
        tab.postMessage({ type: 'navigate', url: url });
      });
    });
  });
}

function focus(client) {
  return client.focus().catch(function () {
    // Focus is the browser's to grant; the tab still goes to the page.
    return client;
  });
}

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  event.waitUntil(openPage(pageUrl(data.url)));
});
