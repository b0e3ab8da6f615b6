"""Time and nodes of the RoPaSci 360 puzzle solver on a fixed test set; prints the Markdown table of
``docs/puzzles.md``, then the slowest positions by name.

    python benchmarks/puzzles.py [--groups library,mixed-3x9,...] [--files A.json,...] [--repeat N]
                                 [--course-count N] [--baseline SECONDS]

The set: the puzzle library, then seeded random positions per group (``mixed-UxL``: U Upper tokens of different
symbols (a fourth repeats one) and L Lower tokens they can all beat, 0-8 blocks; ``same-3xL``: three Upper rocks and
L Lower scissors; the course's own kind, three Upper tokens and nine Lower: ``far-3x9``, a rock, a paper and a
scissors in a corner with three targets each in the far half, ``tour-3x9``, a rock touring nine scissors with the
paper and the scissors as its pivots, ``duo-3x9``, two tokens with five and four targets and the third as their
pivot, ``split-3x9``, five, three and one target, ``walls-3x9``, three each among 8-16 blocks, and ``pair-3x9``, two
tokens of one symbol and one of another, the Lower tokens the prey of any of them); ``four-4x9``: four Upper tokens
of any symbols and 3-9 Lower tokens, each the prey of one of them at random (a class may have none: its tokens are
escorts), 0-8 blocks. ``--baseline``
also runs a plain joint A* (every joint move, the classic bound "the farthest target from its nearest predator, two
hexes a turn") with that time limit per position, for comparison. ``--files`` adds positions from course JSON files
(group "files", named by file; ``benchmarks/puzzle-positions/`` holds the hardest found). "seconds" is the CPU time
of ``solve`` (the process's), the least of ``--repeat`` solves, so other work on the machine changes it less than
wall-clock time; "lower bound" is the bound the iterative deepening proved, which meets the solution's length.
``solve`` runs the C core when it builds (``ROPASCI_NATIVE=0`` times the Python twin).

Figures (``python benchmarks/puzzles.py --repeat 3``, C core, session 26's idle 2-core VM, as fast as sessions 24
and 25's; other jobs inflate even CPU seconds here, up to sevenfold at load 5): under 1 s: 262/262; slowest:
pair-3x9-7 0.35 s, split-3x9-21 0.28 s, split-3x9-11 0.22 s, pair-3x9-8 0.21 s, split-3x9-30 0.21 s. The course
groups but ``pair`` with ``--course-count 480`` and the eight files of ``benchmarks/puzzle-positions/`` (single
runs; they hold the slowest found): 2,406 of 2,408, the worst four-10 12.25 s (four Upper tokens), pair-15 1.97 s,
four-11 0.99 s (3.75 s before the oracle asked with four tokens), then duo-3x9-420 0.64 s; 3,068,243 positions; the
first 4,500 of each of those groups (22,500 positions, ``--course-count 4500``) 22,490 (session 25), the worst
walls-3x9-4142 1.94 s, duo-3x9-1303 1.85 s, split-3x9-2232 1.83 s; ``--groups pair-3x9 --course-count 1500``
1,493 of 1,500, the worst pair-3x9-1076 1.88 s (``docs/puzzles.md``, "Where it is still slow").
Session 27's VM is about 2.1 times as slow: the default set with ``four-4x9`` 294/294, the slowest pair-3x9-7 0.75 s,
four-4x9-28 0.69 s; ``--groups four-4x9 --course-count 600`` 587/600 (69.5 s, after the four-token oracle's escorts
were moved once per position 57.5 s), the worst four-4x9-391 8.47 s, four-4x9-370 5.58 s (10.27 s before), four-10
16.8 s (35.1 s before); ``--groups pair-3x9 --course-count 1500`` 1,480/1,500, the worst near 4 s (pair-3x9-249,
-1223, -1076; which is slowest changes run to run here).
Session 28's VM (about 1.8 times as fast as session 27's): the default set 294/294, 6.6 s, 224,011 positions (217,702
with the joint search's rounds at depth 1); ``--groups four-4x9 --course-count 600`` 595/600 with the rounds (594
before; 654,485 positions against 787,417; 26.9 s against 32.1 with the table's changes), the worst four-4x9-391
4.2 s; positions 601 to 1,200 of that group hold four-4x9-971 (22.5 s, at the end 7.1 s) and four-4x9-850 (not
solved in 24 minutes; 40 s once the table of bounds keeps 8 million entries instead of 2).
Session 29 (a VM drifting between the two): the default set 294/294, 210,037 positions, 6.6-8.4 s; ``--groups four-4x9
--course-count 600`` 595/600, 623,617 positions, the worst four-4x9-391 4.3 s; positions 601 to 1,200: 11 over a
second, four-4x9-850 41 s, four-4x9-971 6.8 s; the files: four-10 9.3-12 s, pair-15 2.8-3.3 s.
Session 30 (about 1.5 times as slow as session 29's): the default set 294/294, the same positions, 11.3 s; four-10
19.5 s, pair-15 4.9-5.9 s; the first 600 of four-4x9 and of pair-3x9 589/600 each (the same positions as session 29's).
``ROPASCI_ESCORTS=0`` times the joint search alone.
"""
from __future__ import annotations

