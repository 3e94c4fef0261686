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
// The page reloads with the new results, and focus comes back to the control just changed, so
// someone using the keyboard or a screen reader carries on where they were. Empty controls are
// left out of the address: "?venue=NSDI", not "?q=&venue=NSDI".
const FOCUS_KEY = "filters-focus";
// Storage can be refused (private modes, strict settings): then focus simply is not restored.
const remembered = {
  take() {
    try {
      const value = JSON.parse(sessionStorage.getItem(FOCUS_KEY) || "null");
      sessionStorage.removeItem(FOCUS_KEY);
      return value;
    } catch {
      return null;
    }
  },
  keep(value) {
    try {
      sessionStorage.setItem(FOCUS_KEY, JSON.stringify(value));
    } catch {
      // nothing to do: the page still applies the filter
    }
  },
};
document.querySelectorAll(".js-filters").forEach((form) => {
  form.classList.add("js-auto-apply");
  form.querySelector(".js-auto-apply-note")?.removeAttribute("hidden");
  const apply = (control) => {
    remembered.keep({ name: control.name, value: control.value });
    form.requestSubmit();
  };
  form.addEventListener("change", (event) => {
    if (event.target.type !== "search") apply(event.target);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.type === "search") {
      event.preventDefault();
      apply(event.target);
    }
  });
  form.addEventListener("submit", () => {
    form.querySelectorAll("input, select").forEach((control) => {
      if (control.name && control.value === "") control.disabled = true;
    });
  });
  const saved = remembered.take();
  if (saved) {
    const control = Array.from(form.elements).find(
      (element) => element.name === saved.name && (element.type !== "checkbox" || element.value === saved.value),
    );
    if (control) {
      control.closest(".js-filter-panel")?.setAttribute("open", "");
      control.closest("details.facet__more")?.setAttribute("open", "");
      control.focus();
    }
  }
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

// Escape closes the Abstract or Cite panel that holds the focus, and gives the focus back to
// the panel's button, where Enter or Space opens it again.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const panel = document.activeElement?.closest("details.publication__more[open]");
  if (!panel) return;
  panel.open = false;
  panel.querySelector(":scope > summary")?.focus();
});
