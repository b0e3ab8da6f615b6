"""The solved two-player Sim on 6 nodes, for the ``perfect`` bot: the value of every position, read from
``solved6.json``, which ``python -m games.sim.solved`` regenerates (a few seconds).

A position is the mover's edge mask and the opponent's (``rules.Tables`` bits); its value (won or lost for the
mover) does not change when the 6 nodes are relabelled, so the table holds one *canonical key* per class: the
least ``mover << 15 | opponent`` over the 720 relabellings. The solver walks every position reachable in play
(neither colour with a triangle, Black one edge ahead or level) ply by ply, 2,250 classes in all, and values
them from the last ply back: a position is won when a safe edge (one that completes no own triangle) leads to a
lost one, and lost when none does (no safe edge left included: any move then loses at once). The empty board
is lost for Black: the second player wins.
"""
from __future__ import annotations

import itertools
import json
from functools import lru_cache
from pathlib import Path

from .rules import tables

NODES = 6
EDGES = NODES * (NODES - 1) // 2  # 15: a mask fits 15 bits
PATH = Path(__file__).with_name("solved6.json")


@lru_cache(maxsize=None)
def _relabellings() -> tuple:
    """Per relabelling of the nodes, lookup tables mapping a mask's low 8 and high 7 bits to the relabelled
    mask: (low, high) for the opponent, and the same shifted 15 bits up for the mover."""
    t = tables(NODES)
    out = []
    for perm in itertools.permutations(range(NODES)):
        image = [1 << t.index[tuple(sorted((perm[i], perm[j])))] for i, j in t.edges]
        low, high = _spread(image[:8]), _spread(image[8:])
        out.append(([m << EDGES for m in low], [m << EDGES for m in high], low, high))
    return tuple(out)


def _spread(images: list[int]) -> list[int]:
    """For every value ``v`` of ``len(images)`` bits, the OR of ``images[k]`` over its set bits ``k``."""
    out = [0] * (1 << len(images))
    for v in range(1, len(out)):
        out[v] = out[v & (v - 1)] | images[(v & -v).bit_length() - 1]
    return out


def canonical(own: int, opp: int) -> int:
    """The least ``own << 15 | opp`` over the relabellings of the nodes: equal for isomorphic positions."""
    a, b, c, d = own & 255, own >> 8, opp & 255, opp >> 8
    return min([lo_own[a] | hi_own[b] | lo_opp[c] | hi_opp[d] for lo_own, hi_own, lo_opp, hi_opp in _relabellings()])


def safe_moves(own: int, opp: int) -> list[int]:
    """The uncoloured edges the mover may colour without completing a triangle of its colour."""
    pairs = tables(NODES).pairs
    used = own | opp
    return [e for e in range(EDGES) if not used >> e & 1 and not any(own & m == m for m, _ in pairs[e])]


def solve() -> tuple[list[int], list[int]]:
    """The canonical keys of every reachable position, won and lost for the mover (sorted)."""
    plies = [{0}]
    while True:
        nxt = set()
        for key in plies[-1]:
            own, opp = key >> EDGES, key & ((1 << EDGES) - 1)
            nxt.update(canonical(opp, own | 1 << e) for e in safe_moves(own, opp))
        if not nxt:
            break
        plies.append(nxt)
    won = set()
    lost = set()
    for ply in reversed(plies):
        for key in ply:
            own, opp = key >> EDGES, key & ((1 << EDGES) - 1)
            if any(canonical(opp, own | 1 << e) in lost for e in safe_moves(own, opp)):
                won.add(key)
            else:
                lost.add(key)
    return sorted(won), sorted(lost)


@lru_cache(maxsize=1)
def table() -> dict[int, bool]:
    """Canonical key -> whether the mover wins, for every reachable position (from ``solved6.json``)."""
    data = json.loads(PATH.read_text())
    return {**{k: True for k in data["won"]}, **{k: False for k in data["lost"]}}


def wins(own: int, opp: int) -> bool | None:
    """Whether the mover (edges ``own``) wins against perfect play; None for a position no game reaches (the
    colours' edge counts out of turn, or a triangle already closed)."""
    return table().get(canonical(own, opp))


def main() -> None:
    won, lost = solve()
    PATH.write_text(json.dumps({
        "about": "Sim, 2 players, 6 nodes: canonical keys (least mover << 15 | opponent edge mask over the 720 "
                 "relabellings) of every reachable position, won or lost for the mover; python -m "
                 "games.sim.solved regenerates it",
        "won": won, "lost": lost}, separators=(",", ":")) + "\n")
    print(f"{PATH}: {len(won)} won, {len(lost)} lost positions; the empty board is "
          f"{'won' if 0 in won else 'lost'} for the first player")


if __name__ == "__main__":
    main()
