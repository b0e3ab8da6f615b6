"""The site's adapter for Expendibots: the 8x8 board as SVG, words for actions and explosions, click paths.
Presentation only: it reads the engine's state JSON and canonical JSON actions, never decides what is legal.

Board context (``UI.board``), what ``expendibots/_board.html`` uses: ``turn``, ``flipped``, ``view_box``,
``width``, ``height``, ``squares`` (64 dicts: ``x``, ``y``, ``px``, ``py`` (top-left corner), ``cx``, ``cy``
(centre), ``size``, ``cls`` (``light``/``dark`` plus last-turn marks ``from``, ``to``, ``boom``,
``exploded``), ``label``, ``stack`` (None or ``player``, ``count``, ``r``, ``ring_r``, ``text_y``,
``label``), ``blast`` (star points for an exploded square, or "")), ``files`` and ``ranks`` (edge labels:
``text``, ``x``, ``y``) and ``arrow`` (None or ``player``, ``x1``, ``y1``, ``x2``, ``y2``: the last move).
"""
from __future__ import annotations

import math

from games.engine.ui import GameUI

S = 56  # square size in SVG units
LEFT = 22  # room for the rank labels
TOP = 6
RIGHT = 6
BOTTOM = 22  # room for the file labels
PLAYER_NAMES = {"white": "White", "black": "Black"}


def _other(seat: str) -> str:
    return "black" if seat == "white" else "white"


def _tokens(n: int) -> str:
    return f"{n} token" if n == 1 else f"{n} tokens"


def _sq(sq) -> str:
    return f"({sq[0]}, {sq[1]})"


def _corner(x: int, y: int, flipped: bool) -> tuple[int, int]:
    """Top-left pixel of square (x, y): row 0 (White's home) at the bottom, or at the top when flipped."""
    col, row = (7 - x, y) if flipped else (x, 7 - y)
    return LEFT + col * S, TOP + row * S


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 8) -> str:
    pts = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / points - math.pi / 2
        pts.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(pts)


def _marks(last: dict | None) -> tuple[dict, tuple | None]:
    """Square -> mark classes for the turn that led to the position, and the last move's (player, from, to)."""
    marks: dict[tuple[int, int], list[str]] = {}
    arrow = None
    if not last:
        return marks, arrow
    for seat, a in (last.get("actions") or {}).items():
        try:
            if a[0] == "MOVE":
                src, dst = (a[2][0], a[2][1]), (a[3][0], a[3][1])
                marks.setdefault(src, []).append("from")
                marks.setdefault(dst, []).append("to")
                arrow = (seat, src, dst)
            elif a[0] == "BOOM":
                marks.setdefault((a[1][0], a[1][1]), []).append("boom")
        except (TypeError, IndexError, KeyError):
            continue
    for e in last.get("events") or []:
        for item in (e.get("exploded") or []) if isinstance(e, dict) else []:
            sq = (item[0], item[1])
            if "exploded" not in marks.get(sq, []):
                marks.setdefault(sq, []).append("exploded")
    return marks, arrow


