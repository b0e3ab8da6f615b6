"""Entries per CPU second of the strong bot's RoPaSci 360 payoff matrices: the C core (``matrix.c``) against
the Python entries (its twin), over positions of games between strong (0.05 s a move) and random bots.

    python benchmarks/ropasci_matrix.py [--games 4] [--width 20] [--seed 1]

For every position, the same ``width`` x ``width`` matrix is computed both ways (CPU time, ``time.process_time``;
the C side's includes encoding the position, its history and the seen positions) and compared; then a ``choose`` at a budget of ``--seconds`` CPU seconds is timed with each, reporting the
widths reached.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from games.bots.strong import StrongBot  # noqa: E402
from games.ropasci360 import make_game  # noqa: E402


def positions(games: int, seed: int):
    """(state, bot having observed the game so far) along games of a strong bot against random moves."""
    game = make_game()
    rng = random.Random(seed)
    for g in range(games):
        st = game.new_initial_state()
        seat = ("upper", "lower")[g % 2]
        bot = StrongBot(game, seat, seed=seed + g, seconds=0.05)
        bot.clock = time.process_time
        while not st.is_terminal():
            bot.observe(st)
            yield st, bot
            other = "lower" if seat == "upper" else "upper"
            st.apply_actions({seat: bot.choose(st), other: rng.choice(list(st.legal_actions(other)))})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--width", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpu = {"python": 0.0, "c": 0.0}
    entries = 0
    widths = {"python": [], "c": []}
    worst = 0.0
    for st, bot in positions(args.games, args.seed):
        A, B = bot.candidates(st)
        A, B = A[:args.width], B[:args.width]
        out = {}
        t = time.process_time()
        out["python"] = np.array([[bot._leaf(bot._child(st, a, b)) for b in B] for a in A])
        cpu["python"] += time.process_time() - t
        t = time.process_time()
        out["c"] = np.empty((len(A), len(B)))
        bot._fast_matrix(st, A, B)(out["c"], 0, len(A), 0, len(B))
        cpu["c"] += time.process_time() - t
        entries += out["c"].size
        worst = max(worst, float(np.abs(out["c"] - out["python"]).max()))
        for name in ("python", "c"):
            bot.native = name == "c"
            bot.seconds = args.seconds
            bot.stats = {}
            saved = bot.rng.getstate()
            bot.choose(st)
            bot.rng.setstate(saved)
            widths[name].append(bot.stats.get("width", 0))
        bot.native, bot.seconds = True, 0.05
    for name in ("python", "c"):
        print(f"{name}: {entries} entries in {cpu[name]:.2f} s CPU, {entries / cpu[name]:,.0f} entries/s; "
              f"choose at {args.seconds} s: mean width {np.mean(widths[name]):.1f}")
    print(f"positions: {len(widths['c'])}, speed-up {cpu['python'] / cpu['c']:.1f}x, largest difference {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
