"""Pairings and standings for tournaments, in pure Python (no Django): the site's tournament services call
these with entrant keys (any hashable, e.g. database ids) and game results; tests call them directly.

* ``round_robin(keys)``: the rounds of a round robin by the circle (Berger) method: every pair meets once,
  one entrant sits out each round when their number is odd.
* ``swiss_round(ranked, met, byes, firsts)``: one Swiss round: pair by score (the top half of a score group
  against its bottom half), never a repeat pairing while one without repeats exists, a bye for the lowest
  ranked entrant who has not had one when their number is odd.
* ``standings(keys, games, byes, fmt)``: score (win 1, draw ½, loss 0, a Swiss bye as won games) and
  tie-breaks: Sonneborn-Berger then head-to-head wins for a round robin, Buchholz then Sonneborn-Berger
  for Swiss; competition ranking (1, 2, 2, 4) when score and tie-breaks are all equal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

ROUND_ROBIN, SWISS = "round_robin", "swiss"
WIN, DRAW, LOSS = 1.0, 0.5, 0.0

# Search steps for a Swiss round without repeat pairings before settling for the fewest repeats found by a
# greedy pass (a perfect matching without repeats may not exist late in a long Swiss).
SEARCH_STEPS = 5_000


# --- round robin ----------------------------------------------------------------------------------------

def round_robin(keys: Sequence[Hashable]) -> list[list[tuple[Hashable, Hashable | None]]]:
    """Rounds of a round robin: each a list of pairs (first, second); ``second`` is None for the entrant
    who sits out that round (odd number of entrants). ``first`` takes the first seat in the pair's first
    game. The fixed entrant of the circle alternates seats round by round, the others alternate as they
    move round the circle."""
    players: list = list(keys)
    if len(set(players)) != len(players):
        raise ValueError("entrants must be distinct")
    if len(players) < 2:
        return []
    if len(players) % 2:
        players.append(None)
    m = len(players)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a
            if a is None:
                a, b = b, None
            pairs.append((a, b))
        # Sitting out is listed last.
        pairs.sort(key=lambda p: p[1] is None)
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` entrants has."""
    return 0 if count < 2 else (count - 1 if count % 2 == 0 else count)


# --- Swiss ----------------------------------------------------------------------------------------------

@dataclass
class SwissRound:
    pairs: list[tuple[Hashable, Hashable]]  # (first seat, second seat) of the pairing's first game
    bye: Hashable | None = None
    repeats: int = 0  # pairings that repeat an earlier one (0 unless no round without repeats was found)


