"""Random playouts through the engine: turns per second.

Each turn, from the empty board until the game ends: list every legal action of each player to act, pick
one uniformly at random for each (seeded), apply the joint action through ``apply_actions`` (the same
validated path the server uses), which also detects the end of the game.

    python benchmarks/engine.py --game ropasci360 --seconds 5 --seed 1
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import load_game  # noqa: E402


def playouts(game, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play whole games until ``seconds`` have passed; return (turns, games, elapsed seconds)."""
    rnd = random.Random(seed).random
    turns = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():  # the server's draw: by probability
                outcomes = state.chance_outcomes()
                r, acc = rnd(), 0.0
                for outcome, p in outcomes:
                    acc += p
                    if r < acc:
                        break
                state.apply_chance(outcome)
                continue
            joint = {}
            for player in state.players_to_act():
                actions = state.legal_actions(player)
                joint[player] = actions[int(rnd() * len(actions))]
            state.apply_actions(joint)
            turns += 1
        games += 1
    return turns, games, time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ropasci360")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    turns, games, elapsed = playouts(load_game(args.game), args.seconds, args.seed)
    print(f"game={args.game} games={games} turns={turns} seconds={elapsed:.2f} "
          f"mean_turns_per_game={turns / max(games, 1):.1f}")
    print(f"turns_per_second={turns / elapsed:.0f}")


if __name__ == "__main__":
    main()
