// The table's phrases: a phrase is sent without leaving the page (the table's live stream brings
// it back to every open page of the table, this one too), the menu stays open across the
// table's refreshes, and a phrase by a seat goes once its time is up. The server keeps the list
// and the pace; this file only sends the key pressed and shows the server's refusal.
(function () {
  "use strict";
  const page = document.querySelector(".table-page");
  if (!page) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const lang = document.documentElement.lang;
  const say = (ru, en) => (lang === "en" ? en : ru);
  const serverOffset = Date.parse(page.dataset.now) - Date.now();
  let menuOpen = false;

  function showAlert(message) {
    const alert = page.querySelector("[data-phrase-alert]");
    if (!alert) return;
    alert.textContent = message;
    alert.classList.toggle("alert--empty", !message);
  }

  // <details> fires "toggle" without bubbling: heard on the way down.
  page.addEventListener("toggle", (event) => {
    if (event.target.matches && event.target.matches("[data-phrase-menu]")) menuOpen = event.target.open;
  }, true);

  page.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-say-phrase]");
    const button = event.submitter;
    if (!form || !button) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form));
    body.set("phrase", button.value);
    try {
      const response = await fetch(form.action, {
        method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRFToken": csrf, "X-Requested-With": "fetch" },
      });
      if (response.ok) {
        showAlert("");
        const menu = page.querySelector("[data-phrase-menu]");
        if (menu) menu.open = false;
        menuOpen = false;
        return;
      }
      const answer = await response.json().catch(() => null);
      showAlert(answer && answer.message ? answer.message : say("Фраза не отправлена.", "The phrase was not sent."));
    } catch (error) {
      showAlert(say("Фраза не отправлена: нет связи с сервером.", "The phrase was not sent: no connection."));
    }
  });

  // After the table is swapped in: the menu as the player left it, and no phrase past its time.
  function tidy() {
    const menu = page.querySelector("[data-phrase-menu]");
    if (menu && menuOpen && !menu.open) menu.open = true;
    const now = Date.now() + serverOffset;
    for (const said of page.querySelectorAll("[data-said-until]")) {
      said.hidden = Date.parse(said.dataset.saidUntil) <= now;
    }
  }
  new MutationObserver(tidy).observe(page, { childList: true });
  setInterval(tidy, 1000);
  tidy();
})();
