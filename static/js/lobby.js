/* ropasci lobby: the position editor of games that have one. Game-agnostic and rule-free: a click (or Enter
 * or Space) on a cell of the editor's board (an element with class "cell" and data-pick="KEY", drawn by the
 * game) sends "edit=KEY" with the chosen tool to the server, which returns the options with the position
 * changed and drawn again; a file chosen with "Load a file" is put in the position's text box as it is, for
 * the server to check.
 */
(function () {
  "use strict";

  var lastPick = null; // the key of the cell last clicked, to give it focus again after the swap

  function cellsOf(root) {
    return Array.prototype.slice.call((root || document).querySelectorAll("#position-editor .cell[data-pick]"));
  }

  function prepare() {
    cellsOf().forEach(function (cell) {
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      if (lastPick === cell.dataset.pick) cell.focus();
    });
  }

  function pick(cell) {
    var input = document.getElementById("editor-edit");
    if (!input || !window.htmx) return;
    lastPick = cell.dataset.pick;
    input.value = lastPick;
    window.htmx.trigger(input, "edit");
  }

  /** The editor's cell under a click (pieces drawn on a cell let clicks through to it: see site.css). */
  function cellAt(target) {
    return target.closest ? target.closest("#position-editor .cell[data-pick]") : null;
  }

  document.addEventListener("click", function (e) {
    var cell = cellAt(e.target);
    if (cell) { e.preventDefault(); pick(cell); }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var cell = cellAt(e.target);
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
