// The page's own script: copy a newspaper, and stop a live run when the page is left.
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
