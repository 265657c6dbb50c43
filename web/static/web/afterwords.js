// A preset warm phrase fills the afterword's text field.
document.querySelectorAll("[data-phrase]").forEach(function (button) {
  button.addEventListener("click", function () {
    var field = document.getElementById("afterword-text");
    field.value = button.dataset.phrase;
    field.focus();
  });
});
