// The page's own script: copy a newspaper, read an agents' profile file into its form, and
// stop a live run when the page is left.
// (Partial updates are htmx's: htmx.min.js, htmx.org 2.0.11, 0BSD licence, vendored.)
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var area = document.getElementById(button.getAttribute("data-copy"));
  if (!area) return;
  area.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(area.value);
  } else {
    document.execCommand("copy");
  }
  button.classList.add("done");
});
window.addEventListener("pagehide", function () {
  if (!navigator.sendBeacon) return;
  document.querySelectorAll("[data-run]").forEach(function (el) {
    navigator.sendBeacon("/live/cancel?run=" + encodeURIComponent(el.getAttribute("data-run")));
  });
});
// An agents' profile file: its text goes into the form's textarea (and its name beside it),
// then the form is posted as for any change. The file input's own change must not post the
// form before the text is read, so it stops here, on the way down.
document.addEventListener("change", function (event) {
  var input = event.target;
  if (!input.matches || !input.matches("input[type=file][data-profile]")) return;
  event.stopPropagation();
  var file = input.files && input.files[0];
  if (!file) return;
  var prefix = input.getAttribute("data-profile");
  var reader = new FileReader();
  reader.onload = function () {
    var area = document.getElementById(prefix + "profile");
    document.getElementById(prefix + "profile_name").value = file.name;
    area.value = reader.result;
    area.dispatchEvent(new Event("change", {bubbles: true}));
  };
  reader.readAsText(file);
}, true);
