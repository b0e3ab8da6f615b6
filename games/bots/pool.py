"""A process pool for bot moves, so CPU-bound search never runs on the server's event loop.

Processes, not threads: the search holds the GIL, and a thread would stall every live game. The pool is
created on first use with ``workers()`` processes (``configure``; default 2) and the "spawn" start method, which is safe with
a Django/asyncio parent (no forked locks or loops) and leaves no fork server behind. Each worker watches the
process that started it and exits when it is gone, so a killed server leaves no orphans.

    fut = pool.submit("ropasci360", turns, "lower", "strong")   # concurrent.futures.Future (turn records)
    action_json = fut.result()                                  # or: await asyncio.wrap_future(fut)

Other work (the replay's analysis, its animated GIF) goes through ``submit_call(fn, *args)``. A pool broken
by a dead worker is replaced on the next ``submit``. ``shutdown()`` stops the workers.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .play import choose_action

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


_workers = 2  # processes of the next pool started (``configure``)


def configure(workers: int) -> None:
    """Size the pool (Django's side passes its BOT_WORKERS setting); a pool already started keeps its size."""
    global _workers
    _workers = max(1, int(workers))


def workers() -> int:
    return _workers


PARENT_CHECK_SECONDS = 1.0


def _exit_with(parent: int) -> None:
    """Exit this worker once ``parent`` is gone (SIGKILLed servers do not shut their pools down)."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)  # a watchdog's period, not a wait for an event
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid now belongs to another user's process: ours is gone
            os._exit(0)


def _warm_up(parent: int):
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="parent-watch").start()
    # Import the search code (NumPy, SciPy, tables) and every game's evaluation once per worker, not on its
    # first move.
    from games.engine import game_module, registered_names

    from . import strong  # noqa: F401
    for name in registered_names():
        game_module(name, "bots")


def get_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_warm_up, initargs=(os.getpid(),))
        return _pool


def submit(game_name: str, turns: list[dict], seat: str, level: str,
           seconds: float | None = None, seed: int | None = None, params: dict | None = None) -> Future:
    """Run :func:`games.bots.play.choose_action` in a worker; the future's result is the action's JSON."""
    return submit_call(choose_action, game_name, turns, seat, level, seconds, seed, params)


def submit_call(fn, *args) -> Future:
    """Run ``fn(*args)`` in a worker: ``fn`` a module-level function of a module that does not need Django
    (the workers do not set it up), its arguments and result picklable (e.g.
    :func:`games.bots.analysis.analyse_positions`)."""
    global _pool
    try:
        return get_pool().submit(fn, *args)
    except (BrokenProcessPool, RuntimeError):
        with _lock:
            broken, _pool = _pool, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
        return get_pool().submit(fn, *args)


def shutdown(wait: bool = True) -> None:
    """Stop the workers (a later ``submit`` starts a new pool)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=not wait)
