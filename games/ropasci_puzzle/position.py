"""A puzzle position in the course's JSON form, checked and put in canonical order.

``{"upper": [["r", 4, -2], ...], "lower": [["s", 0, 1], ...], "block": [["", 0, 0], ...]}``: entries are
``[symbol, r, q]``. Shared by the game (its ``position`` parameter and states), the solver and ``manage.py
solve``, so that all three accept exactly the same positions and say the same thing about bad ones.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from games.engine.api import short_repr
from games.ropasci360.rules import INDEX

SYMBOLS = ("r", "p", "s")
SYMBOL_NAMES = {"r": "rock", "p": "paper", "s": "scissors"}
MAX_UPPER = 9  # the course's single-player task puts no cap on Upper's tokens; a player has nine in the game
MAX_LOWER = 9  # ... and at most 9 Lower tokens (its number of throws)

EXAMPLE = {"upper": [["r", -3, 2], ["s", 2, -1]], "lower": [["p", -1, 1], ["s", 1, -1]], "block": [["", 0, 0]]}
"""The course's own example (solved in 3 turns)."""

Token = tuple[str, tuple[int, int]]  # (symbol, (r, q))


class PositionError(ValueError):
    """A position the course's rules do not allow, or one that is not even well formed."""


@dataclass(frozen=True)
class Position:
    """Tokens as (symbol, (r, q)); ``upper`` sorted by (symbol, r, q): that is the order of Upper's tokens in
    an action. ``lower`` is sorted the same way, ``blocks`` by (r, q)."""

    upper: tuple[Token, ...]
    lower: tuple[Token, ...]
    blocks: tuple[tuple[int, int], ...]

    def to_json(self) -> dict:
        return {"upper": [[s, *h] for s, h in self.upper], "lower": [[s, *h] for s, h in self.lower],
                "block": [["", *h] for h in self.blocks]}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _entries(data: dict, key: str, block: bool) -> list[tuple[str, tuple[int, int]]]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise PositionError(f"{key!r} must be a list of [symbol, r, q] entries, got {short_repr(value)}")
    out = []
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                and _is_int(entry[1]) and _is_int(entry[2])):
            raise PositionError(f"each {key!r} entry must be [symbol, r, q] with integer r and q, got "
                                f"{short_repr(entry)}")
        sym, r, q = entry
        if block and sym != "":
            raise PositionError(f"a block's symbol must be \"\" (the course's form), got {short_repr(entry)}")
        if not block and sym not in SYMBOLS:
            raise PositionError(f"a token's symbol must be \"r\", \"p\" or \"s\", got {short_repr(entry)}")
        if (r, q) not in INDEX:
            raise PositionError(f"({r}, {q}) is off the board (hexes have |r|, |q|, |r + q| <= 4): "
                                f"{short_repr(entry)}")
        out.append((sym, (r, q)))
    return out


def parse_position(data, *, partial: bool = False) -> Position:
    """The checked, canonical position; PositionError naming the first problem found. ``partial`` allows a
    side with no tokens left (a position reached in play rather than a puzzle to pose)."""
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object with \"upper\", \"lower\" and \"block\", got "
                            f"{short_repr(data)}")
    unknown = sorted(set(map(str, data)) - {"upper", "lower", "block"})
    if unknown and not partial:
        raise PositionError(f"unknown key(s) {', '.join(unknown)}: a position has \"upper\", \"lower\" and "
                            f"\"block\"")
    for key in ("upper", "lower"):
        if key not in data:
            raise PositionError(f"a position needs {key!r}")
    upper = _entries(data, "upper", False)
    lower = _entries(data, "lower", False)
    blocks = [h for _, h in _entries(data, "block", True)]
    least = 0 if partial else 1
    if not least <= len(upper) <= MAX_UPPER:
        raise PositionError(f"Upper must have {least} to {MAX_UPPER} tokens, got {len(upper)}")
    if not least <= len(lower) <= MAX_LOWER:
        raise PositionError(f"Lower must have {least} to {MAX_LOWER} tokens, got {len(lower)}")
    seen_blocks = set()
    for h in blocks:
        if h in seen_blocks:
            raise PositionError(f"two blocks on {h}")
        seen_blocks.add(h)
    symbol_at: dict[tuple[int, int], str] = {}
    for side, tokens in (("upper", upper), ("lower", lower)):
        for sym, h in tokens:
            if h in seen_blocks:
                raise PositionError(f"{side} {SYMBOL_NAMES[sym]} on {h} shares the hex of a block")
            other = symbol_at.setdefault(h, sym)
            if other != sym:
                raise PositionError(f"{SYMBOL_NAMES[other]} and {SYMBOL_NAMES[sym]} on {h}: tokens share a hex only "
                                    f"if they have the same symbol (otherwise they would have battled)")
    return Position(tuple(sorted(upper)), tuple(sorted(lower)), tuple(sorted(seen_blocks)))


LIBRARY = Path(__file__).resolve().parent / "library"


def library() -> list[dict]:
    """The puzzle library, easiest first: per puzzle its ``name``, ``title``, ``turns`` (the optimum, checked
    by the tests) and ``position`` (course JSON), from ``library/index.json`` and one file per puzzle."""
    with open(LIBRARY / "index.json", encoding="utf-8") as fh:
        index = json.load(fh)
    out = []
    for entry in index:
        with open(LIBRARY / entry["file"], encoding="utf-8") as fh:
            out.append({**entry, "position": json.load(fh)})
    return out
