"""The site's adapter for RoPaSci 360: the hex board as SVG (the same drawing on the game page, the replay
viewer, embeds, the admin and the preview image), words for actions and battles, and click paths.
Presentation only: it reads the engine's state JSON and canonical actions, never decides what is legal.
"""
from __future__ import annotations

import functools
import math

from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.engine.ui import GameUI

SIZE = 30.0  # hex circumradius in SVG units
SQRT3 = math.sqrt(3)
PLAYER_NAMES = {"upper": "Upper", "lower": "Lower"}
SYMBOL_NAMES = {"r": "rock", "p": "paper", "s": "scissors"}
HEXES = [(r, q) for r in range(4, -5, -1) for q in range(-4, 5) if abs(r + q) <= 4]


def centre(r: int, q: int, flipped: bool = False) -> tuple[float, float]:
    """Pixel centre of hex (r, q): row +4 on top (Upper's home), or at the bottom when flipped."""
    x, y = SQRT3 * SIZE * (q + r / 2), -1.5 * SIZE * r
    return (-x, -y) if flipped else (x, y)


def _points(x: float, y: float, radius: float = SIZE) -> str:
    return " ".join(f"{x + radius * math.cos(math.radians(60 * i - 30)):.1f},"
                    f"{y + radius * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))


def _symbol_shape(symbol: str, x: float, y: float) -> dict:
    """A distinct outline per symbol (not only a letter or a colour): rock a circle, paper a square,
    scissors a triangle."""
    k = SIZE * 0.62
    if symbol == "r":
        return {"tag": "circle", "cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": f"{k:.1f}"}
    if symbol == "p":
        return {"tag": "rect", "x": f"{x - k * 0.85:.1f}", "y": f"{y - k * 0.85:.1f}",
                "w": f"{k * 1.7:.1f}", "h": f"{k * 1.7:.1f}"}
    pts = " ".join(f"{x + k * math.cos(math.radians(a)):.1f},{y + k * math.sin(math.radians(a)):.1f}"
                   for a in (-90, 30, 150))
    return {"tag": "polygon", "points": pts}


@functools.cache
def _cells(flipped: bool) -> tuple:
    """The hexes' fields, and each one's markup with a slot for its class: the same on every board, so
    drawn once (the board is drawn for every turn of every game watched)."""
    cells = []
    for r, q in HEXES:
        x, y = centre(r, q, flipped)
        cell = {"r": r, "q": q, "x": f"{x:.1f}", "y": f"{y:.1f}", "points": _points(x, y, SIZE - 1),
                "label_y": f"{y + SIZE * 0.78:.1f}"}
        cell["html"] = (f'<g class="cell {{}}" data-pick="hex:{r},{q}" data-r="{r}" data-q="{q}" '
                        f'aria-label="({r}, {q})"><title>({r}, {q})</title><polygon points="{cell["points"]}"/>'
                        f'<text class="coord" x="{cell["x"]}" y="{cell["label_y"]}" aria-hidden="true">{r},{q}</text></g>')
        cells.append(cell)
    return tuple(cells)


def board_context(state: dict | None, *, flipped: bool = False, marks: dict | None = None,
                  moves: list | None = None) -> dict:
    """Everything the board template needs.

    ``marks`` maps (r, q) to a CSS class (e.g. ``battle``, ``moved``); ``moves`` is a list of
    (player, kind, from_hex or None, to_hex) drawn as arrows (slides, swings) or rings (throws).
    """
    state = state or {"tokens": [], "turn": 0}
    marks = marks or {}
    xs = [centre(r, q, flipped)[0] for r, q in HEXES]
    ys = [centre(r, q, flipped)[1] for r, q in HEXES]
    pad = SIZE * 1.1
    view = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    cells = []
    for cell in _cells(flipped):
        cls = marks.get((cell["r"], cell["q"]), "")
        cells.append(dict(cell, cls=cls, html=mark_safe(cell["html"].format(escape(cls)))))
    # Tokens: both players can share a hex (same symbol); offset them so both stay visible.
    by_hex: dict[tuple[int, int], list] = {}
    for t in state.get("tokens", []):
        by_hex.setdefault(tuple(t["hex"]), []).append(t)
    tokens = []
    for (r, q), group in by_hex.items():
        x, y = centre(r, q, flipped)
        for i, t in enumerate(sorted(group, key=lambda t: t["player"] != "upper")):
            dx = (i - (len(group) - 1) / 2) * SIZE * 0.55
            tx = x + dx
            tokens.append({
                "r": r, "q": q, "player": t["player"], "symbol": t["symbol"], "count": t["count"],
                "x": f"{tx:.1f}", "y": f"{y:.1f}", "shape": _symbol_shape(t["symbol"], tx, y),
                "letter": t["symbol"].upper() if t["player"] == "upper" else t["symbol"],
                "badge_x": f"{tx + SIZE * 0.5:.1f}", "badge_y": f"{y - SIZE * 0.45:.1f}",
                "label": f"{PLAYER_NAMES[t['player']]} {SYMBOL_NAMES[t['symbol']]}"
                         + (f" ×{t['count']}" if t["count"] > 1 else "") + f" on ({r}, {q})",
            })
    arrows = []
    for player, kind, src, dst in moves or []:
        x2, y2 = centre(*dst, flipped)
        if src is None:
            arrows.append({"player": player, "kind": kind, "throw": True, "x": f"{x2:.1f}", "y": f"{y2:.1f}",
                           "r": f"{SIZE * 0.85:.1f}"})
            continue
        x1, y1 = centre(*src, flipped)
        # Stop short of the centres so the arrow does not hide the tokens.
        d = math.hypot(x2 - x1, y2 - y1) or 1
        sx, sy = x1 + (x2 - x1) * SIZE * 0.45 / d, y1 + (y2 - y1) * SIZE * 0.45 / d
        ex, ey = x2 - (x2 - x1) * SIZE * 0.45 / d, y2 - (y2 - y1) * SIZE * 0.45 / d
        arrows.append({"player": player, "kind": kind, "throw": False, "x1": f"{sx:.1f}", "y1": f"{sy:.1f}",
                       "x2": f"{ex:.1f}", "y2": f"{ey:.1f}"})
    return {"view_box": " ".join(f"{v:.1f}" for v in view), "cells": cells, "tokens": tokens, "arrows": arrows,
            "turn": state.get("turn", 0), "flipped": flipped}


def move_words(kind: str, symbol: str | None, src, dst) -> str:
    """One token's move as players say it: ``Rock thrown to (2, 0)``, ``Rock slides from (0, 0) to (1, 0)``,
    ``Paper swings from ...``; ``Token slides ...`` where the symbol is not known."""
    what = SYMBOL_NAMES[symbol].capitalize() if symbol in SYMBOL_NAMES else "Token"
    where = f"({dst[0]}, {dst[1]})"
    if kind == "THROW":
        return f"{what} thrown to {where}"
    verb = "slides" if kind == "SLIDE" else "swings"
    return f"{what} {verb} from ({src[0]}, {src[1]}) to {where}"


def token_symbol(observation, player: str, hex_) -> str | None:
    """The symbol of ``player``'s tokens on ``hex_`` in a position (after each battle a hex holds one symbol
    per player), or None if none is there or the position is unknown."""
    for t in (observation or {}).get("tokens") or []:
        if t["player"] == player and list(t["hex"]) == list(hex_):
            return t["symbol"]
    return None


def turn_moves(actions: dict) -> list:
    """A resolved turn's actions (canonical JSON per side) as ``moves`` for ``board_context``."""
    moves = []
    for player, a in actions.items():
        if a[0] == "THROW":
            moves.append((player, "throw", None, tuple(a[2])))
        else:
            moves.append((player, a[0].lower(), tuple(a[1]), tuple(a[2])))
    return moves


def turn_marks(actions: dict, events: list) -> dict:
    """Hexes to highlight after a turn: where tokens landed, and where battles were fought."""
    marks = {}
    for a in actions.values():
        marks[tuple(a[2])] = "moved"
    for e in events:
        marks[tuple(e["hex"])] = "battle"
    return marks


SYMBOL_ORDER = ("r", "p", "s")
MATERIAL_MAX = 9  # tokens on the board plus throws left start at 9 and never grow


def _other(side: str) -> str:
    return "lower" if side == "upper" else "upper"


class UI(GameUI):
    board_template = "ropasci360/_board.html"
    tagline = "Rock, paper and scissors on a hex board: both sides move at once."
    stylesheet = "ropasci360/board.css"
    event_icon = "⚔"
    legend = "Upper: solid, capital letters · Lower: hatched, small letters · ● rock ■ paper ▲ scissors · a number counts stacked tokens"
    hint = ("Click one of your tokens to see where it can slide or swing, or pick a symbol to throw and click a "
            "highlighted hex. Then confirm.")
    chart_label = "Material (tokens on the board + throws left)"
    chart_max = MATERIAL_MAX

    def seat_name(self, seat):
        return PLAYER_NAMES.get(seat, seat.title())

    def board(self, observation, *, flipped=False, last=None):
        if last:
            return board_context(observation, flipped=flipped, moves=turn_moves(last["actions"]),
                                 marks=turn_marks(last["actions"], last["events"]))
        return board_context(observation, flipped=flipped)

    def action_words(self, seat, action, observation=None):
        """E.g. ``Rock thrown to (2, 0)``, ``Rock slides from (0, 0) to (1, 0)`` (the moved token's symbol read
        from ``observation``, the position before the move)."""
        if action[0] == "THROW":
            return move_words("THROW", action[1], None, action[2])
        return move_words(action[0], token_symbol(observation, seat, action[1]), action[1], action[2])

    def event_words(self, event):
        lost = ", ".join(f"{PLAYER_NAMES.get(d['player'], d['player'])} {SYMBOL_NAMES.get(d['symbol'], d['symbol'])}"
                         + (f" ×{d['count']}" if d.get("count", 1) > 1 else "") for d in event.get("defeated", []))
        return f"Battle on ({event['hex'][0]}, {event['hex'][1]}): {lost} defeated."

    def seat_stats(self, observation, seat):
        state = observation or {}
        on_board = sum(t["count"] for t in state.get("tokens", []) if t["player"] == seat)
        defeated = sum(int(v) for v in ((state.get("defeated") or {}).get(seat) or {}).values())
        return [("Throws left", (state.get("throws_left") or {}).get(seat, 0)), ("On board", on_board),
                ("Defeated", defeated)]

    def material(self, observation, seat):
        state = observation or {}
        return sum(t["count"] for t in state.get("tokens", []) if t["player"] == seat) + \
            (state.get("throws_left") or {}).get(seat, 0)

    def result_reason(self, outcome, observation):
        winners = outcome.get("winners") or []
        if not winners:
            text = outcome.get("text") or ""
            detail = text[len("draw: "):] if text.startswith("draw: ") else text
            return (detail[:1].upper() + detail[1:] + ".") if detail else "The game ended in a draw."
        winner = winners[0]
        loser = _other(winner)
        state = observation or {}
        left = (state.get("throws_left") or {}).get(loser)
        on_board = sum(t["count"] for t in state.get("tokens", []) if t["player"] == loser)
        if left == 0 and on_board == 0:
            return f"Every {self.seat_name(loser)} token is defeated and {self.seat_name(loser)} has no throws left."
        return (f"{self.seat_name(winner)} has a token that {self.seat_name(loser)} can no longer beat, "
                f"and {self.seat_name(loser)} has one token left.")

    def action_path(self, seat, action, observation=None):
        if action[0] == "THROW":
            return [{"key": f"throw:{action[1]}", "label": f"Throw {SYMBOL_NAMES[action[1]]}"},
                    {"key": f"hex:{action[2][0]},{action[2][1]}"}]
        return [{"key": f"hex:{action[1][0]},{action[1][1]}"}, {"key": f"hex:{action[2][0]},{action[2][1]}"}]

    def action_group(self, seat, action, observation=None):
        return {"THROW": "Throws", "SLIDE": "Slides", "SWING": "Swings"}[action[0]]