class UI(GameUI):
    board_template = "expendibots/_board.html"
    tagline = "Move stacks of bots and blow them up: chain explosions clear the other side's."
    stylesheet = "expendibots/board.css"
    legend = ("White: light discs with a dark outline · Black: dark discs with a light ring · "
              "the number is the stack's size")
    hint = ("Click one of your stacks, then choose how many tokens to move and click where they go "
            "(up to as many squares as the stack is tall, up, down, left or right), or choose Boom! "
            "to explode it. Then confirm.")
    chart_label = "Tokens"

    def seat_name(self, seat):
        return PLAYER_NAMES.get(seat, str(seat).title())

    # --- words -------------------------------------------------------------------------------------
    def action_words(self, seat, action, observation=None):
        if action[0] == "MOVE":
            n = action[1]
            return f"Move {n} token{'s' if n != 1 else ''} from {_sq(action[2])} to {_sq(action[3])}"
        return f"Boom at {_sq(action[1])}"

    def event_words(self, event):
        if not isinstance(event, dict) or "boom" not in event:
            return ""
        counts = {"white": 0, "black": 0}
        for item in event.get("exploded") or []:
            counts[item[2]] = counts.get(item[2], 0) + item[3]
        parts = [f"{n} {seat}" for seat, n in counts.items() if n]
        total = sum(counts.values())
        return f"Boom at {_sq(event['boom'])}: {' and '.join(parts)} {'token' if total == 1 else 'tokens'} exploded"

    def result_reason(self, outcome, observation):
        text = (outcome or {}).get("text") or ""
        if text.startswith("winner: "):
            loser = _other(text[len("winner: "):])
            return f"{self.seat_name(loser)} has no tokens left."
        reasons = {
            "draw detected: no tokens remaining": "Both players lost their last tokens in the same explosion.",
            "draw detected: game state occurred 4 times.": "The same position occurred a fourth time.",
            "draw detected: maximum number of turns reached.": "Each player has had 250 turns.",
        }
        return reasons.get(text) or super().result_reason(outcome, observation)

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped=False, last=None):
        state = observation or {}
        stacks = {}
        for st in state.get("stacks") or []:
            stacks[(st["square"][0], st["square"][1])] = (st["player"], st["count"])
        marks, arrow = _marks(last)
        squares = []
        for y in range(7, -1, -1):
            for x in range(8):
                px, py = _corner(x, y, flipped)
                cx, cy = px + S / 2, py + S / 2
                cls = ["light" if (x + y) % 2 else "dark"] + marks.get((x, y), [])
                words = []
                stack = None
                if (x, y) in stacks:
                    player, count = stacks[(x, y)]
                    slabel = f"{self.seat_name(player)} stack of {count}"
                    words.append(slabel)
                    stack = {"player": player, "count": count, "r": S * 0.38, "ring_r": S * 0.29,
                             "text_y": cy + 1, "label": slabel}
                else:
                    words.append("empty")
                mk = marks.get((x, y), [])
                words += [{"from": "moved from here", "to": "moved here", "boom": "boom here",
                           "exploded": "exploded"}[m] for m in mk]
                squares.append({
                    "x": x, "y": y, "px": px, "py": py, "cx": cx, "cy": cy, "size": S, "cls": " ".join(cls),
                    "label": f"({x}, {y}): " + ", ".join(words), "stack": stack,
                    "blast": _star(cx, cy, S * 0.42, S * 0.18) if "exploded" in mk else "",
                })
        files = []
        ranks = []
        for k in range(8):
            px, py = _corner(k, k, flipped)
            files.append({"text": k, "x": px + S / 2, "y": TOP + 8 * S + 15})
            ranks.append({"text": k, "x": LEFT - 8, "y": py + S / 2 + 4})
        arrow_ctx = None
        if arrow:
            seat, src, dst = arrow
            x1, y1 = (v + S / 2 for v in _corner(*src, flipped))
            x2, y2 = (v + S / 2 for v in _corner(*dst, flipped))
            d = math.hypot(x2 - x1, y2 - y1) or 1
            short = S * 0.42
            ux, uy = (x2 - x1) * short / d, (y2 - y1) * short / d  # stop short of the discs
            arrow_ctx = {"player": seat, "x1": f"{x1 + ux:.1f}", "y1": f"{y1 + uy:.1f}",
                         "x2": f"{x2 - ux:.1f}", "y2": f"{y2 - uy:.1f}"}
        width, height = LEFT + 8 * S + RIGHT, TOP + 8 * S + BOTTOM
        return {"turn": state.get("turn", 0), "flipped": bool(flipped), "view_box": f"0 0 {width} {height}",
                "width": width, "height": height, "board_x": LEFT, "board_y": TOP, "board_size": 8 * S,
                "squares": squares, "files": files, "ranks": ranks, "arrow": arrow_ctx}

    def seat_stats(self, observation, seat):
        stacks = [s for s in (observation or {}).get("stacks") or [] if s["player"] == seat]
        return [("Tokens", sum(s["count"] for s in stacks)), ("Stacks", len(stacks))]

    def material(self, observation, seat):
        return sum(s["count"] for s in (observation or {}).get("stacks") or [] if s["player"] == seat)

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat, action, observation=None):
        if action[0] == "BOOM":
            a = action[1]
            return [{"key": f"sq:{a[0]},{a[1]}"}, {"key": "boom", "label": "Boom!"}]
        _, n, a, b = action
        return [{"key": f"sq:{a[0]},{a[1]}"}, {"key": f"n:{n}", "label": f"move {_tokens(n)}"},
                {"key": f"sq:{b[0]},{b[1]}"}]

    def action_group(self, seat, action, observation=None):
        return "Booms" if action[0] == "BOOM" else "Moves"
