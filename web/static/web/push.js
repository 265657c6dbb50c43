// Web push in this browser: register the service worker, subscribe with the club's VAPID key
// and store the subscription (the API's /api/me/push-subscriptions/, with the session's CSRF
// token); or unsubscribe and forget it.
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) { return; }
  var status = box.querySelector("[data-push-status]");
  var words = box.querySelector("[data-push-texts]").content.firstElementChild.dataset;
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  function say(text) { status.textContent = text; }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(words.unsupported);
    box.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    return;
  }
  function key() {
    var base64 = box.dataset.pushKey.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(base64 + "===".slice((base64.length + 3) % 4));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }
  function send(method, body) {
    return fetch(box.dataset.subscriptionsUrl, {
      method: method, credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body),
    });
  }
  var registration = navigator.serviceWorker.register("/sw.js");
  box.querySelector("[data-push-on]").addEventListener("click", function () {
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say(words.denied); return null; }
      return registration.then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key()});
      }).then(function (subscription) { return send("POST", subscription.toJSON()); })
        .then(function (answer) {
          // A refused endpoint (push_endpoint_refused) says why instead of "on".
          if (answer.ok) { say(words.on); return null; }
          return answer.json().then(function (body) { say(body.detail); });
        });
    }).catch(function (error) { say(String(error)); });
  });
  box.querySelector("[data-push-off]").addEventListener("click", function () {
    registration.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (subscription) {
      if (!subscription) { say(words.off); return null; }
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () { return send("DELETE", {endpoint: endpoint}); })
        .then(function () { say(words.off); });
    }).catch(function (error) { say(String(error)); });
  });
})();
