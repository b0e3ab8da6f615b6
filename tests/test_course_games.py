"""``benchmarks/course_games.py``: many course-referee games played one process each, resumable, and counted as
``docs/bots.md`` counts them (a draw 1/2, crashes apart, the Wilson interval of the score)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR / "benchmarks"))

import course_games  # noqa: E402


def run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run([sys.executable, str(BASE_DIR / "benchmarks" / "course_games.py"), *args], cwd=BASE_DIR,
                          env=env, capture_output=True, text=True, timeout=300)


def test_a_run_writes_a_game_per_seed_resumes_and_keeps_a_crash_apart(tmp_path):
    out = tmp_path / "games"
    done = run("run", str(out), "--opponent", "random", "--seeds", "3-4", "--jobs", "2", "--max-turns", "2")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["3.json", "4.json"]
    games = course_games.load([str(out)])
    assert [(g["seed"], g["side"], g["turns"], g["result"]) for g in games] == [(3, "upper", 2, "unfinished"),
                                                                               (4, "lower", 2, "unfinished")]
    assert all(len(g["moves"]) == 2 for g in games)  # the records, to replay a game

    again = run("run", str(out), "--opponent", "no_such_agent:Player", "--seeds", "4-5", "--max-turns", "2")
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == "4: kept"  # a game already played is not played again
    crashed = json.loads((out / "5.json").read_text())
    assert crashed["seed"] == 5 and "No module named 'no_such_agent'" in crashed["crashed"]
    shown = run("summary", str(out)).stdout
    assert "not counted: seed 3: unfinished; seed 4: unfinished; seed 5: ModuleNotFoundError" in shown


def test_the_summary_counts_as_the_docs_do(tmp_path):
    def game(seed, result, *, left=None, thrown=None, cpu=40.0, growth=5.0):
        side = course_games.side_of(seed)
        return {"seed": seed, "side": side, "result": result, "cpu_s": cpu, "peak_growth_mb": growth,
                "left": left or {"upper": {"r": 1, "p": 0, "s": 0}, "lower": {"r": 1, "p": 0, "s": 0}},
                "thrown": thrown or {"upper": 9, "lower": 9}}
    games = [game(1, "winner: upper"), game(2, "winner: lower"), game(3, "winner: lower", cpu=47.0),
             game(4, "draw: maximum number of turns reached", left={"upper": {"r": 2, "p": 1, "s": 0},
                                                                    "lower": {"r": 0, "p": 1, "s": 0}},
                  thrown={"upper": 4, "lower": 8}, growth=41.5),
             game(5, "draw: both players have an invincible token"), {"seed": 6, "side": "lower", "crashed": "boom"}]
    lines = course_games.summary(games)
    assert lines[0] == "2-2-1, 0.600 (0.231-0.882) over 5 games (won-drawn-lost, score with its Wilson 95% interval)"
    assert lines[1:] == [
        "  as Upper: 1-1-1",
        "  as Lower: 1-1-0",
        "  draws: 1 maximum number of turns reached, 1 both players have an invincible token",
        "  our CPU a game: median 40.0 s, at most 47.0 s",
        "  VmPeak growth: at most 5.0 MB in 4 games, 41.5 to 41.5 MB in 1",
        # seed 4: ours (Lower) 1 token and 1 throw in hand, Upper 3 and 5
        "  at the turn limit (1), tokens and throws in hand: ahead in 0, behind in 1, level in 0",
        "not counted: seed 6: boom",
    ]
