"""Axial hex grids shaped as a hexagon of a given radius, as integer-indexed lookup tables.

Games on such boards (RoPaSci 360, Expendibots-style variants, Hex) index hexes 0..n-1 so that the hot
paths deal in small integers and precomputed tuples instead of coordinate arithmetic.
"""
from __future__ import annotations

# The neighbour offsets (dr, dq), in the order the COMP30024 referee lists them.
OFFSETS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


class HexGrid:
    """All hexes (r, q) with |r|, |q|, |r + q| <= radius; index order is top row first, then by q."""

    def __init__(self, radius: int):
        self.radius = radius
        self.hexes: tuple[tuple[int, int], ...] = tuple(
            (r, q) for r in range(radius, -radius - 1, -1) for q in range(-radius, radius + 1)
            if abs(r + q) <= radius)
        self.index: dict[tuple[int, int], int] = {h: i for i, h in enumerate(self.hexes)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[(r + dr, q + dq)] for dr, dq in OFFSETS if (r + dr, q + dq) in self.index)
            for r, q in self.hexes)
        self.neighbour_mask: tuple[int, ...] = tuple(sum(1 << j for j in n) for n in self.neighbours)
        self.rows: tuple[int, ...] = tuple(r for r, _ in self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def contains(self, r: int, q: int) -> bool:
        return (r, q) in self.index

    @staticmethod
    def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
        dr, dq = a[0] - b[0], a[1] - b[1]
        return (abs(dr) + abs(dq) + abs(dr + dq)) // 2


def bits(mask: int):
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
