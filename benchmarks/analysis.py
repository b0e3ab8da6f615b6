"""The replay's whole-game analysis of a typical game of each game: CPU seconds of worker time.

A game is played to its end by the greedy bots (random where a game has no greedy; the puzzles by their best
level), with the game's default parameters, chance drawn by its odds (seeded); then every position is
analysed as the site does for "Analyse the whole game" (``analyse_positions`` with the budget
``games.read.analysis.game_seconds`` gives a game of that length), in this process, and its CPU time taken.

    python benchmarks/analysis.py [--games NAME ...] [--seed 1]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ropasci.settings")

import django  # noqa: E402

django.setup()

from games.bots import levels_for, make_bot  # noqa: E402
from games.bots.analysis import analyse_positions  # noqa: E402
from games.engine import load_game, registered_names  # noqa: E402
from games.engine.api import CHANCE  # noqa: E402
from games.engine.history import apply_record  # noqa: E402
from games.read.analysis import game_seconds  # noqa: E402

MAX_TURNS = 20000


def typical(name: str, seed: int) -> list[dict]:
    game = load_game(name)
    levels = levels_for(game)
    level = "greedy" if "greedy" in levels else "random"
    if len(game.info.players) == 1 and "greedy" not in levels:
        level = next(lv for lv in ("perfect", "strong") if lv in levels)
    bots = {s: make_bot(level, game, s, seed=seed + i, seconds=0.05) for i, s in enumerate(game.info.players)}
    rng, state, records = random.Random(seed), game.new_initial_state(), []
    while not state.is_terminal() and len(records) < MAX_TURNS:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            record = {CHANCE: rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]}
        else:
            record = {s: game.action_to_json(bots[s].choose(state)) for s in state.players_to_act()}
        apply_record(game, state, record)
        records.append(record)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=registered_names())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.games:
        records = typical(name, args.seed)
        positions = list(range(len(records) + 1))
        seconds = game_seconds(len(positions))
        started = time.process_time()
        analyse_positions(name, {}, records, positions, seconds)
        cpu = time.process_time() - started
        print(f"{name}: {len(records)} turns, {seconds:g} s a position, analysis {cpu:.2f} s CPU", flush=True)


if __name__ == "__main__":
    main()
