"""CPU cost of the strong bot's RoPaSci 360 search with its C cores (``games/ropasci360/matrix.c`` for the
payoff matrices and candidate scores) and without them
(``ROPASCI_NATIVE=0``: the Python twins), over positions of games between strong (0.05 s a move) and random.

    python benchmarks/ropasci_matrix.py [--games 4] [--width 20] [--seconds 0.05] [--seed 1]

For every position: the same ``width`` x ``width`` matrix both ways (CPU time, ``time.process_time``; the C side
includes encoding the position, its history and the seen positions), compared entry by entry; then a depth-1
and a depth-2 ``choose`` at ``--seconds`` of CPU each way, reporting the matrix width reached (at most every
candidate) and the second stage's nodes.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from games.bots.strong import StrongBot  # noqa: E402
from games.ropasci360 import make_game  # noqa: E402

WAYS = {"python": "0", "c": "1"}  # ROPASCI_NATIVE


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
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpu = dict.fromkeys(WAYS, 0.0)
    found = {way: {"width": [], "all": [], "inner": [], "deep_width": []} for way in WAYS}
    entries = 0
    worst = 0.0
    game = make_game()
    for st, bot in positions(args.games, args.seed):
        A, B = bot.candidates(st)
        A, B = A[:args.width], B[:args.width]
        out = {}
        for way, flag in WAYS.items():
            os.environ["ROPASCI_NATIVE"] = flag
            t = time.process_time()
            fill = bot._fast_matrix(st, A, B)
            if fill is None:
                out[way] = np.array([[bot._leaf(bot._child(st, a, b)) for b in B] for a in A])
            else:
                out[way] = np.empty((len(A), len(B)))
                fill(out[way], 0, len(A), 0, len(B))
            cpu[way] += time.process_time() - t
            for depth in (1, 2):
                probe = StrongBot(game, bot.seat, seed=0, seconds=args.seconds, depth=depth)
                probe.clock = time.process_time
                probe.seen = bot.seen.copy()
                probe.choose(st)
                if depth == 1:
                    found[way]["width"].append(probe.stats.get("width", 0))
                    found[way]["all"].append(probe.stats.get("width", 0) >= max(len(bot.candidates(st)[0]), 1))
                else:
                    found[way]["inner"].append(probe.stats.get("inner", 0))
                    found[way]["deep_width"].append(probe.stats.get("deep_width", 0))
        os.environ["ROPASCI_NATIVE"] = "1"
        assert bot._fast_matrix(st, A, B) is not None, "no C core"
        entries += out["c"].size
        worst = max(worst, float(np.abs(out["c"] - out["python"]).max()))
    for way in WAYS:
        f = found[way]
        print(f"{way}: {entries} entries in {cpu[way]:.2f} s CPU, {entries / cpu[way]:,.0f} entries/s; "
              f"at {args.seconds} s a move: depth 1 width {np.mean(f['width']):.1f} (every candidate in "
              f"{np.mean(f['all']):.0%}), depth 2: {np.mean(f['inner']):.1f} second-stage nodes, "
              f"sub-game width {np.mean(f['deep_width']):.1f}")
    print(f"positions: {len(found['c']['width'])}, speed-up {cpu['python'] / cpu['c']:.1f}x, "
          f"largest difference {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
