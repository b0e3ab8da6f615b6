"""The 2020 course adapter (``games.bots.comp30024_2020``, Expendibots) in whole games as the 2020 COMP30024
referee plays and measures them (``benchmarks/course_referee_2020.py``, one game per process): the referee's own
board, built from the actions, agrees with the engine at every action; the players stay inside ``-t 60 -s 100``
(CPU per player, ``VmPeak`` growth past the ``VmSize`` read after both imports, shared); ``Player`` beats
``RandomPlayer`` with either colour. Then the course module's forms and the arena."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.bots.arena import play_game
from games.engine import load_game
from games.expendibots import course

BASE_DIR = Path(__file__).resolve().parent.parent
SCRIPT = BASE_DIR / "benchmarks" / "course_referee_2020.py"
OURS = "games.bots.comp30024_2020"


def referee_game(white: str, black: str, pythonpath: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    if pythonpath:
        env["PYTHONPATH"] = f"{pythonpath}{os.pathsep}{BASE_DIR}"
    out = subprocess.run([sys.executable, str(SCRIPT), white, black, "-t", "60", "-s", "100", "--json"],
                         cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize("colour", ["white", "black"])
def test_player_beats_random_player_inside_the_referees_limits(colour):
    players = {colour: OURS, ("black" if colour == "white" else "white"): f"{OURS}:RandomPlayer"}
    rec = referee_game(players["white"], players["black"])
    assert rec["result"] == f"winner: {colour}", rec
    assert rec["engine_checked"], rec  # the referee's board and the engine agreed at every action
    assert rec["preloaded"] == []  # nothing (NumPy, SciPy, Django) was loaded before the players' packages
    assert set(rec["growth_mb"]) == {"init", "action", "update"}
    assert rec["growth_mb"]["init"] < 5, rec  # everything was loaded with the package, before the baseline
    assert rec["peak_growth_mb"] < 50, rec  # the referee stops the game at 200 MB shared (-s 100, two players)
    assert rec["cpu_s"][colour] < 60, rec


def test_a_long_game_of_greedy_players_agrees_with_the_engine():
    rec = referee_game(f"{OURS}:GreedyPlayer", f"{OURS}:GreedyPlayer")
    assert rec["engine_checked"] and rec["actions"] > 20, rec
    assert re.fullmatch(r"winner: (white|black)|draw detected: .+", rec["result"]), rec


class ListSquares:
    """Answers with list squares: equal to no available action (a list is never equal to a tuple)."""

    def __init__(self, colour):
        pass

    def action(self):
        return ("BOOM", [0, 0])

    def update(self, colour, action):
        pass


def test_the_referee_refuses_what_is_no_available_action():
    rec = referee_game(f"tests.{Path(__file__).stem}:ListSquares", f"{OURS}:RandomPlayer")
    assert rec["result"].startswith("error: invalid action! illegal action detected (white): ('BOOM', [0, 0])")
    assert rec["actions"] == 0


class Shuffler:
    """Steps a token out and back: the start position (White to move) recurs every four actions."""

    def __init__(self, colour):
        self.squares = ((0, 1), (0, 2)) if colour == "white" else ((0, 6), (0, 5))
        self.out = False

    def action(self):
        self.out = not self.out
        a, b = self.squares if self.out else self.squares[::-1]
        return ("MOVE", 1, a, b)

    def update(self, colour, action):
        pass


def test_the_fourth_occurrence_of_a_position_draws_for_the_referee_and_the_engine():
    shuffler = f"tests.{Path(__file__).stem}:Shuffler"
    rec = referee_game(shuffler, shuffler)
    assert rec["result"] == "draw detected: game state occurred 4 times." and rec["actions"] == 12, rec
    assert rec["engine_checked"], rec


def test_the_example_of_the_api_guide_plays_whole_games_under_the_referee(tmp_path):
    guide = (BASE_DIR / "docs" / "api.md").read_text().split("### A 2020-style Expendibots player", 1)[1]
    (tmp_path / "my_expendibot.py").write_text(re.search(r"```python\n(.*?)```", guide, re.S).group(1))
    rec = referee_game("my_expendibot", f"{OURS}:GreedyPlayer", pythonpath=tmp_path)
    assert rec["engine_checked"] and not rec["result"].startswith("error"), rec
    rec = referee_game(f"{OURS}:RandomPlayer", "my_expendibot", pythonpath=tmp_path)
    assert rec["engine_checked"] and not rec["result"].startswith("error"), rec


# --- the course module: the referee's forms, what each player is told --------------------------------------

def test_course_actions_are_the_engines_and_the_apis():
    game = load_game("expendibots")
    for action in [("MOVE", 2, (3, 1), (3, 3)), ("BOOM", (4, 6))]:
        assert course.from_json(course.to_json(action)) == action == course.from_course_action(action)
        assert course.to_json(action) == game.action_to_json(action)
    # what the referee's == lets through is read as the integers it equals
    assert course.from_course_action(["MOVE", 1.0, [0, True], (0, 2)]) == ("MOVE", 1, (0, 1), (0, 2))
    assert course.from_course_action(("MOVE", 1.5, (0, 0), (0, 1)))[1] == 1.5  # for the rules to refuse
    assert course.from_course_action("BOOM") == "BOOM"


def test_every_player_is_told_every_action_with_its_colour():
    told = []

    class Listener:
        def update(self, colour, action):
            told.append((colour, action))

    course.tell(Listener(), "black", {"white": ("BOOM", (0, 0))})
    course.tell(Listener(), "white", {"white": ("MOVE", 1, (0, 0), (0, 1))})
    assert told == [("white", ("BOOM", (0, 0))), ("white", ("MOVE", 1, (0, 0), (0, 1)))]


def test_the_course_players_clock_spreads_the_budget():
    from games.bots.comp30024_2020 import Player
    p = Player("black")
    assert 0.05 < p.move_budget() <= 1.0
    p.cpu_used = 47.0
    assert p.move_budget() <= 1.0 / 20 + 1e-9
    p.cpu_used = 60.0
    assert p.move_budget() <= 0.01


def test_the_players_table_is_cleared_between_moves_once_full(monkeypatch):
    from games.bots.comp30024_2020 import Player, player
    monkeypatch.setattr(player, "MAX_MOVE", 0.05)
    p = Player("white")
    p.bot.tt.update((-i, None) for i in range(player.TABLE_ENTRIES + 1))  # no position's key is negative
    assert p.action() in load_game("expendibots").new_initial_state().legal_actions("white")
    assert len(p.bot.tt) < player.TABLE_ENTRIES and -1 not in p.bot.tt


@pytest.mark.parametrize("index", [0, 1])
def test_the_arena_plays_a_2020_package_on_either_colour(index):
    rec = play_game(f"{OURS}:RandomPlayer", "greedy", index, seed=3, game_name="expendibots")
    assert not rec.result.startswith("forfeit"), rec.result
    assert rec.a_seat == ("white", "black")[index] and rec.turns == len(rec.moves) > 0
