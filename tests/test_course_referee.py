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


def run_script(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=120)


def referee_game(player: str, side: str, *more: str) -> dict:
    out = run_script("--player", player, "--side", side, "--seed", "1", "--json", *more)
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


def test_a_weight_set_for_an_experiment_reaches_the_c_core_and_python():
    """``--set``: with a throw in hand worth less than nothing, the player throws all nine in twelve turns."""
    rec = referee_game("Player", "upper", "--set", "THROW_FULL=-400", "--max-turns", "12")
    assert rec["weights"] == {"THROW_FULL": -400}
    assert rec["thrown"]["upper"] == 9, rec


def test_the_record_replays_to_the_game_reported_and_the_search_is_counted():
    rec = referee_game("Player", "lower", "--max-turns", "8", "--moves")
    from games.engine import load_game
    game = load_game("ropasci360")
    state = game.new_initial_state()
    for upper, lower in rec["moves"]:
        state.apply_actions({"upper": game.action_from_json(upper, "upper"),
                             "lower": game.action_from_json(lower, "lower")})
    assert state.turn == rec["turns"] == 8
    assert {seat: state.thrown[k] for k, seat in enumerate(game.info.players)} == rec["thrown"]
    assert rec["entries_per_move"] > 0 and rec["inner_per_move"] > 0  # the second stage ran on every move
    assert "moves" not in referee_game("GreedyPlayer", "upper", "--max-turns", "3")


def test_an_unknown_weight_is_refused_before_play():
    out = run_script("--set", "THROW_WEIGHT=1", "--max-turns", "5")
    assert out.returncode != 0
    assert "games.ropasci360.bots has no 'THROW_WEIGHT'" in out.stderr
