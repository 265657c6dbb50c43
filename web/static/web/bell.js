// The bell's unread count: refreshed when the tab comes back into view and every 30 s while it
// is visible (one small JSON answer), so a notification shows up without reloading the page.
(function () {
  "use strict";
  var bell = document.querySelector("[data-bell]");
  if (!bell) { return; }
  var count = bell.querySelector("[data-bell-count]");
  function show(unread) {
    bell.dataset.unread = String(unread);
    count.textContent = String(unread);
  }
  function refresh() {
    fetch(bell.dataset.unreadUrl, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (body) { if (body) { show(body.unread); } })
      .catch(function () {});
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });
  window.addEventListener("focus", refresh);
  setInterval(function () { if (!document.hidden) { refresh(); } }, 30000);
})();
