"""The replay's analysis: for a position of a finished game, the strong bot's equilibrium (each side's mixed
strategy over its candidate actions), the value of the position and what each side's actual choice gave
away; and the value over the whole game as a chart. Computed on demand in the bot workers
(:func:`games.bots.analysis.analyse_positions`), cached per position in Django's cache.

The pages and their routes are ``games/web/analysis.py``; this module submits the work, caches the
answers and turns them into the templates' contexts.

Game-agnostic: a game offers analysis when it has perfect information and its ``bots`` module defines
``analyse`` (see ``docs/bots.md``). Only for games that are over: the analysis of a game in play would
advise its players. Position N's analysis uses the resolved turns 1..N (public) and, where the log has it,
turn N + 1 as the choices actually made there; pending actions never reach it.

The cache key is the game kind, its parameters, the turn records 1..N+1 and the budget, so the same
position after the same history is analysed once, whatever game it occurs in.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
from concurrent.futures import Future

from django.core.cache import cache

from games.bots import pool
from games.bots.analysis import analyse_positions, analyser
from games.engine.ui import ui_for
from games.models import Game
from games.play import services, turnlog
from games.read import replay

log = logging.getLogger(__name__)

VERSION = 1  # of the cached answers' form
POSITION_SECONDS = 0.5  # budget of one position's analysis (sets the width: games.bots.strong.width_for)
GAME_SECONDS = 0.05  # per position when the whole game is analysed
WAIT_SECONDS = 30.0  # the longest a request waits for one position (a busy pool queues it)
GAME_WAIT_SECONDS = 120.0  # ... for the whole game; what finished by then is kept for the next request
CHUNK = 20  # positions per worker call for the whole game (one fold of the log each)
CACHE_SECONDS = 30 * 24 * 3600
SHOWN = 8  # actions listed per side (the rest summed up)
SLIP = 0.02  # a choice that gave away more than this counts as a slip in the whole-game summary
MAX_INFLIGHT = 2  # analysis calls queued or running per bot worker, at most (more: 503, ask again)

_inflight: dict[str, Future] = {}
_lock = threading.Lock()


class Refused(Exception):
    """Why an analysis is not given, with the HTTP status the pages answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# --- what is offered ------------------------------------------------------------------------------------

def offered(engine) -> bool:
    """Whether a game offers analysis at all: perfect information and an ``analyse`` in its bots module."""
    return bool(engine.info.perfect_information) and analyser(engine.info.name) is not None


def page_context(game: Game) -> dict:
    """For the replay page: whether to show the analysis panel, and whether it is open yet."""
    engine = services.engine_for(game)
    return {"offered": offered(engine), "open": game.is_over,
            "note": "" if game.is_over else "Analysis opens when the game is over: it would advise its players."}


def finished_game(game_id: str) -> Game:
    """The game to analyse; Refused if there is none, its game offers no analysis, or it is not over."""
    try:
        game = services.get_game(game_id)
    except services.NotFound:
        raise Refused(404, f"there is no game {game_id[:40]!r}") from None
    engine = services.engine_for(game)
    if not offered(engine):
        raise Refused(404, f"{engine.info.title} has no analysis")
    if not game.is_over:
        raise Refused(409, "analysis opens when the game is over (it would advise its players)")
    return game


def cache_keys(game: Game, records: list[dict], positions, seconds: float) -> dict[int, str]:
    """Cache key of each position: the kind, parameters, turn records 1..n+1 (the history and the choices
    made there) and the budget, hashed incrementally."""
    wanted = set(positions)
    digest = hashlib.sha256(json.dumps([game.kind, game.params], sort_keys=True).encode())
    keys = {}
    for n in range(max(wanted, default=-1) + 1):
        digest.update(json.dumps(records[n], sort_keys=True).encode() if n < len(records) else b"end")
        digest.update(b"\n")
        if n in wanted:
            keys[n] = f"analysis:v{VERSION}:{game.kind}:{seconds:g}:{digest.copy().hexdigest()}"
    return keys


# --- computing ------------------------------------------------------------------------------------------

