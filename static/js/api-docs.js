// /api/docs/: names for the controls Swagger UI renders without one, so a screen reader can
// tell them apart (axe's button-name, select-name and scrollable-region-focusable rules).
// Swagger UI redraws as operations open, so this runs again after each change.
"use strict";

function nameSwaggerControls() {
  document.querySelectorAll(".copy-to-clipboard > button:not([aria-label])").forEach((button) => {
    button.setAttribute("aria-label", "Copy to the clipboard");
  });
  document.querySelectorAll("tr[data-param-name] select:not([aria-label])").forEach((select) => {
    select.setAttribute("aria-label", select.closest("tr").dataset.paramName);
  });
  document.querySelectorAll("pre.microlight:not([tabindex])").forEach((block) => {
    block.tabIndex = 0;
  });
  // Swagger UI's title is an <h1> and its sections start at <h3>: each heading below the title
  // is read one level higher, so no level is skipped (axe's heading-order rule).
  document.querySelectorAll("#swagger-ui :is(h3, h4, h5):not([aria-level])").forEach((heading) => {
    heading.setAttribute("aria-level", String(Number(heading.tagName[1]) - 1));
  });
}

// Swagger UI draws its dark colours under html.dark-mode (static/css/api-docs.css): on when the
// visitor's system asks for a dark scheme, and following it when it changes.
const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");
function followColourScheme() {
  document.documentElement.classList.toggle("dark-mode", darkScheme.matches);
}
followColourScheme();
darkScheme.addEventListener("change", followColourScheme);

new MutationObserver(nameSwaggerControls).observe(document.body, {
  childList: true,
  subtree: true,
});
