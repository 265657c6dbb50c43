// The after-game part comes with the table's fragment, swapped in as the game ends: listen on
// the document. A preset warm phrase fills the afterword's text field; sending a form of the
// fragment (an afterword, «Сыграть ещё», a table phrase) puts in the page's CSRF token (the
// fragment carries none).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-phrase]");
  if (!button) return;
  var field = document.getElementById("afterword-text");
  field.value = button.dataset.phrase;
  field.focus();
});
document.addEventListener("submit", function (event) {
  var token = event.target.querySelector("[data-page-csrf]");
  if (token) token.value = document.querySelector('meta[name="csrf-token"]').content;
});