import argparse
import heapq
import itertools
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.ropasci360.rules import HEXES  # noqa: E402
from games.ropasci_puzzle.position import library, parse_position  # noqa: E402
from games.ropasci_puzzle.solver import FAR, encode, predator, solve  # noqa: E402

PREY = {"r": "s", "p": "r", "s": "p"}
GROUPS = ("library", "mixed-2x4", "mixed-3x4", "mixed-3x6", "mixed-3x9", "same-3x9", "mixed-4x4", "mixed-4x6",
          "far-3x9", "tour-3x9", "duo-3x9", "split-3x9", "walls-3x9", "pair-3x9", "four-4x9")
COURSE_KINDS = ("far", "tour", "duo", "split", "walls", "pair", "four")  # --course-count positions each
CORNERS = ((4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4))
PER_GROUP = 8
PER_COURSE_GROUP = 32  # the course's kinds: their hard positions are rarer (1 in 20 to 40 takes 0.5 s or more)
BASELINE_STATES = 2_000_000  # the plain A* stops there too (memory)


def distance(a, b) -> int:
    dr, dq = a[0] - b[0], a[1] - b[1]
    return max(abs(dr), abs(dq), abs(dr + dq))


def random_position(rng: random.Random, group: str) -> dict:
    kind, size = group.split("-")
    n_upper, n_lower = map(int, size.split("x"))
    cells = list(HEXES)
    rng.shuffle(cells)
    if kind == "four":
        ups = [rng.choice("rps") for _ in range(n_upper)]
        lows = [PREY[rng.choice(ups)] for _ in range(rng.randint(3, n_lower))]
        return {"upper": [[s, *h] for s, h in zip(ups, cells)],
                "lower": [[s, *h] for s, h in zip(lows, cells[n_upper:])],
                "block": [["", *h] for h in cells[n_upper + len(lows):n_upper + len(lows) + rng.randint(0, 8)]]}
    if kind in COURSE_KINDS:
        return course_position(rng, kind, cells)
    n_blocks = rng.randint(0, 8)
    symbols = ["r"] * n_upper if kind == "same" else rng.sample("rps", min(3, n_upper))
    symbols += [rng.choice("rps") for _ in range(n_upper - len(symbols))]  # a fourth token repeats a symbol
    return {"upper": [[symbols[i], *cells[i]] for i in range(n_upper)],
            "lower": [[PREY[rng.choice(symbols)], *cells[n_upper + i]] for i in range(n_lower)],
            "block": [["", *cells[n_upper + n_lower + i]] for i in range(n_blocks)]}


def course_position(rng: random.Random, kind: str, cells: list) -> dict:
    """Three Upper tokens (a rock, a paper and a scissors, but in ``pair``) and nine Lower tokens.
    ``far``: the three start within 1 of a corner and each has three targets at least 6 hexes from it; ``tour``:
    anywhere, a rock with nine scissors to remove and the paper and scissors only as its pivots; ``duo``: anywhere,
    two tokens with five and four targets, the third only a pivot; ``split``: anywhere, five, three and one;
    ``walls``: three each, anywhere, among 8-16 blocks; ``pair``: anywhere, two tokens of one symbol and one of
    another, each Lower token the prey of one of the three at random."""
    ups = list("rps")
    rng.shuffle(ups)
    if kind == "far":
        corner = CORNERS[rng.randrange(6)]
        up_cells = [h for h in cells if distance(h, corner) <= 1][:3]
        low_cells = [h for h in cells if distance(h, corner) >= 6][:9]
        lows = [PREY[s] for s in ups for _ in range(3)]
        rng.shuffle(lows)
    elif kind == "pair":
        ups = [ups[0], ups[0], ups[1]]
        rng.shuffle(ups)
        up_cells, low_cells = cells[:3], cells[3:12]
        lows = [PREY[rng.choice(ups)] for _ in range(9)]
    elif kind in ("duo", "split", "walls"):
        counts = {"duo": (5, 4, 0), "split": (5, 3, 1), "walls": (3, 3, 3)}[kind]
        up_cells, low_cells = cells[:3], cells[3:12]
        lows = [PREY[s] for s, n in zip(ups, counts) for _ in range(n)]
    else:
        ups = list("rps")
        up_cells, low_cells, lows = cells[:3], cells[3:12], ["s"] * 9
    taken = set(up_cells) | set(low_cells)
    free = [h for h in cells if h not in taken]
    blocks = rng.randint(8, 16) if kind == "walls" else rng.randint(0, 6)
    return {"upper": [[s, *h] for s, h in zip(ups, up_cells)], "lower": [[s, *h] for s, h in zip(lows, low_cells)],
            "block": [["", *h] for h in free[:blocks]]}


SLOWEST = 5  # named at the end