def swiss_round(ranked: Sequence[Hashable], scores: dict, met: Iterable[frozenset] = (),
                byes: Iterable[Hashable] = (), firsts: dict | None = None) -> SwissRound:
    """Pair one Swiss round. ``ranked``: the entrants best first (by score, tie-breaks, then seed);
    ``scores``: each entrant's score (the score groups); ``met``: frozensets of pairs that already played;
    ``byes``: entrants who already had a bye; ``firsts``: how often each entrant had the first seat (the
    one with fewer takes it; on equal counts the higher ranked)."""
    ranked = list(ranked)
    if len(set(ranked)) != len(ranked):
        raise ValueError("entrants must be distinct")
    met = set(met)
    had_bye = set(byes)
    firsts = firsts or {}
    if len(ranked) < 2:
        return SwissRound([], ranked[0] if ranked else None)
    bye_order: list = [None]
    if len(ranked) % 2:
        # The lowest ranked without a bye first; everyone has had one: the lowest ranked again.
        without = [k for k in reversed(ranked) if k not in had_bye]
        bye_order = without or list(reversed(ranked))
    for bye in bye_order:
        rest = [k for k in ranked if k != bye]
        steps = [SEARCH_STEPS // len(bye_order) + 1]
        pairs = _pair_without_repeats(rest, scores, met, steps)
        if pairs is not None:
            return SwissRound(_seat(pairs, ranked, firsts), bye, 0)
    bye = bye_order[0]
    rest = [k for k in ranked if k != bye]
    pairs = _pair_greedy(rest, scores, met)
    repeats = sum(frozenset(p) in met for p in pairs)
    return SwissRound(_seat(pairs, ranked, firsts), bye, repeats)


def _candidates(top, rest: list, scores: dict) -> list:
    """Opponents for ``top`` (the highest ranked unpaired entrant) in order of preference: its own score
    group, the entrant half the group away first (top half meets bottom half), then the lower groups."""
    same = [k for k in rest if scores.get(k, 0) == scores.get(top, 0)]
    lower = [k for k in rest if scores.get(k, 0) != scores.get(top, 0)]
    if same:
        mid = (len(same) + 1) // 2 - 1  # top plus len(same) others: the group's bottom half starts here
        same = sorted(same, key=lambda k: (abs(same.index(k) - mid), same.index(k) < mid))
    return same + lower


def _pair_without_repeats(rest: list, scores: dict, met: set, steps: list) -> list | None:
    if not rest:
        return []
    steps[0] -= 1
    if steps[0] < 0:
        return None
    if any(all(k == o or frozenset((k, o)) in met for o in rest) for k in rest):
        return None  # someone has met everyone left: no pairing below this point
    top, others = rest[0], rest[1:]
    for opp in _candidates(top, others, scores):
        if frozenset((top, opp)) in met:
            continue
        tail = _pair_without_repeats([k for k in others if k != opp], scores, met, steps)
        if tail is not None:
            return [(top, opp), *tail]
        if steps[0] < 0:
            return None
    return None


def _pair_greedy(rest: list, scores: dict, met: set) -> list:
    pairs = []
    rest = list(rest)
    while len(rest) >= 2:
        top, others = rest[0], rest[1:]
        options = _candidates(top, others, scores)
        opp = next((k for k in options if frozenset((top, k)) not in met), options[0])
        pairs.append((top, opp))
        rest = [k for k in others if k != opp]
    return pairs


def _seat(pairs: list, ranked: list, firsts: dict) -> list:
    """Order each pair so that the entrant who had the first seat less often takes it."""
    rank = {k: i for i, k in enumerate(ranked)}
    seated = []
    for a, b in pairs:
        key_a, key_b = (firsts.get(a, 0), rank[a]), (firsts.get(b, 0), rank[b])
        seated.append((a, b) if key_a <= key_b else (b, a))
    return seated


# --- standings ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """One finished game: ``points_a`` is what ``a`` scored (1, ½ or 0); ``b`` scored ``1 - points_a``."""

    round: int
    a: Hashable
    b: Hashable
    points_a: float


@dataclass
class Row:
    key: Hashable
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    score: float = 0.0
    tiebreaks: tuple = ()
    rank: int = 0
    opponents: list = field(default_factory=list)  # (round, opponent) meetings


TIEBREAKS = {ROUND_ROBIN: ("Sonneborn-Berger", "Head-to-head wins"), SWISS: ("Buchholz", "Sonneborn-Berger")}
TIEBREAK_ABBR = {"Sonneborn-Berger": "SB", "Head-to-head wins": "H2H", "Buchholz": "Buch."}


def standings(keys: Sequence[Hashable], games: Iterable[GameResult], byes: Iterable[tuple[Hashable, float]] = (),
              fmt: str = ROUND_ROBIN) -> list[Row]:
    """The table, best first. ``keys`` in seed order (the last resort between entrants equal on score and
    tie-breaks, who then share a rank); ``byes``: (entrant, points) per bye."""
    if fmt not in TIEBREAKS:
        raise ValueError(f"unknown format {fmt!r}")
    rows = {k: Row(k) for k in keys}
    games = list(games)
    for g in games:
        if g.points_a not in (WIN, DRAW, LOSS):
            raise ValueError(f"points must be 1, 0.5 or 0, not {g.points_a!r}")
        for me, them, pts in ((g.a, g.b, g.points_a), (g.b, g.a, 1.0 - g.points_a)):
            row = rows[me]
            row.played += 1
            row.score += pts
            row.wins += pts == WIN
            row.draws += pts == DRAW
            row.losses += pts == LOSS
            if (g.round, them) not in row.opponents:
                row.opponents.append((g.round, them))
    for key, points in byes:
        rows[key].byes += 1
        rows[key].score += points
    score = {k: r.score for k, r in rows.items()}
    sb = {k: 0.0 for k in rows}
    for g in games:
        sb[g.a] += g.points_a * score[g.b]
        sb[g.b] += (1.0 - g.points_a) * score[g.a]
    if fmt == SWISS:
        buchholz = {k: sum(score[o] for _, o in r.opponents) for k, r in rows.items()}
        for k, r in rows.items():
            r.tiebreaks = (buchholz[k], sb[k])
    else:
        groups: dict = {}
        for k in rows:
            groups.setdefault((score[k], sb[k]), set()).add(k)
        h2h = {k: 0 for k in rows}
        for g in games:
            tied = groups[(score[g.a], sb[g.a])]
            if g.b in tied:
                if g.points_a == WIN:
                    h2h[g.a] += 1
                elif g.points_a == LOSS:
                    h2h[g.b] += 1
        for k, r in rows.items():
            r.tiebreaks = (sb[k], h2h[k])
    seed = {k: i for i, k in enumerate(keys)}
    ordered = sorted(rows.values(), key=lambda r: (-r.score, *(-t for t in r.tiebreaks), seed[r.key]))
    for i, row in enumerate(ordered):
        same = i and (row.score, row.tiebreaks) == (ordered[i - 1].score, ordered[i - 1].tiebreaks)
        row.rank = ordered[i - 1].rank if same else i + 1
    return ordered
