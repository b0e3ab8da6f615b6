"""The replay's analysis: for a position of a finished game, the strong bot's view (RoPaSci 360: each side's
equilibrium strategy; the games that take turns: the best move), the value of the position for each seat
and what each actual choice gave away; and the values over the whole game. Computed on demand in the bot
workers (:func:`games.bots.analysis.analyse_positions`), cached per position in Django's cache.

The pages and their routes are ``games/web/analysis.py``; this module submits the work and caches the
answers; ``games/read/analysisview.py`` turns them into the templates' contexts.

Game-agnostic: every game offers analysis (its ``bots`` module's ``analyse``, else the fallback; see
``docs/bots.md``), only for games that are over: the analysis of a game in play would advise its players.
Position N's analysis uses the resolved turns 1..N and, where the log has it, turn N + 1 as the choices
actually made there; pending actions never reach it. A hidden-information game's analysis of a decision uses
only what the deciding seat saw, and is given only where the game later showed that (its ``analyse`` reads
the public events of the turns after the position, so it gets the whole log).

The cache key is the game kind, its parameters, the turn records 1..N+1 (a hidden-information game: the whole
log) and the budget, so the same position after the same history is analysed once, whatever game it occurs
in.
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
from games.bots.analysis import analyse_positions
from games.models import Game
from games.play import services, turnlog

log = logging.getLogger(__name__)

VERSION = 2  # of the cached answers' form
POSITION_SECONDS = 0.5  # budget of one position's analysis (sets the width: games.bots.matrixanalysis.width_for)
GAME_SECONDS = 0.05  # per position when the whole game is analysed ...
GAME_TOTAL_SECONDS = 4.0  # ... at most this for the whole game (a long game gets less per position) ...
MIN_SECONDS = 0.002  # ... and never less than this
WAIT_SECONDS = 30.0  # the longest a request waits for one position (a busy pool queues it)
GAME_WAIT_SECONDS = 120.0  # ... for the whole game; what finished by then is kept for the next request
CHUNK = 20  # positions per worker call for the whole game (one fold of the log each) ...
MAX_CHUNKS = 16  # ... or more, so that a long game is folded at most this many times
CACHE_SECONDS = 30 * 24 * 3600
MAX_INFLIGHT = 2  # analysis calls queued or running per bot worker, at most (more: 503, ask again)

_inflight: dict[str, Future] = {}
_lock = threading.Lock()


class Refused(Exception):
    """Why an analysis is not given, with the HTTP status the pages answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# --- what is offered ------------------------------------------------------------------------------------

def page_context(game: Game) -> dict:
    """For the replay page: the analysis panel, and whether it is open yet (every game has analysis)."""
    return {"open": game.is_over,
            "note": "" if game.is_over else "Analysis opens when the game is over: it would advise its players."}


def finished_game(game_id: str) -> Game:
    """The game to analyse; Refused if there is none or it is not over."""
    try:
        game = services.get_game(game_id)
    except services.NotFound:
        raise Refused(404, f"there is no game {game_id[:40]!r}") from None
    if not game.is_over:
        raise Refused(409, "analysis opens when the game is over (it would advise its players)")
    return game


def whole_log(game: Game) -> bool:
    """Whether the analysis of a position reads the whole log: a hidden-information game's does (``later``)."""
    return not services.engine_for(game).info.perfect_information


def cache_keys(game: Game, records: list[dict], positions, seconds: float) -> dict[int, str]:
    """Cache key of each position: the kind, parameters, turn records 1..n+1 (the history and the choices
    made there; a hidden-information game's whole log first) and the budget, hashed incrementally."""
    wanted = set(positions)
    digest = hashlib.sha256(json.dumps([game.kind, game.params], sort_keys=True).encode())
    if whole_log(game):
        digest.update(json.dumps(records, sort_keys=True).encode())
    keys = {}
    for n in range(max(wanted, default=-1) + 1):
        digest.update(json.dumps(records[n], sort_keys=True).encode() if n < len(records) else b"end")
        digest.update(b"\n")
        if n in wanted:
            keys[n] = f"analysis:v{VERSION}:{game.kind}:{seconds:g}:{digest.copy().hexdigest()}"
    return keys


# --- computing ------------------------------------------------------------------------------------------

def submit(game: Game, records: list[dict], positions: list[int], seconds: float, keys: dict[int, str]
           ) -> Future:
    """The analyses of ``positions`` in a worker; each is cached as it arrives. A request for the same
    positions while one is under way shares it; with too many under way, Refused (503)."""
    token = "|".join(keys[n] for n in positions)
    with _lock:
        future = _inflight.get(token)
        if future is not None and not future.cancelled():
            return future
        if len(_inflight) >= MAX_INFLIGHT * pool.workers():
            raise Refused(503, "the bots are busy: ask again in a moment")
        sent = records if whole_log(game) else records[:max(positions) + 1]
        future = pool.submit_call(analyse_positions, game.kind, game.params, sent, positions, seconds)
        _inflight[token] = future

    def done(f: Future):
        with _lock:
            if _inflight.get(token) is f:
                del _inflight[token]
        if f.cancelled() or f.exception() is not None:
            if not f.cancelled():
                log.warning("analysis of %s positions %s failed: %r", game.kind, positions[:3], f.exception())
            return
        cache.set_many({keys[n]: result for n, result in zip(positions, f.result())}, CACHE_SECONDS)

    future.add_done_callback(done)
    return future


def plan(game: Game, n: int, whole: bool) -> tuple[list[dict], dict[int, str], float]:
    """What to analyse: the turn records, the cache key of each position wanted (``n``, or every one for
    the whole game) and the budget per position."""
    records = turnlog.records(game)
    positions = list(range(game.turn + 1)) if whole else [n]
    seconds = game_seconds(len(positions)) if whole else POSITION_SECONDS
    return records, cache_keys(game, records, positions, seconds), seconds


def game_seconds(positions: int) -> float:
    """The budget per position of a whole game's analysis of ``positions`` positions."""
    return round(max(MIN_SECONDS, min(GAME_SECONDS, GAME_TOTAL_SECONDS / max(1, positions))), 4)


async def position(game: Game, n: int, records, keys, seconds) -> tuple[dict, bool]:
    """The analysis of the position after turn ``n`` and whether it came from the cache; Refused (503)
    when the bots are busy or it fails."""
    result = await cache.aget(keys[n])
    if result is not None:
        return result, True
    future = submit(game, records, [n], seconds, keys)
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
    size = max(CHUNK, -(-len(missing) // MAX_CHUNKS))
    chunks = [missing[i:i + size] for i in range(0, len(missing), size)]
    limit = max(1, pool.workers() - 1)  # leave a worker for the live games' bots
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_WAIT_SECONDS
    running: dict[asyncio.Future, list[int]] = {}
    while chunks or running:
        while chunks and len(running) < limit:
            try:
                future = submit(game, records, chunks[0], seconds, keys)
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