def test_set(groups, files=(), course_count: int = PER_COURSE_GROUP) -> list[tuple[str, str, dict]]:
    out = []
    for path in files:
        with open(path, encoding="utf-8") as fh:
            out.append(("files", os.path.splitext(os.path.basename(path))[0], json.load(fh)))
    for group in groups:
        if group == "library":
            out += [(group, e["name"], e["position"]) for e in library()]
            continue
        rng = random.Random(f"ropasci-puzzle-{group}")
        count = course_count if group.split("-")[0] in COURSE_KINDS else PER_GROUP
        out += [(group, f"{group}-{i + 1}", random_position(rng, group)) for i in range(count)]
    return out


def plain_astar(position: dict, seconds: float) -> tuple[int | None, int, bool]:
    """(turns, nodes, finished) of a plain joint A*: no relaxation, no move filtering; unfinished after
    ``seconds`` or ``BASELINE_STATES`` positions stored."""
    board, ups, lower = encode(parse_position(position))

    def h(u, low):
        worst = 0
        for g, (hx, s) in enumerate(board.groups):
            if low >> g & 1:
                near = min((board.dist("front", 0, hx)[x & 63] for x in u if x >> 6 == predator(s)), default=FAR)
                worst = max(worst, (near + 1) // 2)
        return worst

    start = time.perf_counter()
    heap = [(h(ups, lower), 0, ups, lower)]
    best = {(ups, lower): 0}
    nodes = 0
    while heap:
        if time.perf_counter() - start > seconds or len(best) > BASELINE_STATES:
            return None, nodes, False
        f, g, u, low = heapq.heappop(heap)
        if best.get((u, low), FAR) < g or f >= FAR:
            continue
        nodes += 1
        occupied = {x & 63 for x in u}
        for dests in itertools.product(*(board.moves(x & 63, occupied) for x in u)):
            nu, nl = board.resolve(u, low, dests)
            if not nl:
                return g + 1, nodes, True
            if nu and best.get((nu, nl), FAR) > g + 1:
                best[(nu, nl)] = g + 1
                heapq.heappush(heap, (g + 1 + h(nu, nl), g + 1, nu, nl))
    return None, nodes, True


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", default=",".join(GROUPS), help=f"comma-separated, of {', '.join(GROUPS)}")
    parser.add_argument("--baseline", type=float, default=0.0, metavar="SECONDS",
                        help=f"also run a plain joint A* with this time limit per position (and at most "
                             f"{BASELINE_STATES:,} positions stored)")
    parser.add_argument("--files", default="", help="comma-separated course JSON files to time too")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="solve each position N times and keep the least CPU time (other jobs on the machine "
                             "only ever add time)")
    parser.add_argument("--course-count", type=int, default=PER_COURSE_GROUP, metavar="N",
                        help=f"positions in each course group ({', '.join(COURSE_KINDS)}; default "
                             f"{PER_COURSE_GROUP}; the first N of one seeded sequence, so a larger N adds positions)")
    args = parser.parse_args(argv)
    rows, by_group, all_times = [], {}, []
    groups = [g for g in args.groups.split(",") if g]
    for group, name, position in test_set(groups, [f for f in args.files.split(",") if f], args.course_count):
        best = None
        for _ in range(args.repeat):
            stats: dict = {}
            cpu = time.process_time()
            turns = solve(position, stats=stats)
            stats["seconds"] = time.process_time() - cpu
            best = stats["seconds"] if best is None else min(best, stats["seconds"])
        stats["seconds"] = best
        p = parse_position(position)
        row = [name, str(len(p.upper)), str(len(p.lower)), str(len(p.blocks)),
               "none" if turns is None else str(len(turns)), str(stats["bounds"].get("proved", "-")),
               str(stats["nodes"]), str(stats["relaxations"]), f"{stats['seconds']:.2f}"]
        if args.baseline:
            found, nodes, finished = plain_astar(position, args.baseline)
            row.append(f"{found} ({nodes} nodes)" if finished else f"gave up ({nodes} nodes)")
        rows.append(row)
        by_group.setdefault(group, []).append(stats["seconds"])
        all_times.append((stats["seconds"], name))
        print("|", " | ".join(row), "|", file=sys.stderr, flush=True)
    head = ["position", "Upper", "Lower", "blocks", "turns", "lower bound", "nodes", "relaxations", "seconds"]
    if args.baseline:
        head.append("plain A*")
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print("| group | positions | median s | max s | under 1 s |")
    print("|---|---|---|---|---|")
    for group, times in by_group.items():
        print(f"| {group} | {len(times)} | {statistics.median(times):.2f} | {max(times):.2f} | "
              f"{sum(t < 1 for t in times)}/{len(times)} |")
    print()
    print(f"under 1 s: {sum(t < 1 for t, _ in all_times)}/{len(all_times)}; slowest: "
          + ", ".join(f"{name} {t:.2f} s" for t, name in sorted(all_times, reverse=True)[:SLOWEST]))
    # the totals, to compare whole runs (a change that saves on the slowest may cost on the many)
    print(f"in all: {sum(int(row[6]) for row in rows):,} positions, {sum(t for t, _ in all_times):.1f} s of CPU")


if __name__ == "__main__":
    main()
