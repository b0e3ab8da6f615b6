/* ropasci lobby: the position editor of games that have one. Game-agnostic and rule-free: a click (or Enter
 * or Space) on a hex of the editor's board sends "edit=r,q" with the chosen tool to the server, which returns
 * the options with the position changed and drawn again; a file chosen with "Load a file" is put in the
 * position's text box as it is, for the server to check.
 */
(function () {
  "use strict";

  var lastPick = null; // "r,q" of the hex last clicked, to give it focus again after the swap

  function cellsOf(root) {
    return Array.prototype.slice.call((root || document).querySelectorAll("#position-editor .cell[data-r]"));
  }

  function prepare() {
    cellsOf().forEach(function (cell) {
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      if (lastPick === cell.dataset.r + "," + cell.dataset.q) cell.focus();
    });
  }

  function pick(cell) {
    var input = document.getElementById("editor-edit");
    if (!input || !window.htmx) return;
    lastPick = cell.dataset.r + "," + cell.dataset.q;
    input.value = lastPick;
    window.htmx.trigger(input, "edit");
  }

  function hexAt(target) {
    var el = target.closest ? target.closest("#position-editor [data-r]") : null;
    if (!el) return null;
    // A token stands on a hex: the hex's cell is the one with the same coordinates.
    var cell = el.classList.contains("cell") ? el : null;
    if (!cell) {
      cellsOf().forEach(function (c) { if (c.dataset.r === el.dataset.r && c.dataset.q === el.dataset.q) cell = c; });
    }
    return cell;
  }

  document.addEventListener("click", function (e) {
    var cell = hexAt(e.target);
    if (cell) { e.preventDefault(); pick(cell); }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var cell = hexAt(e.target);
    if (cell) { e.preventDefault(); pick(cell); }
  });

  document.addEventListener("change", function (e) {
    if (e.target.id !== "position-file" || !e.target.files || !e.target.files.length) return;
    var file = e.target.files[0];
    var box = document.querySelector("#game-options textarea.json-input");
    if (!box) return;
    if (file.size > 20000) {
      box.value = "(" + file.name + " is " + file.size + " bytes: a position file is at most 20,000)";
      box.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    file.text().then(function (text) {
      box.value = text;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });

  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("htmx:afterSettle", prepare);
})();
