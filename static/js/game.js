/* ropasci game page: choosing an action by clicking or with the keyboard, flipping the board, the turn
 * clock, and notices when a turn resolves. Game-agnostic: it knows no game's rules or pieces.
 *
 * RULES LIVE ONLY IN THE ENGINE. The server embeds this player's legal actions in <script id="legal-actions">:
 * [{action, text, path: [{key, label}, ...]}, ...] (engine actions, the game's words, the clicks that choose
 * each), or, where they are every combination of independent parts (a move per token), {parts: [[entry, ...],
 * ...]}: one entry of each part, in order, make an action (its JSON the list of theirs, its path theirs one
 * after the other), so the player picks part after part. Clickable things on the board carry data-pick="KEY";
 * a step whose key is not on the board is offered as a button. This script only matches what was clicked
 * against those paths.
 *
 * The live parts of the page (#game-head, #board-wrap, #turn-panel, #controls) are replaced by htmx
 * (out-of-band swaps from the WebSocket and from form responses); everything here re-binds after a swap.
 */
(function () {
  "use strict";

  var root = document.getElementById("game");
  if (!root) return;

  var SOUND_KEY = "ropasci.sound";
  var COORDS_KEY = "ropasci.coords";
  var CONFIRM_KEY = "ropasci.confirm"; // "1": a chosen move waits for the Confirm button (else it is made at once)
  var ZOOM_KEY = "ropasci.zoom"; // "1": boards with places under 44 px drawn bigger, scrolling in their frame
  var baseTitle = document.title;
  var serverOffset = 0; // server clock minus this clock, in ms
  if (root.dataset.serverNow) {
    var serverNow = Date.parse(root.dataset.serverNow);
    if (!isNaN(serverNow)) serverOffset = serverNow - Date.now();
  }

  // What this viewer has clicked so far in the turn in play (kept across swaps of the same turn).
  var sel = { turn: null, path: [], choice: null };
  var flipped = root.dataset.flipped === "1";
  var lastFragments = {}; // id -> last server HTML swapped in, to skip swaps that change nothing
  var status = { turn: null, over: null };
  var unseen = false;

  // ---- helpers ----------------------------------------------------------------------------------
  function $(sel_, ctx) { return (ctx || document).querySelector(sel_); }
  function $all(sel_, ctx) { return Array.prototype.slice.call((ctx || document).querySelectorAll(sel_)); }
  function actionValue(a) { return JSON.stringify(a); }

  /** The legal actions embedded by the server, as a chooser (``listChooser``, ``partsChooser``); none when
   * this viewer is not to act. */
  function legalActions() {
    var el = document.getElementById("legal-actions");
    var data = null;
    if (el) { try { data = JSON.parse(el.textContent); } catch (e) { data = null; } }
    if (data && data.parts) return partsChooser(data.parts);
    return listChooser(Array.isArray(data) ? data : []);
  }

  function boardEl() { return document.getElementById("board"); }
  function boardTurn() {
    var b = boardEl();
    return b ? parseInt(b.getAttribute("data-turn"), 10) : null;
  }
  function gameStatus() {
    var p = document.getElementById("turn-panel");
    return p ? p.getAttribute("data-status") : "";
  }
  function onBoard(key) { return $all('#board [data-pick="' + cssEscape(key) + '"]'); }
  function cssEscape(v) { return window.CSS && CSS.escape ? CSS.escape(v) : v.replace(/["\\]/g, "\\$&"); }
  function keysOf(entry) { return entry.path.map(function (st) { return st.key; }); }
  function startsWith(keys, prefix) {
    if (keys.length < prefix.length) return false;
    for (var i = 0; i < prefix.length; i++) if (keys[i] !== prefix[i]) return false;
    return true;
  }
  /** Entries whose path starts with ``prefix``. */
  function matching(acts, prefix) { return acts.filter(function (e) { return startsWith(keysOf(e), prefix); }); }
  /** The distinct steps that may follow ``prefix``: [{key, label}]. */
  function nextSteps(acts, prefix) {
    var seen = {}, out = [];
    matching(acts, prefix).forEach(function (e) {
      var st = e.path[prefix.length];
      if (st && !seen[st.key]) { seen[st.key] = true; out.push(st); }
    });
    return out;
  }
  function complete(acts, prefix) {
    var m = matching(acts, prefix).filter(function (e) { return e.path.length === prefix.length; });
    return m.length === 1 ? m[0] : null;
  }
  function findChoice(acts, value) {
    for (var i = 0; i < acts.length; i++) if (actionValue(acts[i].action) === value) return acts[i];
    return null;
  }

  // A chooser answers, for the keys clicked so far (a prefix): whether some action's path starts with it
  // (matches), the distinct steps that may follow (next), the action it completes if exactly one (complete),
  // and finds an action by its JSON (find). ``chosen``: the values of the parts a prefix has chosen.
  function listChooser(acts) {
    return {
      empty: !acts.length,
      matches: function (prefix) { return matching(acts, prefix).length > 0; },
      next: function (prefix) { return nextSteps(acts, prefix); },
      complete: function (prefix) { return complete(acts, prefix); },
      find: function (value) { return findChoice(acts, value); },
      chosen: function () { return []; }
    };
  }

  /** A product of parts: a prefix is read as whole paths of parts 0..i-1 and the start of one of part i's. */
  function partsChooser(parts) {
    function compose(chosen) {
      return { action: chosen.map(function (e) { return e.action; }),
               text: chosen.map(function (e) { return e.text; }).join(", "),
               path: [].concat.apply([], chosen.map(function (e) { return e.path; })) };
    }
    /** Every reading of ``prefix``: {i: the part in progress (parts.length: all chosen), chosen, rest}. */
    function readings(prefix) {
      var out = [];
      (function walk(i, pos, chosen) {
        var rest = prefix.slice(pos);
        if (i === parts.length) { if (!rest.length) out.push({ i: i, chosen: chosen, rest: rest }); return; }
        var started = false;
        parts[i].forEach(function (e) {
          var keys = keysOf(e);
          if (keys.length <= rest.length && startsWith(rest, keys)) walk(i + 1, pos + keys.length, chosen.concat([e]));
          else if (!started && startsWith(keys, rest)) { started = true; out.push({ i: i, chosen: chosen, rest: rest }); }
        });
      })(0, 0, []);
      return out;
    }
    return {
      empty: !parts.length || parts.some(function (p) { return !p.length; }),
      matches: function (prefix) { return readings(prefix).length > 0; },
      next: function (prefix) {
        var seen = {}, out = [];
        readings(prefix).forEach(function (r) {
          if (r.i === parts.length) return;
          parts[r.i].forEach(function (e) {
            var st = e.path[r.rest.length];
            if (st && startsWith(keysOf(e), r.rest) && !seen[st.key]) { seen[st.key] = true; out.push(st); }
          });
        });
        return out;
      },
      complete: function (prefix) {
        var done = readings(prefix).filter(function (r) { return r.i === parts.length; });
        return done.length === 1 ? compose(done[0].chosen) : null;
      },
      find: function (value) {
        var list;
        try { list = JSON.parse(value); } catch (e) { return null; }
        if (!Array.isArray(list) || list.length !== parts.length) return null;
        var chosen = list.map(function (a, i) { return findChoice(parts[i], actionValue(a)); });
        return chosen.every(Boolean) ? compose(chosen) : null;
      },
      /** The entry of part ``i`` whose value is ``value``, or null. */
      part: function (i, value) { return parts[i] ? findChoice(parts[i], value) : null; },
      chosen: function (prefix) {
        var r = readings(prefix);
        return r.length === 1 ? r[0].chosen.map(function (e) { return actionValue(e.action); }) : [];
      }
    };
  }

  /** The first ``n`` steps of an action in words: their labels, or the board's own label of the thing clicked. */
  function stepWords(entry, n) {
    return entry.path.slice(0, n).map(function (st) {
      if (st.label) return st.label;
      var el = onBoard(st.key)[0];
      return el ? (el.dataset.baseLabel || el.getAttribute("aria-label") || st.key) : st.key;
    }).join(" ");
  }

  function announce(text) {
    var a = document.getElementById("announcer");
    if (a) { a.textContent = ""; window.setTimeout(function () { a.textContent = text; }, 30); }
  }

  // ---- highlighting -------------------------------------------------------------------------------
  function clearMarks() {
    $all("#board [data-pick]").forEach(function (el) {
      if (!el.classList.contains("pickable") && !el.classList.contains("target") && !el.classList.contains("chosen")) return;
      el.classList.remove("pickable", "target", "chosen");
      el.removeAttribute("tabindex");
      el.removeAttribute("aria-pressed");
      if (el.dataset.baseRole) el.setAttribute("role", el.dataset.baseRole); else el.removeAttribute("role");
      if (el.dataset.baseLabel !== undefined) el.setAttribute("aria-label", el.dataset.baseLabel);
    });
  }

  function markStep(key, cls, chosen) {
    onBoard(key).forEach(function (el, i) {
      if (!el.dataset.baseRole && el.getAttribute("role")) el.dataset.baseRole = el.getAttribute("role");
      el.classList.add(cls);
      if (chosen) el.classList.add("chosen");
      if (i === 0) { el.setAttribute("tabindex", "0"); el.setAttribute("role", "button"); }
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
  }

  /** Buttons for the steps that are not on the board, at every depth clicked so far. */
  function renderStepButtons(acts) {
    var box = document.getElementById("pick-steps");
    if (!box) return;
    var html = [];
    for (var d = 0; d <= sel.path.length; d++) {
      var opts = acts.next(sel.path.slice(0, d)).filter(function (st) { return !onBoard(st.key).length; });
      if (!opts.length) continue;
      html.push('<div class="step-group">');
      opts.forEach(function (st) {
        var pressed = sel.path[d] === st.key;
        html.push('<button type="button" class="button button-small step-btn' + (pressed ? " pressed" : "") +
                  '" data-step="' + st.key.replace(/"/g, "&quot;") + '" data-depth="' + d + '" aria-pressed="' +
                  pressed + '">' + (st.label || st.key).replace(/</g, "&lt;") + "</button>");
      });
      html.push("</div>");
    }
    var out = html.join("");
    if (box.dataset.html !== out) { box.innerHTML = out; box.dataset.html = out; }
    box.hidden = !out;
  }

  function refresh() {
    var acts = legalActions();
    clearMarks();
    var board = boardEl();
    if (!board) return;
    board.classList.toggle("playable", !acts.empty);
    // Drop clicks that no longer lead anywhere (e.g. after the list changed).
    while (sel.path.length && !acts.matches(sel.path)) sel.path.pop();
    var choice = sel.choice ? acts.find(sel.choice) : null;
    if (!choice) sel.choice = null;
    var next = acts.next(sel.path);
    sel.path.forEach(function (key) { markStep(key, "pickable", true); });
    next.forEach(function (st) {
      markStep(st.key, sel.path.length ? "target" : "pickable", !!(choice && keysOf(choice)[sel.path.length] === st.key));
      // A step that completes an action is announced as that action (e.g. "Throw rock to (-3, 1)").
      var done = acts.complete(sel.path.concat([st.key]));
      if (done && sel.path.length) onBoard(st.key).forEach(function (el) {
        if (!el.dataset.baseLabel) el.dataset.baseLabel = el.getAttribute("aria-label") || "";
        el.setAttribute("aria-label", stepWords(done, sel.path.length) + " to " + el.dataset.baseLabel);
      });
    });
    renderStepButtons(acts);

    var select = document.getElementById("action-select") || document.getElementById("action-value");
    if (select) select.value = sel.choice || "";
    // One list per part: each part the clicks have chosen shows in its list (the others stay as picked).
    var chosenParts = acts.chosen(sel.path);
    chosenParts.forEach(function (value, i) {
      var partSelect = document.getElementById("action-part-" + i);
      if (partSelect && partSelect.value !== value) partSelect.value = value;
    });
    var text = document.getElementById("choice-text");
    var confirm = document.getElementById("confirm-btn");
    var clear = document.getElementById("clear-btn");
    if (text) {
      var msg;
      if (choice) msg = "Your choice: " + choice.text + ". Confirm to submit it.";
      else if (!sel.path.length && !confirmOn()) {
        msg = next.some(function (st) { return onBoard(st.key).length; })
          ? "Click or tap a highlighted place on the board to move." : "Choose your move.";
      }
      else if (sel.path.length) msg = "Next: click a highlighted square or a button (" + next.length + " option" + (next.length === 1 ? "" : "s") + ").";
      else msg = "Nothing chosen yet.";
      if (text.textContent !== msg) text.textContent = msg;
    }
    if (confirm) {
      confirm.disabled = !choice;
      // One-click moves: the button shows only for a choice not made on the board (from the lists, a hint).
      if (!confirmOn() && confirm.textContent !== "Submitting…") confirm.hidden = !choice;
    }
    if (clear) clear.hidden = !(choice || sel.path.length);
  }

  // ---- choosing --------------------------------------------------------------------------------------
  /** A click on step ``key`` (on the board or a button; ``depth`` for buttons). */
  function activate(key, byKeyboard, depth) {
    var acts = legalActions();
    if (acts.empty || !key) return;
    var prefix = sel.path;
    var d = typeof depth === "number" ? depth : null;
    if (d === null) {
      if (prefix.length && prefix[prefix.length - 1] === key) { // clicked again: take it back
        sel.path = prefix.slice(0, -1); sel.choice = null; refresh(); return;
      }
      // The deepest place where this key continues what was clicked (a later step, or a different choice
      // at an earlier step).
      for (d = prefix.length; d >= 0; d--) {
        if (acts.matches(prefix.slice(0, d).concat([key]))) break;
      }
      if (d < 0) { sel.path = []; sel.choice = null; refresh(); return; }
    } else if (prefix[d] === key) {
      sel.path = prefix.slice(0, d); sel.choice = null; refresh(); return;
    }
    sel.path = prefix.slice(0, d).concat([key]);
    var done = acts.complete(sel.path);
    sel.choice = done ? actionValue(done.action) : null;
    refresh();
    // One click per move: a click that completes the only action it can lead to makes that move.
    if (done && !confirmOn() && !acts.next(sel.path).length && submitChoice()) return;
    if (byKeyboard) {
      var focus = done ? document.getElementById("confirm-btn") : $("#board .target[tabindex], #pick-steps button");
      if (focus) focus.focus({ preventScroll: true });
    }
  }

  function confirmOn() { return storageGet(CONFIRM_KEY) === "1"; }

  /** Submit the chosen action as the Confirm button would; false if the form is not ready for it. */
  function submitChoice() {
    var form = document.getElementById("act-form");
    var select = document.getElementById("action-select") || document.getElementById("action-value");
    var confirm = document.getElementById("confirm-btn");
    if (!form || !select || !confirm || !sel.choice || confirm.disabled || confirm.textContent === "Submitting…") return false;
    select.value = sel.choice;
    // A click may come right after a live swap, before htmx has taken the new form in: without this the
    // browser would post the form itself.
    if (window.htmx) window.htmx.process(form);
    if (form.requestSubmit) form.requestSubmit(confirm); else confirm.click();
    return true;
  }

  function resetSelection() {
    sel.path = []; sel.choice = null;
    $all("#act-form select.action-part").forEach(function (s) { s.value = ""; });
  }

  // ---- zoom: places to tap of 44 px -------------------------------------------------------------------
  // Every board keeps its places to click at 24 CSS px at least (WCAG 2.2's minimum); where they are smaller
  // than 44 px (its enhanced size: an 11x11 Hex on a phone) on a board that allows it (``data-zoomable``: its
  // frame's lower left corner is free for the button), Zoom draws the board wide enough for 44 px places,
  // scrolling in its frame. The frame keeps its scroll position when a move redraws the board.
  var ZOOM_TARGET = 44;
  var zoom = { least: null, scroll: null };
  function smallestPick() {
    var least = Infinity;
    $all("#board [data-pick]").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) least = Math.min(least, r.width, r.height);
    });
    return least;
  }
  function zoomOn() { return root.dataset.zoom === "1"; }
  function setZoom(on) {
    var board = boardEl(), button = document.getElementById("zoom-toggle");
    if (on && board) {
      var least = zoom.least || smallestPick();
      var width = board.getBoundingClientRect().width * ZOOM_TARGET / least;
      root.style.setProperty("--board-zoom-width", Math.ceil(width + 1) + "px");
      root.dataset.zoom = "1";
    } else {
      delete root.dataset.zoom;
      root.style.removeProperty("--board-zoom-width");
    }
    if (button) button.setAttribute("aria-pressed", zoomOn() ? "true" : "false");
  }
  function applyZoom() {
    var button = document.getElementById("zoom-toggle");
    var wrap = document.getElementById("board-wrap");
    if (!button || !boardEl()) return;
    if (!boardEl().hasAttribute("data-zoomable")) { button.hidden = true; return; }
    if (!zoomOn()) {
      zoom.least = smallestPick();
      button.hidden = !(zoom.least < ZOOM_TARGET);
      if (!button.hidden && storageGet(ZOOM_KEY) === "1") setZoom(true);
    }
    if (wrap && zoom.scroll) { wrap.scrollLeft = zoom.scroll[0]; wrap.scrollTop = zoom.scroll[1]; }
  }
  function keepScroll() {
    var wrap = document.getElementById("board-wrap");
    if (wrap) zoom.scroll = [wrap.scrollLeft, wrap.scrollTop];
  }
  document.addEventListener("click", function (evt) {
    var b = evt.target instanceof Element && evt.target.closest("#zoom-toggle");
    if (!b) return;
    var on = !zoomOn();
    zoom.scroll = null;
    setZoom(on);
    storageSet(ZOOM_KEY, on ? "1" : "0");
    announce(on ? "Zoomed in: the board scrolls in its frame." : "Zoomed out.");
  });
  window.addEventListener("resize", function () { if (!zoomOn()) applyZoom(); });

  // ---- flip, coordinates, sound ---------------------------------------------------------------------
  function applyBoardView() {
    var board = boardEl();
    if (!board) return;
    // The server draws the first seat on top (or turned, for ?flip=1); turn it here when the viewer wants otherwise.
    var turned = flipped !== board.classList.contains("flipped");
    if (!board.hasAttribute("data-turnable")) turned = false; // drawn turned by the server (?flip=1) only
    if (turned && !board.dataset.origins) {
      // Turning the drawing about the board's centre turns each token and label upside down: turn each
      // back about its own centre (the letter's position, the label's anchor).
      $all(".token", board).forEach(function (t) {
        var letter = t.querySelector(".letter");
        if (letter) t.style.transformOrigin = letter.getAttribute("x") + "px " + letter.getAttribute("y") + "px";
      });
      $all(".coord", board).forEach(function (c) {
        c.style.transformOrigin = c.getAttribute("x") + "px " + (parseFloat(c.getAttribute("y")) - 3) + "px";
      });
      board.dataset.origins = "1";
    }
    board.classList.toggle("turned", turned);
    var coords = document.getElementById("coords-toggle");
    board.classList.toggle("show-coords", !!(coords && coords.checked));
    var link = document.getElementById("flip-link");
    if (link) {
      link.setAttribute("aria-pressed", flipped ? "true" : "false");
      link.setAttribute("href", "?flip=" + (flipped ? "0" : "1"));
    }
  }

  function storageGet(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function storageSet(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }

  var audio = null;
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      audio = audio || new Ctx();
      if (audio.state === "suspended") audio.resume();
      var t = audio.currentTime;
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(880, t);
      osc.frequency.exponentialRampToValueAtTime(660, t + 0.18);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.3);
    } catch (e) { /* no sound then */ }
  }
  function soundOn() { return storageGet(SOUND_KEY) === "1"; }

  // ---- turn clock -----------------------------------------------------------------------------------
  function tick() {
    $all("[data-deadline]").forEach(function (el) {
      var deadline = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(deadline)) return;
      var left = Math.max(0, Math.ceil((deadline - (Date.now() + serverOffset)) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      var text = left > 0 ? (m + ":" + (s < 10 ? "0" : "") + s + " left to choose") : "Time is up";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("urgent", left <= 10);
    });
  }

  // ---- after every swap ----------------------------------------------------------------------------
  function onTurnChange(turn, over) {
    if (status.turn === null) { status.turn = turn; status.over = over; return; }
    if (turn === status.turn && over === status.over) return;
    var resolved = turn > status.turn;
    status.turn = turn; status.over = over;
    var err = document.getElementById("game-error");
    if (err && resolved) err.textContent = "";
    var headline = $("#turn-panel .result-headline");
    var what = over ? (headline ? headline.textContent.trim() : "Game over") : "Turn " + turn + " resolved";
    var moves = $all("#turn-panel .last-turn li").map(function (li) { return li.textContent.trim(); }).join(". ");
    announce(what + (moves && resolved ? ". " + moves : ""));
    if (document.hidden) {
      unseen = true;
      document.title = "● " + (over ? "Game over" : "Turn " + turn + " resolved") + " — ropasci";
      if (soundOn()) beep();
    }
  }

  function bind() {
    var turn = boardTurn();
    if (turn !== sel.turn) { resetSelection(); sel.turn = turn; }
    var over = gameStatus() === "finished" || gameStatus() === "aborted";
    onTurnChange(turn, over);
    // The invite link: make it absolute (the live fragment only knows the path).
    var invite = document.getElementById("invite-link");
    if (invite && invite.value.charAt(0) === "/") invite.value = new URL(invite.value, window.location.href).href;
    applyBoardView();
    applyZoom();
    refresh();
    tick();
    keepBest();
  }

  /** A one-player game's best score in this browser (localStorage), shown beside the current one. */
  function keepBest() {
    var el = $(".personal-best");
    if (!el) return;
    var key = "ropasci.best." + el.dataset.bestKey;
    var now = parseFloat(el.dataset.score), stored = parseFloat(storageGet(key));
    var best = isNaN(stored) ? now : Math.max(stored, now);
    if (!isNaN(best) && best !== stored) storageSet(key, String(best));
    var out = el.querySelector(".best-value");
    if (out && !isNaN(best) && out.textContent !== String(best)) out.textContent = String(best);
  }

  // ---- events --------------------------------------------------------------------------------------
  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (!(t instanceof Element)) return;
    var stepBtn = t.closest("[data-step]");
    if (stepBtn) { activate(stepBtn.getAttribute("data-step"), false, parseInt(stepBtn.getAttribute("data-depth"), 10)); return; }
    if (t.closest("#clear-btn")) { resetSelection(); refresh(); return; }
    var copy = t.closest("[data-copy]");
    if (copy) { copyLink(copy); return; }
    if (t.closest("#flip-link")) {
      var b = boardEl();
      if (!b || !b.hasAttribute("data-turnable")) return; // a plain link: the server draws it turned
      evt.preventDefault();
      flipped = !flipped;
      applyBoardView();
      try {
        var url = new URL(window.location.href);
        if (flipped) url.searchParams.set("flip", "1"); else url.searchParams.delete("flip");
        window.history.replaceState(null, "", url.toString());
      } catch (e) { /* old browser: the page just keeps its URL */ }
      return;
    }
    var pick = t.closest("#board [data-pick]");
    if (pick) activate(pick.getAttribute("data-pick"), false);
  });

  document.addEventListener("keydown", function (evt) {
    var t = evt.target;
    if (!(t instanceof Element)) return;
    if (evt.key === "Escape" && (sel.path.length || sel.choice)) { resetSelection(); refresh(); return; }
    if (evt.key === " " && t.id === "flip-link") { evt.preventDefault(); t.click(); return; }
    if ((evt.key === "Enter" || evt.key === " ") && t.closest("#board") && t.hasAttribute("tabindex")) {
      evt.preventDefault();
      var pick = t.closest("[data-pick]");
      if (pick) activate(pick.getAttribute("data-pick"), true);
    }
  });

  // Shortcuts of the game (2048's arrow keys and swipes): a key or swipe that names a one-step action plays
  // it at once, as clicking it and confirming would.
  var shortcuts = {};
  try { shortcuts = JSON.parse((document.getElementById("game-shortcuts") || {}).textContent || "{}"); }
  catch (e) { shortcuts = {}; }
  function playShortcut(name) {
    var key = shortcuts[name];
    if (!key) return false;
    var act = legalActions().complete([key]);
    var form = document.getElementById("act-form");
    var select = document.getElementById("action-select") || document.getElementById("action-value");
    var confirm = document.getElementById("confirm-btn");
    if (!act || !form || !select || !confirm || confirm.textContent === "Submitting…") return false;
    sel.path = [key]; sel.choice = actionValue(act.action);
    refresh();
    if (confirm.disabled) return false;
    select.value = sel.choice;
    // A key may come right after a live swap, before htmx has taken the new form in: without this the
    // browser would post the form itself.
    if (window.htmx) window.htmx.process(form);
    confirm.click();
    return true;
  }
  document.addEventListener("keydown", function (evt) {
    var t = evt.target;
    if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
    if (t instanceof Element && t.closest("input, select, textarea, [contenteditable]")) return;
    if (playShortcut(evt.key)) evt.preventDefault();
  });
  var touch = null;
  document.addEventListener("touchstart", function (evt) {
    var t = evt.target;
    touch = (t instanceof Element && t.closest("#board") && evt.touches.length === 1)
      ? { x: evt.touches[0].clientX, y: evt.touches[0].clientY } : null;
  }, { passive: true });
  document.addEventListener("touchend", function (evt) {
    if (!touch || !evt.changedTouches.length) return;
    var dx = evt.changedTouches[0].clientX - touch.x, dy = evt.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) return;
    playShortcut(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "swipe-right" : "swipe-left")
                                             : (dy > 0 ? "swipe-down" : "swipe-up"));
  });

  document.addEventListener("change", function (evt) {
    var t = evt.target;
    if (t.id === "action-select") {
      var entry = legalActions().find(t.value);
      if (!entry) { resetSelection(); refresh(); return; }
      sel.path = keysOf(entry);
      sel.choice = t.value;
      refresh();
    } else if (t.classList && t.classList.contains("action-part")) {
      choosePartsFromLists();
    } else if (t.id === "sound-toggle") {
      storageSet(SOUND_KEY, t.checked ? "1" : "0");
      if (t.checked) beep(); // a first sound on the click also unlocks audio in the browser
    } else if (t.id === "confirm-toggle") {
      storageSet(CONFIRM_KEY, t.checked ? "1" : "0");
      refresh();
    } else if (t.id === "coords-toggle") {
      storageSet(COORDS_KEY, t.checked ? "1" : "0");
      applyBoardView();
    }
  });

  /** A part picked in its list: the clicks become the parts picked in the lists, from the first, up to the
   * first not picked yet (later ones stay picked in their lists and count once those before them are). */
  function choosePartsFromLists() {
    var acts = legalActions();
    if (!acts.part) return;
    var path = [];
    var lists = $all("#act-form select.action-part");
    for (var i = 0; i < lists.length; i++) {
      var entry = acts.part(i, lists[i].value);
      if (!entry) break;
      path = path.concat(keysOf(entry));
    }
    sel.path = path;
    var done = acts.complete(path);
    sel.choice = done ? actionValue(done.action) : null;
    refresh();
  }

  function copyLink(button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    var statusEl = $("[data-copy-status]");
    function done(ok) {
      if (statusEl) statusEl.textContent = ok ? "Link copied." : "Select the link and copy it.";
      button.textContent = ok ? "Copied!" : "Copy link";
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () {
        input.select(); done(false);
      });
    } else {
      input.select();
      try { done(document.execCommand("copy")); } catch (e) { done(false); }
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && unseen) { unseen = false; document.title = baseTitle; }
  });

  /** How far along the game a live fragment is: [resolved turns, 1 once over, the save's time stamp or null],
   *  or null if it does not say. The stamp (the third part of ``data-version``, "turn:status:stamp") orders the
   *  changes within a turn, such as a seat having chosen. */
  function progress(el) {
    var t = el.getAttribute && el.getAttribute("data-turn");
    if (t === null || t === undefined || t === "") return null;
    var s = el.getAttribute("data-status");
    var stamp = parseFloat((el.getAttribute("data-version") || "").split(":")[2]);
    return [parseInt(t, 10), s === "finished" || s === "aborted" ? 1 : 0, isNaN(stamp) ? null : stamp];
  }
  function older(next, now) {
    for (var i = 0; i < next.length; i++) {
      if (next[i] === null || now[i] === null) return false;  // a fragment without a version: turn and end only
      if (next[i] !== now[i]) return next[i] < now[i];
    }
    return false;
  }
  /** A fragment's HTML without its version: a new version that changes nothing in it is not swapped. */
  function content(el) {
    return el.outerHTML.replace(/ data-version="[^"]*"/, "");
  }

  // Skip out-of-band swaps that would change nothing (e.g. the opponent's submission changes only the
  // turn panel): the viewer's half-made choice and keyboard focus stay where they are. Also skip fragments
  // older than what is shown: the answer to this player's move can arrive after the live push of the
  // reply it led to (a fast bot: the next turn, or its choice within the turn), and must not put the page
  // back.
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var d = evt.detail;
    var incoming = d && d.fragment && d.fragment.firstElementChild;
    var target = d && d.target;
    if (!incoming || !target || !target.id) return;
    var now = progress(target), next = progress(incoming);
    if (now && next && older(next, now)) {
      d.shouldSwap = false;
      return;
    }
    var html = content(incoming);
    if (lastFragments[target.id] === html && document.body.contains(target)) {
      d.shouldSwap = false;  // the page is now of that version all the same
      var version = incoming.getAttribute("data-version");
      if (version) target.setAttribute("data-version", version);
    }
    lastFragments[target.id] = html;
  });

  var focusBefore = null;
  function rememberFocus() {
    keepScroll();
    var a = document.activeElement;
    if (!a || a === document.body) { focusBefore = null; return; }
    var pick = a.closest && a.closest("#board [data-pick]");
    focusBefore = { id: a.id, pick: pick ? pick.getAttribute("data-pick") : null,
                    step: a.getAttribute && a.getAttribute("data-step") };
  }
  function restoreFocus() {
    var f = focusBefore;
    focusBefore = null;
    if (!f || (document.activeElement && document.activeElement !== document.body)) return;
    var el = null;
    if (f.id) el = document.getElementById(f.id);
    else if (f.pick) el = onBoard(f.pick).filter(function (n) { return n.hasAttribute("tabindex"); })[0];
    else if (f.step) el = $('#pick-steps [data-step="' + cssEscape(f.step) + '"]');
    if (el && el.hasAttribute("tabindex") || (el && /^(BUTTON|SELECT|INPUT|A)$/.test(el.tagName))) el.focus({ preventScroll: true });
  }

  document.body.addEventListener("htmx:wsBeforeMessage", rememberFocus);
  document.body.addEventListener("htmx:beforeSwap", rememberFocus);
  // data-synced: the socket's first view has arrived (it may replace the controls once, e.g. a hint shown
  // before it); scripts and tests wait for it before they act on the page.
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    root.dataset.synced = "1";
    bind(); restoreFocus();
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    bind(); restoreFocus();
    // A hint (one-player games) is chosen in the list, as if picked there: the player confirms it.
    var hint = evt.detail && evt.detail.elt && evt.detail.elt.id === "hint" ? evt.detail.elt : null;
    var entry = hint && hint.dataset.action ? legalActions().find(hint.dataset.action) : null;
    if (entry) {
      sel.path = keysOf(entry);
      sel.choice = actionValue(entry.action);
      refresh();
    }
  });
  document.body.addEventListener("htmx:oobAfterSwap", function () { bind(); });

  // A click on a form's button can land right after a live swap put the form in, before htmx has taken it
  // over (seen under load): the browser would post it itself, and Resign would open its no-JavaScript page
  // instead of the dialog. Every such form is taken over first (capture phase: before the click submits it).
  document.addEventListener("click", function (evt) {
    var button = evt.target instanceof Element ? evt.target.closest("button, input[type=submit]") : null;
    var form = button && button.form;
    if (form && window.htmx && form.matches("[hx-post], [hx-get]")) window.htmx.process(form);
  }, true);
  // Live fragments come without CSRF inputs (one rendering for every viewer; htmx sends the page's token as a
  // header). Should such a form still post itself, it takes the page's token along, or Django would refuse it.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!(form instanceof HTMLFormElement) || form.method !== "post" || form.elements.csrfmiddlewaretoken) return;
    var token;
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"]; } catch (e) { return; }
    if (!token) return;
    var input = document.createElement("input");
    input.type = "hidden"; input.name = "csrfmiddlewaretoken"; input.value = token;
    form.appendChild(input);
  }, true);

  // A submitted form is done with the current choice.
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (elt && elt.id === "act-form") {
      var c = document.getElementById("confirm-btn");
      if (c) { c.disabled = true; c.textContent = "Submitting…"; }
    }
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    var c = document.getElementById("confirm-btn");
    if (elt && elt.id === "act-form" && c && c.textContent === "Submitting…") {
      c.textContent = "Confirm move"; // refused: the controls stayed; let the player try again
      refresh();
    }
  });
  document.body.addEventListener("htmx:responseError", function (evt) {
    var err = document.getElementById("game-error");
    var xhr = evt.detail.xhr;
    if (err && xhr.status === 429) {
      err.textContent = "Too many requests: try again in " + (xhr.getResponseHeader("Retry-After") || "a few") + " s.";
    } else if (err) err.textContent = "The server refused the request (" + xhr.status + "). Reload the page.";
  });
  document.body.addEventListener("htmx:sendError", function () {
    var err = document.getElementById("game-error");
    if (err) err.textContent = "Could not reach the server. Check your connection and try again.";
    refresh();
  });

  // ---- a game of bots, watched: its moves shown at a pace people can follow ----------------------------
  // Bots may play several moves a second: the live pushes are queued and a push that moves the board on is
  // shown no sooner than 1/speed s after the last one (paused: not at all); the others (e.g. a seat having
  // chosen) at once. Each push holds the whole live page of its version, so none is skipped.
  var pace = { on: !(root.dataset.people || "").trim(), queue: [], paused: false, speed: 1, last: 0, timer: null };
  function pushTurn(html) {
    var m = /id="board-wrap"[^>]*data-turn="(\d+)"/.exec(html);
    return m ? parseInt(m[1], 10) : null;
  }
  function showPush(html) {
    rememberFocus();
    window.htmx.swap(root, html, { swapStyle: "none" });
    bind(); restoreFocus();
  }
  function pump() {
    while (pace.queue.length && !pace.timer) {
      var turn = pushTurn(pace.queue[0]), shown = boardTurn();
      if (turn !== null && shown !== null && turn > shown) {
        if (pace.paused) break;
        var wait = pace.last + 1000 / pace.speed - Date.now();
        if (wait > 0) { pace.timer = window.setTimeout(function () { pace.timer = null; pump(); }, wait); break; }
        pace.last = Date.now();
      }
      var html = pace.queue.shift();
      // A push that fails to show must not stop the ones after it (no further push may come to restart them).
      try { showPush(html); } catch (e) { window.setTimeout(function () { throw e; }, 0); }
    }
    var behind = document.getElementById("pace-behind");
    var moves = pace.queue.filter(function (h) { return pushTurn(h) !== null; }).length;
    var text = moves ? moves + " move" + (moves === 1 ? "" : "s") + " to show" : "";
    if (behind && behind.textContent !== text) behind.textContent = text;
  }
  if (pace.on && window.htmx) {
    document.body.addEventListener("htmx:wsBeforeMessage", function (evt) {
      evt.preventDefault();
      pace.queue.push(evt.detail.message);
      pump();
    });
    var paceBox = $(".pace-tools");
    if (paceBox) paceBox.hidden = false;
    document.addEventListener("click", function (evt) {
      var b = evt.target instanceof Element && evt.target.closest("#pace-pause");
      if (!b) return;
      pace.paused = !pace.paused;
      b.setAttribute("aria-pressed", pace.paused ? "true" : "false");
      b.textContent = pace.paused ? "▶ Play" : "⏸ Pause";
      pump();
    });
    document.addEventListener("change", function (evt) {
      if (evt.target.id !== "pace-speed") return;
      pace.speed = parseFloat(evt.target.value) || 1;
      if (pace.timer) { window.clearTimeout(pace.timer); pace.timer = null; }
      pump();
    });
  }

  // ---- the WebSocket: status and reconnecting ---------------------------------------------------------
  // The ws extension retries by itself after abnormal closes (1006, 1011-1013). Here: also after a close
  // the server or a proxy made on purpose, at once when the browser comes back online, and when the tab is
  // shown again. A close code 1005 is the extension discarding an old socket: nothing to do then.
  var conn = document.getElementById("conn-status");
  var unloading = false;
  var socket = null;   // the open WebSocket, if any
  var wrapper = null;  // the extension's socket wrapper (has reconnect())
  var refusals = 0;    // closes in a row that asked the page to come back later
  window.addEventListener("pagehide", function () { unloading = true; });
  function setConn(text, cls) {
    if (!conn) return;
    conn.hidden = false;
    conn.textContent = text;
    conn.className = "conn-status " + cls;
  }
  function reconnectNow() {
    if (!socket && wrapper && !unloading) wrapper.reconnect();
  }
  document.body.addEventListener("htmx:wsConnecting", function () { if (!socket) setConn("connecting…", "connecting"); });
  document.body.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.event.target;
    wrapper = evt.detail.socketWrapper || wrapper;
    setConn("live", "live");
  });
  document.body.addEventListener("htmx:wsClose", function (evt) {
    var closed = evt.detail && evt.detail.event;
    wrapper = (evt.detail && evt.detail.socketWrapper) || wrapper;
    if (closed && closed.target !== socket && socket) return; // an old socket, already replaced
    socket = null;
    if (unloading) return;
    var code = closed ? closed.code : 0;
    if (code === 4404) { setConn("game not found", "offline"); return; }
    if (code === 4403) { setConn("not allowed: reload the page", "offline"); return; }
    setConn("reconnecting…", "offline");
    // Too many sockets (4429) or the server's channel layer down (4503): wait longer each time, up to 30 s.
    refusals = (code === 4429 || code === 4503) ? refusals + 1 : 0;
    if ([1005, 1006, 1011, 1012, 1013].indexOf(code) < 0) {
      var wait = refusals ? Math.min(30000, 1000 * Math.pow(2, refusals)) : 1000;
      window.setTimeout(reconnectNow, wait * (0.5 + Math.random()));
    }
  });
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) reconnectNow(); });

  // ---- start ----------------------------------------------------------------------------------------
  $all(".board-tools [hidden]").forEach(function (el) { if (el.id !== "conn-status") el.hidden = false; });
  var soundBox = document.getElementById("sound-toggle");
  if (soundBox) soundBox.checked = soundOn();
  var coordsBox = document.getElementById("coords-toggle");
  if (coordsBox) coordsBox.checked = storageGet(COORDS_KEY) === "1";
  var confirmBox = document.getElementById("confirm-toggle");
  if (confirmBox) confirmBox.checked = confirmOn();
  bind();
  window.setInterval(tick, 500);

  // For people's scripts and tests: the current selection, read-only.
  window.ropasci = { selection: function () { return JSON.parse(JSON.stringify(sel)); },
                     queued: function () { return pace.queue.length; } };
})();
