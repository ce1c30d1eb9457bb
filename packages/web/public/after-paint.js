/* global document, requestAnimationFrame, setTimeout -- a classic script of the browser, outside the bundle */
// Loads the web app's entry (data-entry) once the page's first screen, written by the server, has
// been painted (packages/server/src/plugins/web.ts, withFirstScreen): the visitor sees the record at
// once, and the app then draws the whole page over it. If no frame comes (a tab in the background),
// it loads anyway after a moment.
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  var started = false;
  function start() {
    if (started || !entry) return;
    started = true;
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 1500);
})();
