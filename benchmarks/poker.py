"""Poker bots against each other over whole sit-and-go tournaments, with 95% confidence intervals.

A match is ``A`` vs ``B`` at ``--players`` seats: the seats alternate A, B, A, B, ... and tournament k shifts
that assignment by k seats (so both sides take every position). Each tournament has one winner; the figure
is the share of tournaments A's side wins, against the share its seats would win by chance (A's seats /
seats). Cards are drawn from the state's chance outcomes as the server does. Tournaments run in ``--jobs``
processes.

    python benchmarks/poker.py --games 40 --seconds 0.02 --jobs 2
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots.base import RandomBot  # noqa: E402
from games.poker import make_game  # noqa: E402
from games.poker.bots import BOTS  # noqa: E402

FACTORIES = {"random": RandomBot, **BOTS}

MATCHES = (("strong", "greedy"), ("greedy", "random"))


def play(a: str, b: str, players: int, seed: int, seconds: float) -> dict:
    """One tournament: whether side A won, how many hands it took."""
    game = make_game(players=players)
    rng = random.Random(seed)
    sides = {seat: (a, b)[(i + seed) % 2] for i, seat in enumerate(game.info.players)}
    bots = {seat: FACTORIES[level](game, seat, seed=seed * 100 + i, seconds=seconds)
            for i, (seat, level) in enumerate(sides.items())}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        else:
            seat = state.players_to_act()[0]
            state.apply_action(seat, bots[seat].choose(state))
    returns = state.returns()
    return {"a": sum(v for s, v in returns.items() if sides[s] == a),
            "a_seats": sum(1 for s in sides.values() if s == a), "hands": state.hand}


def interval(values) -> tuple[float, float]:
    """Mean and half-width of a 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="tournaments per match and table size")
    parser.add_argument("--seconds", type=float, default=0.02, help="the strong bot's budget per move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for players in (2, 6):
            for a, b in MATCHES:
                started = time.perf_counter()
                seeds = [args.seed + k for k in range(args.games)]
                runs = list(pool.map(play, [a] * len(seeds), [b] * len(seeds), [players] * len(seeds), seeds,
                                     [args.seconds] * len(seeds)))
                mean, half = interval([r["a"] for r in runs])
                chance = sum(r["a_seats"] for r in runs) / (players * len(runs))
                hands = sum(r["hands"] for r in runs) / len(runs)
                print(f"{players} seats, {a} vs {b}: {a} wins {mean:.2f} ± {half:.2f} of {len(runs)} tournaments "
                      f"(chance {chance:.2f}); {hands:.0f} hands each, {time.perf_counter() - started:.0f} s",
                      flush=True)


if __name__ == "__main__":
    main()
