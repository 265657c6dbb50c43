// The card table: selection, moves, previews, the hand's order and live updates. No rule of the
// game lives here: the server's engine judges every move and every selection (which buttons
// may be pressed, and why not); this file only sends what the player selected, shows the
// server's answers and swaps in the table fragment the server renders for the player's seat.
(function () {
  "use strict";
  const page = document.querySelector(".table-page");
  if (!page) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const lang = document.documentElement.lang;
  const say = (ru, en) => (lang === "en" ? en : ru);
  const serverOffset = Date.parse(page.dataset.now) - Date.now();
  // The moves whose buttons depend on the selected cards (the server judges each selection).
  const SELECTION_MOVES = ["take_pile", "meld", "discard"];
  let groups = []; // cards set aside as further melds laid with the pile
  let busy = false;
  let lastHtml = null;
  let previewSeq = 0;
  let rendered = new Map(); // each button's state as the server rendered it: {disabled, why}
  let dragged = false; // a drag just ended: the click that follows is not a selection
  // A refusal the page came with (a seat refused on joining: taken, a rating out of the
  // table's range) stays through the refreshes that swap the table in, until the player acts.
  let pageAlert = (page.querySelector("[data-alert]")?.textContent || "").trim();

  const table = () => page.querySelector("[data-game]");
  const hand = () => page.querySelector("[data-hand]");
  const handCards = () => Array.from(page.querySelectorAll("[data-hand] [data-card]"));
  const selectedCards = () => handCards().filter((el) => el.getAttribute("aria-pressed") === "true");
  const selected = () => selectedCards().map((el) => el.dataset.card);
  const actionButton = (kind) => page.querySelector(`[data-actions] [data-action="${kind}"]`);

  function showAlert(message) {
    const alert = page.querySelector("[data-alert]");
    if (!alert) return;
    alert.textContent = message;
    alert.classList.toggle("alert--empty", !message);
    // A message of the page's own has no rule: the last refusal's rule link goes.
    const rule = page.querySelector("[data-alert-rule]");
    if (rule) rule.remove();
  }

  // Why a button is disabled, named after the button: «Сбросить»: …
  function showWhy(button) {
    const line = page.querySelector("[data-why-line]");
    if (!line) return;
    const name = button ? button.textContent.trim() : "";
    line.textContent = button && button.disabled && button.title
      ? `${say(`«${name}»`, `“${name}”`)}: ${button.title}` : "";
  }

  function post(url, fields) {
    const body = new URLSearchParams(fields);
    return fetch(url, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, "X-Requested-With": "fetch" },
    });
  }

  // A button's state: enabled, or disabled with the reason it shows when tapped or pointed at.
  function setButton(button, enabled, why) {
    if (!button) return;
    button.disabled = !enabled;
    if (enabled || !why) button.removeAttribute("title");
    else button.title = why;
  }

  function rememberRendered() {
    rendered = new Map();
    for (const button of page.querySelectorAll("[data-actions] [data-action]")) {
      rendered.set(button.dataset.action, { disabled: button.disabled, why: button.title });
    }
  }

  // Where the keyboard focus was in the table, to put it back after a swap.
  function focusPlace() {
    const active = document.activeElement;
    if (!active || !table() || !table().contains(active)) return null;
    const card = active.closest("[data-hand] [data-card]");
    if (card) return { card: card.dataset.card, index: handCards().indexOf(card) };
    const button = active.closest("[data-action]");
    if (button) return { action: button.dataset.action };
    return { hand: true };
  }

  function restoreFocus(place) {
    if (!place) return;
    const cards = handCards();
    let target = null;
    if (place.action) {
      const button = actionButton(place.action);
      if (button && !button.disabled) target = button;
    }
    if (!target && place.card) target = cards.find((el) => el.dataset.card === place.card && !el.disabled);
    if (!target && cards.length) target = cards[Math.min(place.index || 0, cards.length - 1)];
    if (target) target.focus({ preventScroll: true });
  }

  // Keep the selection (the same codes, as many of each), the open melds and the focus.
  function swap(html, keep) {
    const wanted = keep ? selected() : [];
    const open = Array.from(page.querySelectorAll(".meld--open")).map((el) => `${el.dataset.team}:${el.dataset.meld}`);
    rememberOpenDetails();
    const focus = focusPlace();
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.querySelector("[data-game]");
    if (!fresh) return;
    // What a person is typing after the game (an afterword) survives the swap.
    // What a person is typing after the game (an afterword), and the answer to the one they
    // sent (shown once), survive the swap.
    const typed = Array.from(page.querySelectorAll("[data-keep-typed]"))
      .map((el) => [el.id, el.value, el === document.activeElement]);
    const answers = Array.from(page.querySelectorAll("[data-afterword-alert]"));
    const wasYourTurn = table().dataset.yourTurn === "true";
    table().replaceWith(fresh);
    const freshAlert = page.querySelector("[data-alert]");
    if (keep && pageAlert && freshAlert && !freshAlert.textContent.trim()) showAlert(pageAlert);
    for (const [id, value, focused] of typed) {
      const field = document.getElementById(id);
      if (field) { field.value = value; if (focused) field.focus(); }
    }
    const panel = page.querySelector("[data-afterwords]");
    if (panel && answers.length && !panel.querySelector("[data-afterword-alert]")) {
      panel.querySelector("h2").after(...answers);
    }
    lastHtml = html;
    const grouped = groups.flat();
    for (const el of handCards()) {
      const code = el.dataset.card;
      const g = grouped.indexOf(code);
      if (g >= 0) { grouped.splice(g, 1); el.classList.add("grouped"); el.disabled = true; continue; }
      const i = wanted.indexOf(code);
      if (i >= 0) { wanted.splice(i, 1); el.setAttribute("aria-pressed", "true"); }
    }
    for (const key of open) {
      const [team, rank] = key.split(":");
      const meld = page.querySelector(`[data-meld="${rank}"][data-team="${team}"]`);
      if (meld) openMeld(meld, true);
    }
    reopenDetails();
    foldNotes();
    rememberRendered();
    arrangeHand();
    renderGroups();
    watchDock();
    tick();
    selectionChanged();
    restoreFocus(focus);
    showWaiting(wasYourTurn, fresh.dataset.yourTurn === "true");
  }

  // The header's badge and the tab title: how many games wait for the player's move. The page
  // counted them all when it was loaded; this game's part then follows its fragments (a game
  // waits for the player while it is their turn), so a fragment needs no count of its own.
  function showWaiting(was, now) {
    const badge = document.querySelector("[data-games-waiting]");
    if (!badge || was === now) return;
    const count = Math.max(0, Number(badge.dataset.gamesWaiting || 0) + (now ? 1 : -1));
    badge.textContent = String(count); badge.dataset.gamesWaiting = String(count); badge.hidden = !count;
    document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
  }

  // The hand keeps the order the player gave it (dragged, or as the cards came: new ones go to
  // the right), per game, deal and seat in this browser; the server's order (by rank) on request.
  const orderKey = () => {
    const t = table();
    return `hand-order:${t.dataset.game}:${t.dataset.deal}:${t.dataset.mySeat || ""}`;
  };
  function saveOrder() {
    const key = orderKey();
    try {
      for (let i = localStorage.length - 1; i >= 0; i--) {
        const other = localStorage.key(i);
        // One order per game: an earlier deal's is of no use any more.
        if (other && other !== key && other.startsWith(`hand-order:${table().dataset.game}:`)) localStorage.removeItem(other);
      }
      localStorage.setItem(key, JSON.stringify(handCards().map((el) => el.dataset.card)));
    } catch (e) { /* storage off: the order lasts as long as the page */ }
  }
  // `order`: the codes in the order wanted (the server's by rank or by suit, on request); else
  // the order kept in this browser.
  function arrangeHand(order) {
    const box = hand();
    if (!box) return;
    let saved = [];
    try { saved = order || JSON.parse(localStorage.getItem(orderKey()) || "[]"); } catch (e) { saved = []; }
    const rest = handCards();
    const ordered = [];
    for (const code of saved) {
      const i = rest.findIndex((el) => el.dataset.card === code);
      if (i >= 0) ordered.push(rest.splice(i, 1)[0]);
    }
    ordered.push(...rest);
    for (const el of ordered) box.appendChild(el);
    saveOrder();
  }

  function renderGroups() {
    const box = page.querySelector("[data-groups]");
    if (!box) return;
    box.hidden = groups.length === 0;
    box.querySelector("[data-groups-list]").textContent = groups.map((g) => g.join(" ")).join(" | ");
  }

  let refreshAfterDrag = false;
  async function refresh() {
    if (busy) return;
    // A card being dragged stays the element under the finger: the table is swapped after.
    if (drag && drag.moving) { refreshAfterDrag = true; return; }
    const response = await fetch(page.dataset.fragmentUrl, { cache: "no-cache", credentials: "same-origin" });
    if (!response.ok) return;
    const html = await response.text();
    if (html !== lastHtml && !busy && !(drag && drag.moving)) swap(html, true);
  }

  async function send(action) {
    if (busy) return; // a double click sends one move
    busy = true;
    pageAlert = "";
    const focus = focusPlace();
    for (const button of page.querySelectorAll("[data-action]")) button.disabled = true;
    try {
      const response = await post(table().dataset.moveUrl, {
        version: table().dataset.version, action: JSON.stringify(action),
      });
      const html = await response.text();
      if (response.ok) groups = [];
      busy = false;
      swap(html, !response.ok);
      restoreFocus(focus);
    } catch (error) {
      busy = false;
      showAlert(say("Ход не отправлен: нет связи с сервером.", "The move was not sent: no connection."));
      refresh();
    }
  }

  // Samba and Bolivia: the side's melds the pile's top card may join alone, as the server
  // offered those takes (`data-take-melds` on «Взять стопку», `data-takes-top` on each meld).
  const pileMelds = () => {
    const button = actionButton("take_pile");
    return button && button.dataset.takeMelds ? button.dataset.takeMelds.split(" ").map(Number) : [];
  };

  // The pile taken with the top card alone onto the side's meld `meld` (its index in the view).
  function takeOnto(meld) {
    const action = { type: "take_pile", cards: [], meld };
    if (groups.length) action.melds = groups.map((g) => ({ cards: g }));
    return action;
  }

  function actionFor(kind) {
    const cards = selected();
    if (kind === "draw" || kind === "undo") return { type: kind };
    if (kind === "meld") return { type: "meld", melds: [{ cards }] };
    if (kind === "take_pile") {
      const onto = pileMelds();
      if (!cards.length && onto.length === 1) return takeOnto(onto[0]);
      const action = { type: "take_pile", cards };
      if (groups.length) action.melds = groups.map((g) => ({ cards: g }));
      return action;
    }
    if (kind === "discard") return cards.length === 1 ? { type: "discard", card: cards[0] } : null;
    return null;
  }

  // The selection changed: the buttons that take cards wait for the server's judgement.
  function selectionChanged() {
    const t = table();
    const cards = selected();
    for (const meld of page.querySelectorAll(".meld--can-join")) meld.classList.remove("meld--can-join");
    // The melds that may take the top card alone are offered while no card is selected.
    for (const meld of page.querySelectorAll("[data-takes-top]")) {
      meld.classList.toggle("meld--takes-top", !cards.length);
      meld.classList.remove("meld--choose");
    }
    hideConfirm();
    showWhy(null); // the last tap's why gives way to what the new selection does
    const judged = t.dataset.yourTurn === "true" && (cards.length || groups.length);
    for (const kind of SELECTION_MOVES) {
      const was = rendered.get(kind);
      if (!was) continue;
      if (judged) setButton(actionButton(kind), false, say("Проверяем…", "Checking…"));
      else setButton(actionButton(kind), !was.disabled, was.why);
    }
    const out = page.querySelector("[data-preview]");
    if (out && !judged) out.textContent = "";
    if (judged) schedulePreview();
  }

  function schedulePreview() {
    const seq = ++previewSeq;
    setTimeout(() => { if (seq === previewSeq) preview(seq); }, 120);
  }

  async function preview(seq) {
    const out = page.querySelector("[data-preview]");
    if (!out) return;
    const cards = selected();
    let response;
    try {
      response = await post(table().dataset.previewUrl, { selection: JSON.stringify({ cards, groups }) });
    } catch (error) { return; }
    if (seq !== previewSeq) return;
    const answer = await response.json().catch(() => null);
    if (!answer || seq !== previewSeq) return;
    out.textContent = answer.message || "";
    const moves = answer.moves || {};
    for (const kind of SELECTION_MOVES) {
      const was = rendered.get(kind);
      if (!was) continue;
      const move = moves[kind];
      if (move) setButton(actionButton(kind), move.legal, move.message);
      else if (kind === "discard" && cards.length !== 1) setButton(actionButton(kind), false, was.why);
      else setButton(actionButton(kind), !was.disabled, was.why);
    }
    for (const rank of answer.targets || []) {
      const meld = page.querySelector(`.meld--ours[data-meld="${rank}"]`);
      if (meld) meld.classList.add("meld--can-join");
    }
  }

  // «Взять стопку» with nothing selected while the top card could join several melds: the
  // page says so and points at them; the player taps the one it joins.
  function chooseMeld(button) {
    const out = page.querySelector("[data-preview]");
    if (out) out.textContent = button.dataset.chooseMeld || "";
    const offered = Array.from(page.querySelectorAll("[data-takes-top]"));
    for (const meld of offered) meld.classList.add("meld--choose");
    const first = offered.length && offered[0].querySelector("[data-take-here]");
    if (first) {
      first.scrollIntoView({ block: "nearest" });
      first.focus({ preventScroll: true });
    }
  }

  function openMeld(meld, open) {
    meld.classList.toggle("meld--open", open);
    const toggle = meld.querySelector("[data-meld-toggle]");
    if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }

  // «Подтвердить сброс» (a profile setting, correspondence games): a discard waits for a
  // second, explicit press.
  function hideConfirm() {
    const box = page.querySelector("[data-confirm-discard]");
    if (box) box.hidden = true;
  }
  function askConfirm(action) {
    const box = page.querySelector("[data-confirm-discard]");
    if (!box) return false;
    const card = selectedCards()[0];
    const name = card ? card.querySelector("img").alt : action.card;
    box.querySelector("[data-confirm-card]").textContent = name;
    box.hidden = false;
    box.querySelector("[data-confirm-yes]").focus();
    return true;
  }

  page.addEventListener("click", (event) => {
    const card = event.target.closest("[data-hand] [data-card]");
    if (card && !card.disabled) {
      if (dragged) { dragged = false; return; }
      card.setAttribute("aria-pressed", card.getAttribute("aria-pressed") === "true" ? "false" : "true");
      selectionChanged();
      return;
    }
    const meld = event.target.closest("[data-meld]");
    if (meld && page.contains(meld)) {
      // One selected card and a meld of the player's team, on their turn: the card joins it
      // (the engine judges); otherwise the meld shows or hides its cards.
      // Samba and Bolivia name a meld by its place in the view (and a run takes several cards);
      // the classic game by its rank.
      const byIndex = meld.dataset.meldIndex !== undefined;
      // Samba, Bolivia: «Взять стопку сюда» (shown while no card is selected) takes the pile
      // onto this meld; the chip still shows the meld's cards, to look before taking.
      if (event.target.closest("[data-take-here]")) {
        send(takeOnto(Number(meld.dataset.meldIndex)));
        return;
      }
      if (meld.classList.contains("meld--ours") && (selected().length === 1 || (byIndex && selected().length > 0))) {
        const entry = byIndex
          ? { meld: Number(meld.dataset.meldIndex), cards: selected() }
          : { rank: meld.dataset.meld, cards: selected() };
        send({ type: "meld", melds: [entry] });
      } else {
        openMeld(meld, !meld.classList.contains("meld--open"));
      }
      return;
    }
    if (event.target.closest("[data-confirm-yes]")) {
      hideConfirm();
      const action = actionFor("discard");
      if (action) send(action);
      return;
    }
    if (event.target.closest("[data-confirm-no]")) { hideConfirm(); return; }
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
      if (kind === "take_pile" && !selected().length && pileMelds().length > 1) {
        chooseMeld(button);
        return;
      }
      const action = actionFor(kind);
      if (!action) { showAlert(say("Выберите одну карту для сброса.", "Select one card to discard.")); return; }
      if (kind === "discard" && table().dataset.discardConfirm === "true" && askConfirm(action)) return;
      send(action);
      return;
    }
    const sorted = event.target.closest("[data-sort-hand], [data-sort-suit]");
    if (sorted) {
      const order = sorted.matches("[data-sort-suit]") ? hand().dataset.bySuit : hand().dataset.byRank;
      arrangeHand((order || "").split(" ").filter(Boolean));
      return;
    }
    if (event.target.closest("[data-clear-groups]")) { groups = []; swap(lastHtml || table().outerHTML, true); }
  });

  // A disabled button gets no click, but a tap or press on it still arrives: it says why.
  page.addEventListener("pointerup", (event) => {
    const button = event.target.closest("[data-actions] [data-action]");
    if (button) showWhy(button);
  });
  page.addEventListener("pointerover", (event) => {
    const button = event.target.closest("[data-actions] [data-action]");
    if (button && button.disabled && event.pointerType === "mouse") showWhy(button);
  });

  // Dragging a card (mouse or touch) moves it within the hand, the order kept; dropped on one of
  // the player's melds on their turn, it joins that meld (the engine judges), with the other
  // selected cards when it is one of them.
  let drag = null;
  page.addEventListener("pointerdown", (event) => {
    const card = event.target.closest("[data-hand] [data-card]");
    if (!card || event.button > 0) return;
    drag = { card, x: event.clientX, y: event.clientY, moving: false, pointer: event.pointerId,
      order: handCards().map((el) => el.dataset.card), meld: null };
  });
  function meldUnder(event) {
    for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
      const meld = el.closest && el.closest(".meld--ours");
      if (meld && page.contains(meld)) return meld;
    }
    return null;
  }
  function markDrop(meld) {
    if (drag.meld === meld) return;
    if (drag.meld) drag.meld.classList.remove("meld--drop");
    drag.meld = meld;
    if (meld) meld.classList.add("meld--drop");
  }
  page.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.moving) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.moving = true;
      drag.card.classList.add("dragging");
      try { drag.card.setPointerCapture(event.pointerId); } catch (e) { /* already released */ }
    }
    event.preventDefault();
    const area = hand().getBoundingClientRect();
    if (event.clientY < area.top - 24) {
      // Above the hand: over the table, where a meld may take the card.
      markDrop(table().dataset.yourTurn === "true" ? meldUnder(event) : null);
      return;
    }
    markDrop(null);
    const others = handCards().filter((el) => el !== drag.card);
    const boxes = others.map((el) => el.getBoundingClientRect());
    // The card goes before the first card whose visible part's middle lies after the pointer
    // (the cards overlap: a card shows from its left edge to the next card's), row by row.
    let before = null;
    for (let i = 0; i < others.length; i++) {
      const box = boxes[i], next = boxes[i + 1];
      const right = next && next.top === box.top ? Math.min(next.left, box.right) : box.right;
      const sameRow = event.clientY >= box.top - 4 && event.clientY <= box.bottom + 4;
      if ((sameRow && event.clientX < (box.left + right) / 2) || event.clientY < box.top - 4) { before = others[i]; break; }
    }
    if (before !== drag.card.nextElementSibling) hand().insertBefore(drag.card, before);
  });
  function endDrag() {
    if (!drag) return;
    const meld = drag.meld;
    if (drag.moving) {
      drag.card.classList.remove("dragging");
      dragged = true;
      setTimeout(() => { dragged = false; }, 0);
      if (meld) {
        meld.classList.remove("meld--drop");
        arrangeHand(drag.order);
      } else {
        saveOrder();
        drag.card.focus({ preventScroll: true });
      }
    }
    const card = drag.card;
    drag = null;
    if (meld) {
      const cards = card.getAttribute("aria-pressed") === "true" ? selected() : [card.dataset.card];
      send({ type: "meld", melds: [meld.dataset.meldIndex !== undefined
        ? { meld: Number(meld.dataset.meldIndex), cards } : { rank: meld.dataset.meld, cards }] });
      return;
    }
    if (refreshAfterDrag) { refreshAfterDrag = false; refresh(); }
  }
  page.addEventListener("pointerup", endDrag);
  page.addEventListener("pointercancel", endDrag);

  // The keyboard: Alt+←/→ moves the focused card; ←/→ go from card to card.
  page.addEventListener("keydown", (event) => {
    const card = event.target.closest && event.target.closest("[data-hand] [data-card]");
    if (!card || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    const cards = handCards();
    const index = cards.indexOf(card);
    const step = event.key === "ArrowLeft" ? -1 : 1;
    const next = cards[index + step];
    event.preventDefault();
    if (!next) return;
    if (event.altKey) {
      hand().insertBefore(card, step < 0 ? next : next.nextElementSibling);
      saveOrder();
      card.focus({ preventScroll: true });
    } else {
      next.focus({ preventScroll: true });
    }
  });

  // The turn clock counts down on the server's time; between two live deals it counts the
  // break down first (the turn's clock starts when it ends), and the page looks again then.
  const leftUntil = (moment) => Math.max(0, Date.parse(moment) - (Date.now() + serverOffset));
  function shown(left) {
    const s = Math.floor(left / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`
      : `${m}:${String(sec).padStart(2, "0")}`;
  }
  let breakOver = false;
  function tick() {
    const breakClock = page.querySelector("[data-break-clock]");
    if (breakClock) breakClock.textContent = shown(leftUntil(breakClock.dataset.deadline));
    const clock = page.querySelector("[data-turn-clock]");
    if (!clock || !clock.dataset.deadline) return;
    const pause = clock.dataset.breakUntil && leftUntil(clock.dataset.breakUntil);
    if (pause) { clock.textContent = shown(pause); breakOver = false; return; }
    if (clock.dataset.breakUntil && !breakOver) { breakOver = true; refresh(); }
    const note = page.querySelector("[data-break-note]");
    if (note) note.hidden = true;
    clock.textContent = shown(leftUntil(clock.dataset.deadline));
  }
  setInterval(tick, 1000);
  tick();

  // The table's own forms («Дальше», the pace, the bots' level): sent in the background, the
  // fresh table swapped in (a refusal shows in its alert).
  page.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-table-form]");
    if (!form || busy) return;
    event.preventDefault();
    busy = true;
    try {
      const response = await fetch(form.action, {
        method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
        headers: { "X-CSRFToken": csrf, "X-Requested-With": "fetch" },
      });
      const html = await response.text();
      busy = false;
      swap(html, true);
    } catch (error) {
      busy = false;
      showAlert(say("Не отправлено: нет связи с сервером.", "Not sent: no connection."));
    }
  });

  // What the player unfolded (`<details data-keep-open>`: the deal scores, the table's
  // settings) stays open across the table's refreshes and a reload of the page.
  const openKey = () => `open-details:${table().dataset.game}`;
  function rememberOpenDetails() {
    const open = Array.from(page.querySelectorAll("details[data-keep-open]")).filter((el) => el.open).map((el) => el.id);
    try { sessionStorage.setItem(openKey(), JSON.stringify(open)); } catch (e) { /* storage off */ }
  }
  function reopenDetails() {
    let open = [];
    try { open = JSON.parse(sessionStorage.getItem(openKey()) || "[]"); } catch (e) { open = []; }
    for (const id of open) {
      const details = document.getElementById(id);
      if (details && page.contains(details)) details.open = true;
    }
  }
  // What the table tells between turns (the deal's score, the turns the club played for you,
  // a pace asked) is a sheet over the felt on a phone: «Понятно» folds it to a bar, and it
  // stays folded across refreshes and reloads until something new is told (`data-notes`).
  const foldKey = () => `folded-notes:${table().dataset.game}`;
  function foldNotes() {
    const notes = page.querySelector("[data-notes]");
    if (!notes) return;
    let folded = "";
    try { folded = sessionStorage.getItem(foldKey()) || ""; } catch (e) { folded = ""; }
    setFolded(notes, folded === notes.dataset.notes);
  }
  function setFolded(notes, folded) {
    notes.classList.toggle("table-notes--folded", folded);
    const button = notes.querySelector("[data-notes-fold]");
    if (button) button.setAttribute("aria-expanded", folded ? "false" : "true");
  }
  page.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-notes-fold]");
    if (!button) return;
    const notes = button.closest("[data-notes]");
    const folded = !notes.classList.contains("table-notes--folded");
    setFolded(notes, folded);
    try {
      if (folded) sessionStorage.setItem(foldKey(), notes.dataset.notes);
      else sessionStorage.removeItem(foldKey());
    } catch (e) { /* storage off: folded until the next refresh */ }
  });

  page.addEventListener("toggle", (event) => {
    if (event.target.matches && event.target.matches("details[data-keep-open]")) rememberOpenDetails();
  }, true);

  // The dock is pinned to the bottom of the screen: the page keeps that much room below; and
  // as much again as the notes' sheet over it (a phone's), so that the page's end can still be
  // scrolled into view above them.
  let dockWatcher = null;
  function watchDock() {
    const dock = page.querySelector("[data-dock]");
    const notes = page.querySelector("[data-notes]");
    if (dockWatcher) dockWatcher.disconnect();
    // A finished game's dock is no longer pinned (nor is there one before the deal).
    if (!dock || getComputedStyle(dock).position !== "fixed") { page.style.setProperty("--dock-space", "0px"); return; }
    if (!window.ResizeObserver) return;
    dockWatcher = new ResizeObserver(() => {
      page.style.setProperty("--dock-space", `${Math.ceil(dock.getBoundingClientRect().height) + 12}px`);
      const sheet = notes && getComputedStyle(notes).position === "fixed" ? notes.getBoundingClientRect().height : 0;
      page.style.setProperty("--notes-space", `${Math.ceil(sheet)}px`);
    });
    dockWatcher.observe(dock);
    if (notes) dockWatcher.observe(notes);
  }

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
  reopenDetails();
  foldNotes();
  rememberRendered();
  arrangeHand();
  watchDock();
  if (page.dataset.eventsUrl && window.EventSource) connect(); else startPolling();
})();
