/* global document, requestAnimationFrame */
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
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
})();
