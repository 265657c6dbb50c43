// The card table: selection, moves, previews and live updates. No rule of the game lives
// here: the server's engine judges every move and every preview; this file only sends what the
// player selected and swaps in the table fragment the server renders for the player's seat.
(function () {
  "use strict";
  const page = document.querySelector(".table-page");
  if (!page) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const lang = document.documentElement.lang;
  const say = (ru, en) => (lang === "en" ? en : ru);
  const serverOffset = Date.parse(page.dataset.now) - Date.now();
  let groups = []; // cards set aside as further melds laid with the pile
  let busy = false;
  let lastHtml = null;
  let previewSeq = 0;

  const table = () => page.querySelector("[data-game]");
  const handCards = () => Array.from(page.querySelectorAll("[data-hand] [data-card]"));
  const selected = () => handCards().filter((el) => el.getAttribute("aria-pressed") === "true")
    .map((el) => el.dataset.card);

  function showAlert(message) {
    const alert = page.querySelector("[data-alert]");
    if (!alert) return;
    alert.textContent = message;
    alert.classList.toggle("alert--empty", !message);
  }

  function post(url, fields) {
    const body = new URLSearchParams(fields);
    return fetch(url, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, "X-Requested-With": "fetch" },
    });
  }

  // Keep the selection across a swap: the same codes, as many of each as were selected.
  function swap(html, keep) {
    const wanted = keep ? selected() : [];
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.querySelector("[data-game]");
    if (!fresh) return;
    table().replaceWith(fresh);
    lastHtml = html;
    const grouped = groups.flat();
    for (const el of handCards()) {
      const code = el.dataset.card;
      const g = grouped.indexOf(code);
      if (g >= 0) { grouped.splice(g, 1); el.classList.add("grouped"); el.disabled = true; continue; }
      const i = wanted.indexOf(code);
      if (i >= 0) { wanted.splice(i, 1); el.setAttribute("aria-pressed", "true"); }
    }
    arrangeHand();
    renderGroups();
    tick();
    schedulePreview();
    showWaiting(Number(fresh.dataset.gamesWaitingCount || 0));
  }

  // The header's badge and the tab title: how many games wait for the player's move.
  function showWaiting(count) {
    const badge = document.querySelector("[data-games-waiting]");
    if (badge) { badge.textContent = String(count); badge.dataset.gamesWaiting = String(count); badge.hidden = !count; }
    document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
  }

  // The hand keeps the order the player saw: cards that arrive go to the right; the server's
  // order (by rank) only on request.
  const orderKey = () => `hand-order:${table().dataset.game}:${table().dataset.deal}`;
  function arrangeHand(reset) {
    const hand = page.querySelector("[data-hand]");
    if (!hand) return;
    const cards = handCards();
    let saved = [];
    try { saved = reset ? [] : JSON.parse(sessionStorage.getItem(orderKey()) || "[]"); } catch (e) { saved = []; }
    const rest = cards.slice();
    const ordered = [];
    for (const code of saved) {
      const i = rest.findIndex((el) => el.dataset.card === code);
      if (i >= 0) ordered.push(rest.splice(i, 1)[0]);
    }
    ordered.push(...rest);
    for (const el of ordered) hand.appendChild(el);
    try { sessionStorage.setItem(orderKey(), JSON.stringify(ordered.map((el) => el.dataset.card))); } catch (e) { /* private mode */ }
  }

  function renderGroups() {
    const box = page.querySelector("[data-groups]");
    if (!box) return;
    box.hidden = groups.length === 0;
    box.querySelector("[data-groups-list]").textContent = groups.map((g) => g.join(" ")).join(" | ");
  }

  async function refresh() {
    if (busy) return;
    const response = await fetch(page.dataset.fragmentUrl, { cache: "no-cache", credentials: "same-origin" });
    if (!response.ok) return;
    const html = await response.text();
    if (html !== lastHtml && !busy) swap(html, true);
  }

  async function send(action) {
    if (busy) return; // a double click sends one move
    busy = true;
    for (const button of page.querySelectorAll("[data-action]")) button.disabled = true;
    try {
      const response = await post(table().dataset.moveUrl, {
        version: table().dataset.version, action: JSON.stringify(action),
      });
      const html = await response.text();
      if (response.ok) groups = [];
      busy = false;
      swap(html, !response.ok);
    } catch (error) {
      busy = false;
      showAlert(say("Ход не отправлен: нет связи с сервером.", "The move was not sent: no connection."));
      refresh();
    }
  }

  function actionFor(kind) {
    const cards = selected();
    if (kind === "draw" || kind === "undo") return { type: kind };
    if (kind === "meld") return { type: "meld", melds: [{ cards }] };
    if (kind === "take_pile") {
      const action = { type: "take_pile", cards };
      if (groups.length) action.melds = groups.map((g) => ({ cards: g }));
      return action;
    }
    if (kind === "discard") return cards.length === 1 ? { type: "discard", card: cards[0] } : null;
    return null;
  }

  function schedulePreview() {
    const seq = ++previewSeq;
    setTimeout(() => { if (seq === previewSeq) preview(seq); }, 150);
  }

  async function preview(seq) {
    const out = page.querySelector("[data-preview]");
    if (!out) return;
    const t = table();
    const cards = selected();
    let action = null;
    if (t.dataset.yourTurn === "true" && (cards.length || groups.length)) {
      action = actionFor(t.dataset.phase === "draw" ? "take_pile" : "meld");
    }
    if (!action) { out.textContent = ""; return; }
    const response = await post(t.dataset.previewUrl, { action: JSON.stringify(action) });
    if (seq !== previewSeq) return;
    const answer = await response.json().catch(() => null);
    out.textContent = answer ? answer.message : "";
  }

  page.addEventListener("click", (event) => {
    const card = event.target.closest("[data-hand] [data-card]");
    if (card && !card.disabled) {
      card.setAttribute("aria-pressed", card.getAttribute("aria-pressed") === "true" ? "false" : "true");
      schedulePreview();
      return;
    }
    const meld = event.target.closest("button[data-meld]");
    if (meld) {
      // Samba and Bolivia name a meld by its place in the view; the classic game by its rank.
      const entry = meld.dataset.meldIndex === undefined
        ? { rank: meld.dataset.meld, cards: selected() }
        : { meld: Number(meld.dataset.meldIndex), cards: selected() };
      send({ type: "meld", melds: [entry] });
      return;
    }
    const button = event.target.closest("[data-action]");
    if (button && !button.disabled && button.dataset.move) {
      // A house rule's action, as the server offered it (ask, answer, lay down, pass).
      send(JSON.parse(button.dataset.move));
      return;
    }
    if (button && !button.disabled) {
      const kind = button.dataset.action;
      if (kind === "group") {
        const cards = selected();
        if (cards.length) { groups.push(cards); swap(lastHtml || table().outerHTML, false); }
        return;
      }
      const action = actionFor(kind);
      if (!action) { showAlert(say("Выберите одну карту для сброса.", "Select one card to discard.")); return; }
      send(action);
    }
    if (event.target.closest("[data-sort-hand]")) { arrangeHand(true); return; }
    if (event.target.closest("[data-clear-groups]")) { groups = []; swap(lastHtml || table().outerHTML, true); }
  });

  // The turn clock counts down on the server's time.
  function tick() {
    const clock = page.querySelector("[data-turn-clock]");
    if (!clock || !clock.dataset.deadline) return;
    const left = Math.max(0, Date.parse(clock.dataset.deadline) - (Date.now() + serverOffset));
    const s = Math.floor(left / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    clock.textContent = h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`
      : `${m}:${String(sec).padStart(2, "0")}`;
  }
  setInterval(tick, 1000);
  tick();

  // Live: a pushed "changed" makes the page fetch its own seat's fragment; while the stream is
  // down (or where there is none) the page polls the fragment (ETag: 304 while unchanged).
  const banner = page.querySelector("[data-reconnecting]");
  let pollTimer = null;
  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(refresh, Number(page.dataset.pollSeconds || 5) * 1000);
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  function connect() {
    const source = new EventSource(page.dataset.eventsUrl);
    source.addEventListener("open", () => { banner.hidden = true; stopPolling(); refresh(); });
    source.addEventListener("changed", refresh);
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
      banner.hidden = false;
      startPolling();
    });
  }
  lastHtml = null;
  arrangeHand();
  if (page.dataset.eventsUrl && window.EventSource) connect(); else startPolling();
})();
