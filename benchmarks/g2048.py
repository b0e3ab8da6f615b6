"""The 2048 strong bot over whole games: average score, how often it reaches 512 to 32768, the best tiles.

Each game is seeded (game k uses seed ``--seed + k``); new tiles are drawn from the state's chance outcomes
with their probabilities, as the server does. Games run in ``--jobs`` processes; each game's line is printed
as it ends, followed by the tile distribution over the games ended so far (so a run stopped early still
reports every game it finished). CPU time is the game's process's (``time.process_time``: the bot and the
engine), so other load on the machine does not inflate it.

    python benchmarks/g2048.py --games 10 --seconds 0.1 --jobs 2
    python benchmarks/g2048.py --games 100 --seconds 1 --jobs 2     # the full measurement (80 min, docs/bots.md)
    python benchmarks/g2048.py --compare 30      # CPU time of the C and Python searches on 30 random boards
"""
from __future__ import annotations

import argparse
import collections
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.g2048 import make_game  # noqa: E402
from games.g2048 import bots  # noqa: E402
from games.g2048.bots import StrongBot  # noqa: E402

TILES = (512, 1024, 2048, 4096, 8192, 16384, 32768)


def play(seed: int, seconds: float) -> dict:
    """One game of the strong bot: its score, best tile, moves, average search depth and CPU seconds."""
    game = make_game()
    rng = random.Random(seed)
    bot = StrongBot(game, "player", seed=seed, seconds=seconds)
    state = game.new_initial_state()
    moves = depth = 0
    started, cpu = time.perf_counter(), time.process_time()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action("player", bot.choose(state))
            moves += 1
            depth += bot.stats["depth"]
    return {"seed": seed, "score": state.score, "best": state.best_tile(), "moves": moves,
            "depth": depth / max(moves, 1), "seconds": time.perf_counter() - started,
            "cpu": time.process_time() - cpu}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.1, help="time budget per move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=int, metavar="BOARDS", help="only time the C and Python searches")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args.compare, args.seed)
    seeds = [args.seed + k for k in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = []
        for future in as_completed([pool.submit(play, seed, args.seconds) for seed in seeds]):
            r = future.result()
            results.append(r)
            print(f"game {r['seed']}: score {r['score']}, best tile {r['best']}, {r['moves']} moves, "
                  f"average depth {r['depth']:.1f}, {r['seconds']:.0f} s, "
                  f"{1000 * r['cpu'] / max(r['moves'], 1):.1f} CPU ms per move", flush=True)
            print(f"  after {len(results)} games: {distribution(results)}", flush=True)
    n = len(results)
    print(f"\n{n} games at {args.seconds} s per move")
    print(f"average score {sum(r['score'] for r in results) / n:.0f}")
    moves = sorted(r["moves"] for r in results)
    print(f"moves per game: mean {sum(moves) / n:.0f}, median {moves[n // 2]}, {moves[0]} to {moves[-1]}")
    print(f"CPU per move: {1000 * sum(r['cpu'] for r in results) / max(sum(moves), 1):.2f} ms (bot and engine)")
    print(f"reached {distribution(results)}")
    counts = collections.Counter(r["best"] for r in results)
    print("best tiles: " + ", ".join(f"{tile}: {counts[tile]}" for tile in sorted(counts)))


def compare(boards: int, seed: int) -> None:
    """CPU seconds of the Python and C searches (the same nodes) at depths 2 and 3 on random boards."""
    rng = random.Random(seed)
    lib, tables = bots.core(), bots.tables()
    if lib is None:
        sys.exit("no C core (ROPASCI_NATIVE=0 or no compiler)")
    sample = [bots.bitboard([0 if rng.random() < 0.3 else rng.randrange(1, 12) for _ in range(16)])
              for _ in range(boards)]
    for depth in (2, 3):
        cpu, nodes = {"Python": 0.0, "C": 0.0}, 0
        for b in sample:
            for name, search in (("Python", bots.Expectimax(tables)), ("C", bots.NativeExpectimax(lib))):
                started = time.process_time()
                search.search(b, depth, math.inf)
                cpu[name] += time.process_time() - started
            nodes += search.nodes
        print(f"depth {depth}: {nodes} chance nodes each, Python {cpu['Python']:.3f} s, C {cpu['C']:.4f} s "
              f"({cpu['Python'] / cpu['C']:.0f} times faster)")


def distribution(results) -> str:
    """How many of the games reached each tile from 512 to 32768, e.g. ``512: 10/10, ..., 32768: 1/10``."""
    return ", ".join(f"{tile}: {sum(r['best'] >= tile for r in results)}/{len(results)}" for tile in TILES)


if __name__ == "__main__":
    main()
