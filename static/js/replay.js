/* The replay viewer (templates/games/replay.html and embed.html).
 *
 * The server renders every position: moving to turn N fetches /games/<id>/replay/board?turn=N (the shared
 * board SVG and its caption) and swaps #position, so there is one SVG renderer. Fragments are kept in
 * memory (and the browser's HTTP cache) once their turn can no longer change. The address bar follows the
 * viewer (?turn=N) so that copying it shares the exact position. A live game's replay long-polls the API
 * (/api/games/<id>?wait_turn=N) and refreshes the move list, chart and status when turns arrive.
 */
(function () {
  "use strict";

  const root = document.getElementById("replay");
  if (!root) return;

  const cfg = root.dataset;
  const embed = cfg.embed === "1";
  const BASE_DELAY = 1000; // ms per turn at 1x

  let total = parseInt(cfg.total, 10) || 0;
  let current = parseInt(cfg.turn, 10) || 0;
  let flipped = cfg.flipped === "1";
  let live = cfg.live === "1";
  let playing = false;
  let timer = null;
  let seq = 0; // the latest navigation; older fetches that land late are dropped
  const fragments = new Map();

  const byId = (id) => document.getElementById(id);
  const scrubber = byId("scrubber");
  const counter = byId("turn-counter");
  const playButton = byId("ctl-play");
  const speed = byId("ctl-speed");
  const copyStatus = byId("copy-status");

  function clamp(n) {
    return Math.max(0, Math.min(total, n));
  }

  function fragmentUrl(n) {
    const url = new URL(cfg.boardUrl, location.href);
    url.searchParams.set("turn", String(n));
    if (flipped) url.searchParams.set("flip", "1");
    return url.toString();
  }

  function load(n) {
    const url = fragmentUrl(n);
    if (fragments.has(url)) return fragments.get(url);
    const promise = fetch(url, { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    });
    if (!live || n < total) {
      fragments.set(url, promise); // a resolved turn never changes
      promise.catch(() => fragments.delete(url));
    }
    return promise;
  }

  function pageUrl(n) {
    const url = new URL(location.href);
    url.searchParams.set("turn", String(n));
    if (flipped) url.searchParams.set("flip", "1");
    else url.searchParams.delete("flip");
    return url;
  }

  function shareUrl() {
    if (!embed) return location.href;
    const url = new URL(cfg.replayUrl, location.href);
    url.searchParams.set("turn", String(current));
    if (flipped) url.searchParams.set("flip", "1");
    return url.toString();
  }

  /* Everything but the board follows at once, so that quick key presses add up. */
  function updateChrome(n) {
    root.dataset.turn = String(n);
    if (scrubber) {
      scrubber.max = String(total);
      scrubber.value = String(n);
      scrubber.disabled = total === 0;
    }
    if (counter && n === 0) setCounter("Start");
    const atStart = n === 0;
    const atEnd = n >= total;
    for (const [id, off] of [["ctl-first", atStart], ["ctl-prev", atStart], ["ctl-next", atEnd], ["ctl-last", atEnd]]) {
      const button = byId(id);
      if (button) button.disabled = off;
    }
    markMove(n);
    const cursor = byId("chart-cursor");
    const chart = byId("chart");
    if (cursor && chart) {
      const x = parseFloat(chart.dataset.x0) + n * parseFloat(chart.dataset.dx);
      cursor.setAttribute("x1", x.toFixed(1));
      cursor.setAttribute("x2", x.toFixed(1));
    }
    const url = pageUrl(n);
    history.replaceState(history.state, "", url);
    const png = byId("png-link");
    if (png) png.href = cfg.pngUrl + "?turn=" + n + (flipped ? "&flip=1" : "");
    const snippet = byId("embed-snippet");
    if (snippet && cfg.embedUrl) {
      snippet.value = snippet.value.replace(/src="[^"]*"/, 'src="' + cfg.embedUrl + "?turn=" + n + '"');
    }
    const open = byId("embed-open");
    if (open) open.href = shareUrl();
    syncAnalysis(n);
  }

  /* The counter counts moves as people do (a deal, a new tile or a scramble is no move): the position says
   * how many were made up to it, the status line how many in all. */
  function moveText(position) {
    const moves = parseInt(position.dataset.move, 10) || 0;
    return moves ? "Move " + moves : "Start";
  }

  function setCounter(text) {
    const status = byId("replay-status");
    if (counter) counter.textContent = text + " / " + (status ? status.dataset.moves : total);
  }

  function markMove(n) {
    const list = byId("move-list");
    if (!list) return;
    for (const old of list.querySelectorAll(".rp-move-item.current")) {
      old.classList.remove("current");
      const link = old.querySelector("a");
      if (link) link.removeAttribute("aria-current");
    }
    const item = list.querySelector('.rp-move-item[data-turn="' + n + '"]');
    if (!item) {  // on another page of the move list: load that page, then mark
      loadMoves(n);
      return;
    }
    item.classList.add("current");
    const link = item.querySelector("a");
    if (link) link.setAttribute("aria-current", "step");
    const box = byId("moves-scroll");
    if (box && box.scrollHeight > box.clientHeight) {
      const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      const bottom = top + item.offsetHeight;
      if (top < box.scrollTop) box.scrollTop = Math.max(0, top - 8);
      else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight + 8;
    }
  }

  async function show(n) {
    n = clamp(n);
    const mine = ++seq;
    current = n;
    updateChrome(n);
    let html;
    try {
      html = await load(n);
    } catch (error) {
      if (mine === seq && copyStatus) copyStatus.textContent = "Could not load turn " + n + "; try again.";
      return false;
    }
    if (mine !== seq) return false;
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.querySelector("#position");
    const old = byId("position");
    if (fresh && old) old.replaceWith(fresh);
    if (fresh) setCounter(moveText(fresh));
    if (playing && n < total) load(n + 1).catch(() => {}); // have the next one ready
    return true;
  }

  function step(delta) {
    return show(current + delta);
  }

  /* --- autoplay ------------------------------------------------------------------------------ */

  function delay() {
    const factor = parseFloat(speed && speed.value) || 1;
    return BASE_DELAY / factor;
  }

  function setPlaying(on) {
    playing = on;
    root.classList.toggle("rp-is-playing", on);
    if (playButton) {
      playButton.setAttribute("aria-pressed", on ? "true" : "false");
      const label = playButton.querySelector(".rp-play-label");
      if (label) label.textContent = on ? "Pause" : "Play";
    }
    clearTimeout(timer);
    timer = null;
    if (!on) syncAnalysis(current);
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(tick, delay());
  }

  async function tick() {
    if (!playing) return;
    if (current < total) {
      await show(current + 1);
    } else if (!live) {
      setPlaying(false);
      return;
    }
    if (playing) {
      if (current >= total && !live) setPlaying(false);
      else schedule();
    }
  }

  function play() {
    setPlaying(true);
    if (current >= total && !live) {
      show(0).then(() => playing && schedule());
      return;
    }
    load(Math.min(current + 1, total)).catch(() => {});
    schedule();
  }

  function togglePlay() {
    if (playing) setPlaying(false);
    else play();
  }

  /* --- copy link ----------------------------------------------------------------------------- */

  async function copyLink() {
    const url = shareUrl();
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch (error) {
      const area = document.createElement("textarea");
      area.value = url;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      try {
        ok = document.execCommand("copy");
      } catch (ignored) {
        ok = false;
      }
      area.remove();
    }
    root.dataset.copied = url;
    if (copyStatus) copyStatus.textContent = ok ? "Link copied" : "Copy this link: " + url;
  }

  /* --- input --------------------------------------------------------------------------------- */

  const actions = {
    first: () => show(0),
    prev: () => step(-1),
    next: () => step(1),
    last: () => show(total),
    play: togglePlay,
    flip: () => {
      flipped = !flipped;
      root.dataset.flipped = flipped ? "1" : "0";
      const button = byId("ctl-flip");
      if (button) button.setAttribute("aria-pressed", flipped ? "true" : "false");
      show(current);
    },
    copy: copyLink,
  };

  root.addEventListener("click", (event) => {
    const control = event.target.closest("[data-action]");
    if (control && root.contains(control) && actions[control.dataset.action]) {
      actions[control.dataset.action]();
      return;
    }
    const jump = event.target.closest("a[data-turn]");
    if (jump && root.contains(jump) && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      show(parseInt(jump.dataset.turn, 10));
    }
  });

  // A mouse click on a control should not keep the focus there, so that Space goes on meaning play/pause.
  root.addEventListener("mousedown", (event) => {
    if (event.target.closest("button[data-action]")) event.preventDefault();
  });

  if (scrubber) {
    scrubber.addEventListener("input", () => show(parseInt(scrubber.value, 10)));
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const tag = target && target.tagName;
    const typing = target && (target.isContentEditable || tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && target.type !== "range"));
    if (typing) return;
    const onRange = tag === "INPUT"; // the scrubber moves itself with arrows, Home and End
    switch (event.key) {
      case "ArrowLeft":
        if (onRange) return;
        step(-1);
        break;
      case "ArrowRight":
        if (onRange) return;
        step(1);
        break;
      case "Home":
        if (onRange) return;
        show(0);
        break;
      case "End":
        if (onRange) return;
        show(total);
        break;
      case " ":
      case "Spacebar":
        if (tag === "BUTTON" || tag === "SUMMARY") return; // Space presses the focused control
        togglePlay();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  /* --- analysis (games/read/analysis.py) -------------------------------------------------------------
   * The forms' turn follows the viewer; once "Analyse this position" was asked, the analysis follows it
   * too (a moment after the viewer stops, never during autoplay). Errors (busy, 4xx) are swapped in too. */

  const analysisForm = byId("analysis-form");
  let following = false;
  let analysisTimer = null;

  function syncAnalysis(n) {
    for (const id of ["analysis-turn", "analysis-game-turn"]) {
      const field = byId(id);
      if (field) field.value = String(n);
    }
    const cursor = byId("value-cursor");
    const chart = byId("value-chart");
    if (cursor && chart) {
      const x = parseFloat(chart.dataset.x0) + n * parseFloat(chart.dataset.dx);
      cursor.setAttribute("x1", x.toFixed(1));
      cursor.setAttribute("x2", x.toFixed(1));
    }
    const slips = byId("analysis-chart");
    if (slips && slips.dataset.slips !== undefined) {
      // "turn:seat" of every slip: that seat's move of that turn is marked in the move list
      const marked = new Set(slips.dataset.slips.split(" "));
      document.querySelectorAll("#move-list li[data-turn] .rp-mv").forEach((mv) => {
        const side = [...mv.classList].find((c) => c !== "rp-mv" && c !== "an-slip");
        mv.classList.toggle("an-slip", marked.has(mv.closest("li").dataset.turn + ":" + side));
      });
    }
    const shown = byId("analysis");
    const stale = !!(shown && shown.dataset.turn !== undefined && shown.dataset.turn !== String(n));
    if (shown) shown.classList.toggle("an-stale", stale);
    clearTimeout(analysisTimer);
    if (following && stale && !playing && analysisForm) {
      analysisTimer = setTimeout(() => {
        if (!playing) analysisForm.requestSubmit();
      }, 400);
    }
  }

  if (analysisForm) {
    analysisForm.addEventListener("submit", () => {
      following = true;
    });
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (target && (target.id === "analysis" || target.id === "analysis-chart") && event.detail.xhr.status >= 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterSettle", () => syncAnalysis(current));

  /* --- a live game ---------------------------------------------------------------------------- */

  function swapById(container, id) {
    const fresh = container.querySelector("#" + id);
    const old = byId(id);
    if (fresh && old) old.replaceWith(fresh);
  }

  let movesLoading = null;
  /** The move list's page holding turn ``n`` (the panel fragment at that turn), swapped in. */
  async function loadMoves(n) {
    if (movesLoading === n) return;
    movesLoading = n;
    try {
      const url = new URL(cfg.panelUrl, location.href);
      url.searchParams.set("turn", String(n));
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) return;
      const template = document.createElement("template");
      template.innerHTML = (await response.text()).trim();
      swapById(template.content, "move-list");
      if (n === current) markMove(n);
    } catch (e) {
      /* offline: the list stays on its page; the board still moves */
    } finally {
      movesLoading = null;
    }
  }

  async function refresh(turns, status) {
    const url = new URL(cfg.panelUrl, location.href);
    url.searchParams.set("turn", String(current));
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const template = document.createElement("template");
    template.innerHTML = (await response.text()).trim();
    const following = current >= total;
    const before = total;
    swapById(template.content, "replay-status");
    swapById(template.content, "move-list");
    swapById(template.content, "chart");
    total = turns;
    root.dataset.total = String(total);
    root.dataset.status = status;
    if (status === "finished" || status === "aborted") {
      live = false;
      root.dataset.live = "0";
    }
    // The old last position may have gained an outcome line; never reuse it.
    fragments.delete(fragmentUrl(before));
    if (following) await show(total);
    else {
      updateChrome(current);
      const position = byId("position");
      if (position) setCounter(moveText(position));
    }
  }

  function wait(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function follow() {
    let failures = 0;
    while (live) {
      try {
        const url = new URL(cfg.apiUrl, location.href);
        url.searchParams.set("wait_turn", String(total + 1));
        const response = await fetch(url, { credentials: "same-origin", cache: "no-store",
          headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error("HTTP " + response.status);
        const game = await response.json();
        if (game.turn !== total || game.status !== root.dataset.status) await refresh(game.turn, game.status);
        failures = 0;
      } catch (error) {
        failures += 1;
        await wait(Math.min(30000, 1000 * 2 ** Math.min(failures, 5)));
      }
    }
  }

  updateChrome(current);
  if (live) follow();
})();