def submit(kind: str, params: dict, records: list[dict], positions: list[int], seconds: float,
           keys: dict[int, str]) -> Future:
    """The analyses of ``positions`` in a worker; each is cached as it arrives. A request for the same
    positions while one is under way shares it; with too many under way, Refused (503)."""
    token = "|".join(keys[n] for n in positions)
    with _lock:
        future = _inflight.get(token)
        if future is not None and not future.cancelled():
            return future
        if len(_inflight) >= MAX_INFLIGHT * pool.workers():
            raise Refused(503, "the bots are busy: ask again in a moment")
        future = pool.submit_call(analyse_positions, kind, params, records[:max(positions) + 1], positions,
                                  seconds)
        _inflight[token] = future

    def done(f: Future):
        with _lock:
            if _inflight.get(token) is f:
                del _inflight[token]
        if f.cancelled() or f.exception() is not None:
            if not f.cancelled():
                log.warning("analysis of %s positions %s failed: %r", kind, positions[:3], f.exception())
            return
        cache.set_many({keys[n]: result for n, result in zip(positions, f.result())}, CACHE_SECONDS)

    future.add_done_callback(done)
    return future


def plan(game: Game, n: int, whole: bool) -> tuple[list[dict], dict[int, str], float]:
    """What to analyse: the turn records, the cache key of each position wanted (``n``, or every one for
    the whole game) and the budget per position."""
    records = turnlog.records(game)
    positions = list(range(game.turn + 1)) if whole else [n]
    seconds = GAME_SECONDS if whole else POSITION_SECONDS
    return records, cache_keys(game, records, positions, seconds), seconds


async def position(game: Game, n: int, records, keys, seconds) -> tuple[dict, bool]:
    """The analysis of the position after turn ``n`` and whether it came from the cache; Refused (503)
    when the bots are busy or it fails."""
    result = await cache.aget(keys[n])
    if result is not None:
        return result, True
    future = submit(game.kind, game.params, records, [n], seconds, keys)
    try:
        results = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), WAIT_SECONDS)
    except asyncio.TimeoutError:
        raise Refused(503, "the bots are busy: ask again in a moment") from None
    except Exception as exc:
        log.exception("analysis of game %s after turn %s failed", game.id, n)
        raise Refused(503, f"the analysis failed ({exc.__class__.__name__}); try again later") from None
    return results[0], False


