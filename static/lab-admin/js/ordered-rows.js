/* Ordered rows in the admin (base/ordered_admin.py): authors, awards, links, CV entries.
 *
 * Each row gets a handle: drag it (SortableJS), or focus it and press the up and down arrow
 * keys (Home and End for the first and last place). After every move the "Place" boxes are
 * numbered again from the page's first place, which is all the server reads. Without this
 * script staff type the places themselves.
 */
(function () {
  "use strict";

  const ROWS = "tr.form-row:not(.empty-form), div.inline-related:not(.tabular):not(.empty-form)";

  function rowsOf(group) {
    return Array.from(group.querySelectorAll(ROWS)).filter(
      (row) => row.querySelector(".ordered-rows__place") !== null
    );
  }

  function announce(group, message) {
    let status = group.querySelector(".ordered-rows__status");
    if (status === null) {
      status = document.createElement("p");
      status.className = "ordered-rows__status";
      status.setAttribute("role", "status");
      group.append(status);
    }
    status.textContent = message;
  }

  function renumber(group) {
    const first = Number(group.dataset.firstPlace) || 1;
    const rows = rowsOf(group);
    rows.forEach((row, index) => {
      const place = first + index;
      row.querySelector(".ordered-rows__place").value = String(place);
      const handle = row.querySelector(".ordered-rows__handle");
      if (handle !== null) {
        handle.setAttribute(
          "aria-label",
          `Move row ${place} of ${first + rows.length - 1}: drag it, or press the up and down arrow keys`
        );
      }
    });
  }

  function move(group, row, where) {
    const rows = rowsOf(group);
    const index = rows.indexOf(row);
    const target = { up: index - 1, down: index + 1, first: 0, last: rows.length - 1 }[where];
    if (target === undefined || target < 0 || target >= rows.length || target === index) {
      return;
    }
    const other = rows[target];
    other.parentNode.insertBefore(row, target < index ? other : other.nextSibling);
    renumber(group);
    row.querySelector(".ordered-rows__handle").focus();
    const place = row.querySelector(".ordered-rows__place").value;
    announce(group, `Moved to place ${place}.`);
  }

  const KEYS = { ArrowUp: "up", ArrowDown: "down", Home: "first", End: "last" };

  function addHandle(group, row) {
    if (row.querySelector(".ordered-rows__handle") !== null) {
      return;
    }
    const handle = document.createElement("button");
    handle.type = "button";
    handle.className = "ordered-rows__handle";
    handle.textContent = "⇅";
    handle.addEventListener("keydown", (event) => {
      const where = KEYS[event.key];
      if (where !== undefined) {
        event.preventDefault();
        move(group, row, where);
      }
    });
    const place = row.querySelector("td.original") || row.querySelector("h3") || row;
    place.prepend(handle);
  }

  function makeSortable(group) {
    if (group.dataset.sortable === "on" || window.Sortable === undefined) {
      return;
    }
    const row = group.querySelector(ROWS) || group.querySelector(".empty-form");
    if (row === null) {
      return;
    }
    group.dataset.sortable = "on";
    window.Sortable.create(row.parentNode, {
      handle: ".ordered-rows__handle",
      draggable: ROWS,
      animation: 150,
      forceFallback: true,
      onEnd: () => renumber(group),
    });
  }

  function setUp(group) {
    rowsOf(group).forEach((row) => addHandle(group, row));
    makeSortable(group);
    renumber(group);
  }

  document.addEventListener("formset:added", (event) => {
    const group = event.target.closest(".ordered-rows");
    if (group !== null) {
      addHandle(group, event.target);
      makeSortable(group);
      renumber(group);
    }
  });
  document.addEventListener("formset:removed", () => {
    document.querySelectorAll(".ordered-rows").forEach(renumber);
  });

  function start() {
    document.querySelectorAll(".ordered-rows").forEach(setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
