// The lobby refreshes its lists now and then, so a game that became yours to play shows up.
(function () {
  "use strict";
  const lobby = document.querySelector("[data-lobby]");
  if (!lobby) return;
  setInterval(async () => {
    if (document.activeElement && lobby.querySelector("form").contains(document.activeElement)) return;
    const response = await fetch(location.href, { cache: "no-cache", credentials: "same-origin" });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.querySelector("[data-lobby]");
    const form = lobby.querySelector("[data-open-table]");
    for (const section of Array.from(lobby.children)) if (!section.contains(form)) section.remove();
    for (const section of Array.from(fresh.children)) {
      if (!section.querySelector("[data-open-table]")) lobby.insertBefore(document.importNode(section, true), form.closest("section"));
    }
    document.title = doc.title;
    const badge = document.querySelector("[data-games-waiting]");
    const freshBadge = doc.querySelector("[data-games-waiting]");
    if (badge && freshBadge) { badge.replaceWith(document.importNode(freshBadge, true)); }
  }, 20000);
})();
