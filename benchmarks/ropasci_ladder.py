"""RoPaSci 360 ladder: course-style players for ``manage.py arena``, every one on the course adapter's CPU clock.

    LADDER_PLAN=6 python manage.py arena benchmarks.ropasci_ladder:Strong benchmarks.ropasci_ladder:BaseStrong \\
        --games 20 --seed 1

* ``Strong``: ``games.bots.comp30024:Player`` (today's strong bot) planning ``LADDER_PLAN`` seconds of CPU a
  game (default the adapter's 48; a smaller plan makes a cheaper, shorter-sighted game, the same for both);
* ``BaseStrong``: the strong bot, its evaluation and its equilibrium solver as they were at git commit
  ``LADDER_BASE`` (default ``69961c1``, before the endgame work of issue 30), read with ``git show`` into modules
  of their own (pure Python: no C core), on the same plan and the same CPU clock;
* ``StrongShallow``: ``Strong`` without its second simultaneous stage (``depth=1``, the bot before session 14);
* ``StrongPython``: ``Strong`` on the Python twins of its C cores (as without a compiler);
* ``Sparring``: ``games.ropasci360.sparring:Player`` (the champion-like sparring partner; a node cap, no clock);
* ``Greedy``: ``games.bots.comp30024:GreedyPlayer``.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import types
from pathlib import Path

from games.bots.comp30024.player import GreedyPlayer, Player
from games.ropasci360.sparring import Player as Sparring

BASE_DIR = Path(__file__).resolve().parent.parent
BASE_COMMIT = os.environ.get("LADDER_BASE", "69961c1")
PLAN = float(os.environ.get("LADDER_PLAN", "48"))


def _module_at(commit: str, path: str, name: str, package: str):
    """The module at ``path`` as it was at ``commit``, as ``name`` in ``package`` (its relative imports resolve
    to today's package)."""
    if name in sys.modules:
        return sys.modules[name]
    source = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=BASE_DIR, check=True, capture_output=True,
                            text=True).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[name] = module
    exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)
    return module


def base_modules(commit: str = BASE_COMMIT):
    """(strong module, evaluation module) at ``commit``; the strong module's deadlines read CPU time."""
    ev = _module_at(commit, "games/ropasci360/bots.py", "games.ropasci360._ladder_base_bots", "games.ropasci360")
    strong = _module_at(commit, "games/bots/strong.py", "games.bots._ladder_base_strong", "games.bots")
    strong.time = types.SimpleNamespace(perf_counter=time.process_time)
    # Its equilibria by its own nash.py, as then.
    nash = _module_at(commit, "games/bots/nash.py", "games.bots._ladder_base_nash", "games.bots")
    strong.solve, strong.saddle_point = nash.solve, nash.saddle_point
    return strong, ev


class Strong(Player):
    cpu_plan = PLAN


class StrongShallow(Strong):
    """``Strong`` without its second simultaneous stage (``depth=1``): the bot before session 14."""

    def __init__(self, player):
        super().__init__(player)
        self.bot.depth = 1


class StrongPython(Strong):
    """``Strong`` on its pure-Python twins (``ROPASCI_NATIVE=0`` while it moves; the C cores' callers read it at
    each call): today's bot as it plays where no C compiler is found. Only with ``--workers 1`` or alone in its
    process would another player be affected: players move one at a time."""

    def action(self):
        before = os.environ.get("ROPASCI_NATIVE")
        os.environ["ROPASCI_NATIVE"] = "0"
        try:
            return super().action()
        finally:
            if before is None:
                del os.environ["ROPASCI_NATIVE"]
            else:
                os.environ["ROPASCI_NATIVE"] = before


class BaseStrong(Player):
    cpu_plan = PLAN

    def __init__(self, player):
        super().__init__(player)
        strong, ev = base_modules()
        self.bot = strong.StrongBot(self.bot.game, player)
        self.bot.ev = ev


__all__ = ["BaseStrong", "GreedyPlayer", "Sparring", "Strong", "StrongPython", "StrongShallow"]
