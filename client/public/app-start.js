/* global document, window, requestAnimationFrame */
// Starts the web app on a page the server drew, once that page has been painted. The page reads
// without the app, so the app's code waits its turn instead of competing with the page's
// stylesheet and first photo for a slow connection. The server names this file and the app's
// entry (data-app) in such pages; see server/src/pages/page-renderer.ts.
(function () {
  var script = document.currentScript;
  var app = script && script.getAttribute('data-app');
  if (!app) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    import(app);
  }
  // A tab opened in the background paints nothing until shown: start at once there.
  if (document.visibilityState === 'hidden') return start();
  // "Painted" is the browser's first-contentful-paint entry, reported once the frame is on
  // screen: an animation frame alone comes before the frame is shown, and code asked for then
  // counts as something the first paint waited for.
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (!types || types.indexOf('paint') === -1) {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
    return;
  }
  var observer = new PerformanceObserver(function (list) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    setTimeout(start, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
  // Should no paint ever be reported, the app still starts.
  setTimeout(start, 3000);
})();
