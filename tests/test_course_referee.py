"""The course adapter (``games.bots.comp30024``) within the limits as the 2021 COMP30024 referee measures them:
the baseline is the process's VmSize right after the package import, and after ``__init__`` and every
``action()`` and ``update()`` of a whole game VmPeak may not grow 100 MB past it; CPU at most 60 s. Each game
runs in a fresh process (``benchmarks/course_referee.py``), against a random opponent that imports nothing."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
SCRIPT = BASE_DIR / "benchmarks" / "course_referee.py"


def referee_game(player: str, side: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, str(SCRIPT), "--player", player, "--side", side, "--seed", "1", "--json"],
                         cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize("player,side", [("Player", "upper"), ("Player", "lower"), ("GreedyPlayer", "upper"),
                                         ("RandomPlayer", "lower")])
def test_a_whole_game_stays_far_inside_the_referees_limits(player, side):
    rec = referee_game(player, side)
    assert rec["preloaded"] == []  # nothing had imported NumPy or SciPy before our package
    assert rec["result"] != "unfinished" and rec["turns"] <= 360, rec
    assert set(rec["growth_mb"]) == {"init", "action", "update"}
    assert rec["peak_growth_mb"] < 50, rec  # the referee forfeits at 100 MB
    assert rec["cpu_s"] < 60, rec
