// A tournament's page, live: when the tournament's stream says it changed (a game of it over, a
// round begun or ended, an entry in or out), the page fetches its live parts from the server
// (an ETag'd fragment: 304 while unchanged) and swaps each [data-live-part] in; while there is no
// stream, it polls the fragment. A change of status (started, finished) reloads the whole page,
// whose forms change with it.
(() => {
  "use strict";
  const page = document.querySelector("[data-tournament][data-fragment-url]");
  if (!page) return;
  let fetching = false;
  let again = false;
  // A form sent from this page (enter, start, leave) brings the next page with its message: a
  // reload now would cancel that page after the server had shown the message to it.
  let leaving = false;
  page.addEventListener("submit", () => { leaving = true; });

  // What was open stays open: a folded row of the standings, a round's details.
  function openDetails() {
    return new Set([...page.querySelectorAll("details[open][id]")].map((box) => box.id));
  }

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(page.dataset.fragmentUrl, { cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html")
        .querySelector("[data-tournament-fragment]");
      if (!fresh || fresh.dataset.version === page.dataset.version) return;
      if (fresh.dataset.status !== page.dataset.status) {
        if (!leaving) window.location.reload();
        return;
      }
      const open = openDetails();
      for (const part of fresh.querySelectorAll("[data-live-part]")) {
        const shown = page.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
        if (shown) shown.replaceWith(document.adoptNode(part));
      }
      for (const id of open) {
        const box = document.getElementById(id);
        if (box && box.tagName === "DETAILS") box.open = true;
      }
      page.dataset.version = fresh.dataset.version;
    } catch (error) {
      // No connection: the next event or poll tries again.
    } finally {
      fetching = false;
      if (again) { again = false; refresh(); }
    }
  }

  let pollTimer = null;
  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(refresh, Number(page.dataset.pollSeconds || 30) * 1000);
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  function connect() {
    const source = new EventSource(page.dataset.eventsUrl);
    source.addEventListener("open", () => { stopPolling(); refresh(); });
    source.addEventListener("changed", refresh);
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
      startPolling();
    });
  }
  if (page.dataset.eventsUrl && window.EventSource) connect();
  else if (page.dataset.status === "open" || page.dataset.status === "running") startPolling();
})();
