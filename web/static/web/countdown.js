// The moderators' countdowns to each report's 4-hour deadline, ticking every second.
(function () {
  "use strict";
  var texts = document.querySelector("[data-countdown-texts]");
  var words = texts ? texts.content.firstElementChild.dataset : {overdue: "overdue by", left: "left"};
  var started = Date.now();
  var clocks = Array.prototype.slice.call(document.querySelectorAll("[data-countdown]"));
  function format(seconds) {
    var s = Math.abs(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return h + ":" + String(m).padStart(2, "0") + ":" + String(r).padStart(2, "0");
  }
  function tick() {
    var passed = Math.floor((Date.now() - started) / 1000);
    clocks.forEach(function (clock) {
      var left = Number(clock.dataset.secondsLeft) - passed;
      clock.textContent = left > 0 ? words.left + " " + format(left) : words.overdue + " " + format(left);
      clock.classList.toggle("overdue", left <= 0);
    });
  }
  document.querySelectorAll("[data-duration]").forEach(function (span) { span.textContent = format(Number(span.dataset.duration)); });
  tick();
  setInterval(tick, 1000);
})();