async def whole_game(game: Game, records, keys, seconds) -> tuple[dict[int, dict], int]:
    """Every position's (quick) analysis; those still missing when the wait ends are left out."""
    found = await cache.aget_many(list(keys.values()))
    results = {n: found[k] for n, k in keys.items() if k in found}
    missing = [n for n in keys if n not in results]
    chunks = [missing[i:i + CHUNK] for i in range(0, len(missing), CHUNK)]
    limit = max(1, pool.workers() - 1)  # leave a worker for the live games' bots
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_WAIT_SECONDS
    running: dict[asyncio.Future, list[int]] = {}
    while chunks or running:
        while chunks and len(running) < limit:
            try:
                future = submit(game.kind, game.params, records, chunks[0], seconds, keys)
            except Refused:
                if not (running or results):
                    raise
                chunks = []  # the pool is full: show what there is
                break
            running[asyncio.wrap_future(future)] = chunks.pop(0)
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        done, _ = await asyncio.wait(list(running), timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        if not done:
            break
        for fut in done:
            chunk = running.pop(fut)
            try:
                results.update(zip(chunk, fut.result()))
            except Exception as exc:
                log.exception("analysis of game %s failed", game.id)
                raise Refused(503, f"the analysis failed ({exc.__class__.__name__}); try again later") from None
    return results, len(keys) - len(results)


# --- presenting -----------------------------------------------------------------------------------------

def signed(v: float) -> str:
    return f"{v:+.2f}".replace("+0.00", "0.00").replace("-0.00", "0.00")


def verdict(ui, first: str, second: str, v: float) -> str:
    """The value in words, for the first seat's value ``v`` (-1 lost .. 1 won)."""
    lead, by = (first, v) if v >= 0 else (second, -v)
    if by < 0.05:
        return "About even"
    word = "slightly better" if by < 0.25 else "better" if by < 0.6 else "winning" if by < 0.999 else "won"
    return f"{ui.seat_name(lead)} is {word}"


def position_context(game: Game, n: int, result: dict) -> dict:
    engine = services.engine_for(game)
    ui = ui_for(engine)
    players = list(engine.info.players)
    observation = services.state_at(game, n).observation(None)
    names = replay.seat_names(game)
    value = float(result["value"])
    sides = []
    for seat in players:
        sign = 1.0 if seat == players[0] else -1.0
        strategy = result["strategies"].get(seat, [])
        actual = (result.get("actual") or {}).get(seat)
        rows = [{"words": ui.action_words(seat, a, observation), "p": p, "pct": f"{100 * p:.1f}",
                 "bar": f"{max(1.0, 100 * p):.1f}", "played": actual is not None and a == actual["action"]}
                for a, p in strategy]
        rest = rows[SHOWN:]
        side = {"side": seat, "label": ui.seat_name(seat), "name": names.get(seat, seat),
                "value": signed(sign * value), "rows": rows[:SHOWN], "more": len(rest),
                "more_pct": f"{100 * sum(r['p'] for r in rest):.1f}",
                "candidates": result.get("candidates", {}).get(seat), "legal": result.get("legal", {}).get(seat),
                "pure": len(rows) == 1}
        if actual is not None:
            gave = float(actual["gave_away"])
            side["actual"] = {"words": ui.action_words(seat, actual["action"], observation),
                              "pct": f"{100 * float(actual['probability']):.1f}",
                              "in_support": float(actual["probability"]) >= 1e-4,
                              "candidate": actual.get("candidate", True),
                              "gave": f"{abs(gave):.3f}", "gave_kind": "none" if abs(gave) < 5e-4 else
                              ("loss" if gave > 0 else "gain"),
                              "value": signed(float(actual["value"]))}
        sides.append(side)
    mark = 100 + 100 * max(-1.0, min(1.0, value))  # on a 0..200 scale, 100 even
    balance = {"fill_x": f"{min(100, mark):.1f}", "fill_w": f"{abs(mark - 100):.1f}",
               "mark_x": f"{min(196.0, max(0.0, mark - 2)):.1f}"}
    return {"n": n, "total": game.turn, "value": signed(value), "balance": balance,
            "verdict": verdict(ui, players[0], players[-1], value) if len(players) == 2 else "",
            "first": ui.seat_name(players[0]), "sides": sides, "terminal": not result["strategies"],
            "width": result.get("width"), "next_turn": n + 1 if n < game.turn else None}


def chart_context(game: Game, results: dict[int, dict], missing: int, current: int) -> dict:
    """Geometry of the value chart (the first seat's value, -1..1, after every analysed turn) and the
    biggest slips of each side."""
    engine = services.engine_for(game)
    ui = ui_for(engine)
    players = list(engine.info.players)
    width, height = 360, 150
    left, right, top, bottom = 28, 10, 10, 22
    last = max(game.turn, 1)
    dx = (width - left - right) / last

    def x(n):
        return left + n * dx

    def y(v):
        return top + (1 - v) * (height - top - bottom) / 2

    points = [(n, float(results[n]["value"])) for n in sorted(results)]
    line = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in points)
    if len(points) == 1:
        n, v = points[0]
        line = f"{x(n):.1f},{y(v):.1f} {x(n) + 6:.1f},{y(v):.1f}"
    hits = []
    for n, v in points:
        x1, x2 = max(left, x(n) - dx / 2), min(width - right, x(n) + dx / 2)
        hits.append({"n": n, "x": f"{x1:.1f}", "w": f"{max(x2 - x1, 0.5):.1f}",
                     "title": f"after turn {n}: {signed(v)} for {ui.seat_name(players[0])}"})
    step = next(k for k in (1, 2, 5, 10, 20, 25, 50, 100, 1000, 10000) if last / k <= 6)
    slips = {seat: [] for seat in players}
    for n, result in results.items():
        for seat, actual in (result.get("actual") or {}).items():
            if seat in slips and float(actual["gave_away"]) > SLIP:
                slips[seat].append((float(actual["gave_away"]), n, actual["action"]))
    sides = []
    for seat in players:
        worst = sorted(slips[seat], key=lambda t: (-t[0], t[1]))
        before = {n: services.state_at(game, n).observation(None) for _, n, _ in worst[:3]}
        sides.append({"side": seat, "label": ui.seat_name(seat), "count": len(worst),
                      "total": f"{sum(g for g, _, _ in worst):.2f}",
                      "worst": [{"n": n, "turn": n + 1, "gave": f"{g:.2f}",
                                 "words": ui.action_words(seat, a, before[n])} for g, n, a in worst[:3]]})
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "base": height - bottom, "plot_h": height - bottom - top, "x0": left, "dx": f"{dx:.4f}",
            "zero_y": f"{y(0):.1f}", "line": line, "hits": hits, "cursor_x": f"{x(current):.1f}",
            "grid": [{"v": label, "y": f"{y(v):.1f}"} for v, label in ((1, "+1"), (0.5, ""), (0, "0"),
                                                                         (-0.5, ""), (-1, "−1"))],
            "ticks": [{"n": n, "x": f"{x(n):.1f}"} for n in range(0, game.turn + 1, step)],
            "label_y": height - 6, "first": ui.seat_name(players[0]), "second": ui.seat_name(players[-1]),
            "turns": game.turn, "missing": missing, "analysed": len(points), "sides": sides,
            "slip": SLIP, "seconds": GAME_SECONDS,
            "final": signed(points[-1][1]) if points else ""}
