// The others' moves as they happen: the table highlights what the last turn changed (the melds
// that grew, the pile taken or discarded on), a run of turns that arrived together is stepped
// through one turn at a time, an absent seat's R-CLUB-2 wait counts down, and an optional tone
// says it became your turn. No rule of the game here: the server's move log says which melds a
// turn touched (data-turn-melds "team:rank", data-turn-pile) and when an absence begins
// (data-away-at); this file only points at them. table.js swaps the table fragment in; this file
// watches for the swap.
(function () {
  "use strict";
  const page = document.querySelector(".table-page");
  if (!page) return;
  // How long each turn of a run stays highlighted before the next one.
  const STEP_MS = 1400;
  const SOUND_KEY = "turn-sound";

  const table = () => page.querySelector("[data-game]");
  const log = () => page.querySelector("[data-move-log]");
  const caption = () => page.querySelector("[data-move-caption]");
  const turnEntry = (to) => page.querySelector(`[data-move-log] [data-turn-to="${to}"]`);

  function viewerSeat() {
    const box = log();
    return box && box.dataset.viewerSeat !== "" ? Number(box.dataset.viewerSeat) : null;
  }

  // The log's turns, oldest first, as {to, seat, el}.
  function turns() {
    return Array.from(page.querySelectorAll("[data-move-log] [data-turn-to]"))
      .map((el) => ({ to: Number(el.dataset.turnTo), seat: Number(el.dataset.turnSeat), el }))
      .reverse();
  }

  function clearHighlight() {
    for (const el of page.querySelectorAll(".moved, .moved-seat, .move-turn--current")) {
      el.classList.remove("moved", "moved--took", "moved--discarded", "moved-seat", "move-turn--current");
    }
  }

  // Points at what one logged turn changed on the table.
  function highlight(entry) {
    clearHighlight();
    if (!entry) return;
    entry.classList.add("move-turn--current");
    const seat = page.querySelector(`[data-seat="${entry.dataset.turnSeat}"]`);
    if (seat) seat.classList.add("moved-seat");
    for (const key of (entry.dataset.turnMelds || "").split(" ").filter(Boolean)) {
      const [team, rank] = key.split(":");
      const meld = page.querySelector(`[data-meld="${rank}"][data-team="${team}"]`);
      if (meld) meld.classList.add("moved");
    }
    const pile = page.querySelector("[data-pile]");
    if (pile && entry.dataset.turnPile) pile.classList.add("moved", `moved--${entry.dataset.turnPile}`);
  }

  function say(entry) {
    const out = caption();
    if (!out || !entry) return;
    // The cards by their names (what screen readers say), not their glyphs.
    const copy = entry.cloneNode(true);
    for (const glyph of copy.querySelectorAll("[aria-hidden]")) glyph.remove();
    out.textContent = copy.textContent.replace(/\s+/g, " ").trim();
  }

  // Turns waiting to be shown (their data-turn-to), oldest first; their log lines stay hidden
  // until their step comes.
  let queue = [];
  let stepping = null;
  let shownTo = 0; // the last turn highlighted
  let chimeAfterSteps = false;

  function hidePending() {
    for (const to of queue) {
      const entry = turnEntry(to);
      if (entry) entry.classList.add("move-turn--pending");
    }
  }

  function step() {
    stepping = null;
    queue = queue.filter((to) => turnEntry(to)); // a turn that grew since is queued anew
    const to = queue.shift();
    if (to === undefined) return;
    const entry = turnEntry(to);
    entry.classList.remove("move-turn--pending");
    highlight(entry);
    say(entry);
    shownTo = to;
    if (queue.length) stepping = setTimeout(step, STEP_MS);
    else if (chimeAfterSteps) { chimeAfterSteps = false; chime(); }
  }

  // After a swap: the turns that are new since `before` (the version the page showed) join the
  // queue; the others' turns are shown one by one, the viewer's own go straight through.
  function arrived(before) {
    const mine = viewerSeat();
    const fresh = turns().filter((turn) => turn.to > before && turn.to > shownTo && !queue.includes(turn.to));
    for (const turn of fresh) {
      if (turn.seat === mine) continue;
      queue.push(turn.to);
    }
    const latest = turns().at(-1);
    if (latest && latest.seat === mine && latest.to > before) {
      // The viewer moved: what they did needs no pointing at, and older steps are over.
      queue = [];
      clearTimeout(stepping);
      stepping = null;
      clearHighlight();
      shownTo = latest.to;
      return;
    }
    queue = queue.filter((to) => turnEntry(to));
    hidePending();
    if (stepping === null && queue.length) {
      step();
    } else if (stepping === null) {
      highlight(shownTo ? turnEntry(shownTo) : null);
    } else {
      const entry = turnEntry(shownTo); // the swap replaced the highlighted elements
      if (entry) highlight(entry);
    }
  }

  function firstLook() {
    const mine = viewerSeat();
    const latest = turns().at(-1);
    if (latest && latest.seat !== mine) {
      highlight(latest.el);
      shownTo = latest.to;
    }
  }

  // R-CLUB-2: an absent live seat's wait, on the server's clock (the club's clock when the
  // fragment was read, data-away-now, against this browser's when it first saw it).
  const offsets = new WeakMap();
  function tickAway() {
    for (const wait of page.querySelectorAll("[data-away-at]")) {
      if (!offsets.has(wait)) offsets.set(wait, Date.parse(wait.dataset.awayNow) - Date.now());
      const now = Date.now() + offsets.get(wait);
      const left = Math.max(0, Math.ceil((Date.parse(wait.dataset.awayAt) - now) / 1000));
      const clock = wait.querySelector("[data-away-clock]");
      if (left > 0 && clock) {
        clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      } else if (left === 0) {
        // The wait is over; the server marks the seat away on its next sweep.
        wait.textContent = `(${wait.dataset.awayLabel})`;
        wait.removeAttribute("data-away-at");
        wait.classList.replace("away-wait", "absent");
      }
    }
  }

  // The tone when it becomes your turn: off unless the player switched it on (remembered in
  // this browser); synthesized, two short notes.
  let audio = null;
  const soundOn = () => { try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; } };
  const toggle = () => page.querySelector("[data-turn-sound]");
  function showSound() {
    const button = toggle();
    if (button) button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }
  function chime() {
    if (!soundOn() || !window.AudioContext) return;
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime;
    [660, 880].forEach((frequency, index) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + index * 0.14;
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.13);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.14);
    });
    page.dataset.turnChimed = String(Number(page.dataset.turnChimed || 0) + 1);
  }
  page.addEventListener("click", (event) => {
    const button = event.target.closest("[data-turn-sound]");
    if (!button) return;
    const on = !soundOn();
    try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    showSound();
    if (on && window.AudioContext) { audio = audio || new AudioContext(); audio.resume(); }
  });

  // table.js replaces the [data-game] element on every update: compare the versions and turns.
  let version = Number(table() ? table().dataset.version : 0);
  let yourTurn = table() ? table().dataset.yourTurn === "true" : false;
  new MutationObserver(() => {
    const fresh = table();
    if (!fresh) return;
    const nowVersion = Number(fresh.dataset.version);
    const nowYours = fresh.dataset.yourTurn === "true";
    const before = version;
    version = nowVersion;
    const turnCame = nowYours && !yourTurn;
    yourTurn = nowYours;
    arrived(before);
    // The tone comes after the others' turns have been stepped through.
    if (turnCame && stepping !== null) chimeAfterSteps = true;
    else if (turnCame) chime();
    tickAway();
  }).observe(page, { childList: true });

  firstLook();
  showSound();
  tickAway();
  setInterval(tickAway, 1000);
})();
