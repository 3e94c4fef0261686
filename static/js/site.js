// Small progressive touches; every page works without this file.
"use strict";

// "name [at] host [dot] org" becomes a mailto link once a person's browser runs this.
document.querySelectorAll(".js-email").forEach((element) => {
  const address = element.textContent
    .replace(/\s*\[at\]\s*/, "@")
    .replace(/\s*\[dot\]\s*/g, ".");
  const link = document.createElement("a");
  link.href = `mailto:${address}`;
  link.textContent = address;
  element.replaceChildren(link);
});

// On a phone the publication filters start folded so the results come first; they stay open
// where JavaScript does not run, and on wide screens, where they sit in a side column.
const narrow = window.matchMedia("(max-width: 59.99rem)");
document.querySelectorAll(".js-filter-panel").forEach((panel) => {
  if (narrow.matches) panel.open = false;
});

// Filters apply as soon as one changes; without JavaScript the "Apply filters" button does it.
// Empty controls are left out of the address, so it reads "?venue=NSDI", not "?q=&venue=NSDI".
document.querySelectorAll(".js-filters").forEach((form) => {
  form.classList.add("js-auto-apply");
  form.addEventListener("change", (event) => {
    if (event.target.type === "search") return; // words apply on Enter
    form.requestSubmit();
  });
  form.addEventListener("submit", () => {
    form.querySelectorAll("input, select").forEach((control) => {
      if (control.name && control.value === "") control.disabled = true;
    });
  });
});
window.addEventListener("pageshow", () => {
  // Coming back to the page: controls disabled on the way out work again.
  document.querySelectorAll(".js-filters [disabled]").forEach((control) => {
    control.disabled = false;
  });
});

// "Copy BibTeX": the entry is on the page, selectable, without JavaScript; with it, the button
// appears and puts the text on the clipboard, or selects it where the clipboard is refused.
document.querySelectorAll(".js-copy").forEach((button) => {
  const source = document.getElementById(button.dataset.copyTarget);
  const status = button.parentElement.querySelector(".js-copy-status");
  if (!source) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(source.textContent);
      if (status) status.textContent = "Copied.";
    } catch {
      window.getSelection().selectAllChildren(source);
      if (status) status.textContent = "Selected: press Ctrl+C or ⌘C to copy.";
    }
  });
});
