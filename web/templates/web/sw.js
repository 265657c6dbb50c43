// Canasta Club service worker: shows the club's web pushes; a click opens the game.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {title: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "Canasta Club", {
    body: data.body || "",
    tag: data.tag || undefined,
    data: {url: data.url || "/"},
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) { return windows[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
