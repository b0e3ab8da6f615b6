"""How big a tournament is, from its format and its number of entrants: creating one checks it against the
limits, the start takes a Swiss tournament's rounds from it, and the table shows the games still to come."""
from __future__ import annotations

import math

from .models import Tournament


def planned_games(fmt: str, entrants: int, rounds: int, games_per_pairing: int) -> int:
    if fmt == Tournament.Format.ROUND_ROBIN:
        return entrants * (entrants - 1) // 2 * games_per_pairing
    return rounds * (entrants // 2) * games_per_pairing


def default_swiss_rounds(entrants: int) -> int:
    return max(1, min(entrants - 1, math.ceil(math.log2(max(entrants, 2)))))
