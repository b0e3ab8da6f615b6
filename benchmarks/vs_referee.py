"""RoPaSci 360 random playouts: this engine against the course referee, side by side.

The referee is not in this repository: point ``--referee`` at a folder holding the 2021 COMP30024 ``referee``
package (its ``referee/game.py``; only the rules part, ``Game``, is used). Rounds alternate between the two so
that both see the same machine load; each plays whole games from the empty board for ``--seconds``:

- this engine: ``benchmarks/engine.py``'s loop (list each player's legal actions, pick one each with a seeded
  ``random()``, apply the pair through ``apply_actions``, the validated path the server uses);
- the referee: the same loop over its ``_available_actions`` (listed into a list), applied with
  ``Game.update``, which validates by listing them again.

Before timing, ``--check`` games are played through both with the same actions, and their results must agree.

    python benchmarks/vs_referee.py --referee /path/to/folder --rounds 5 --seconds 10
"""
from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.engine import playouts  # noqa: E402
from games.engine import load_game  # noqa: E402


def referee_playouts(referee_game, seconds: float, seed: int) -> tuple[int, int, float]:
    """As ``engine.playouts``, through the referee's ``Game``."""
    rnd = random.Random(seed).random
    turns = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = referee_game.Game()
        while not game.over():
            upper = list(game._available_actions("upper"))
            lower = list(game._available_actions("lower"))
            game.update(upper[int(rnd() * len(upper))], lower[int(rnd() * len(lower))])
            turns += 1
        games += 1
    return turns, games, time.perf_counter() - start


def check(referee_game, engine, games: int, seed: int) -> None:
    """Play ``games`` random games through both with the same actions; their results must agree."""
    rnd = random.Random(seed)
    for number in range(games):
        state, ref = engine.new_initial_state(), referee_game.Game()
        while not state.is_terminal():
            joint = {side: rnd.choice(list(state.legal_actions(side))) for side in ("upper", "lower")}
            state.apply_actions(joint)
            ref.update(joint["upper"], joint["lower"])
            if ref.over() != state.is_terminal():
                sys.exit(f"game {number}, turn {state.turn}: the referee says over={ref.over()} ({ref.result})")
        if ref.result != state.result().text:
            sys.exit(f"game {number}: engine {state.result().text!r}, referee {ref.result!r}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--referee", required=True, help="folder holding the referee package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", type=int, default=200, help="games played through both first (0: none)")
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.referee))
    referee_game = importlib.import_module("referee.game")
    engine = load_game("ropasci360")
    if args.check:
        check(referee_game, engine, args.check, args.seed)
        print(f"check: {args.check} games, same results")
    ours, theirs = [], []
    for number in range(1, args.rounds + 1):
        turns, _, elapsed = playouts(engine, args.seconds, args.seed)
        ours.append(turns / elapsed)
        turns, _, elapsed = referee_playouts(referee_game, args.seconds, args.seed)
        theirs.append(turns / elapsed)
        print(f"round {number}: engine {ours[-1]:.0f} turns/s, referee {theirs[-1]:.0f} turns/s, "
              f"ratio {ours[-1] / theirs[-1]:.1f}")
    engine_median, referee_median = statistics.median(ours), statistics.median(theirs)
    print(f"engine_turns_per_second={engine_median:.0f} referee_turns_per_second={referee_median:.0f} "
          f"ratio={engine_median / referee_median:.1f}")


if __name__ == "__main__":
    main()
