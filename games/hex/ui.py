"""The site's adapter for Hex: the rhombus of hexagons (``templates/hex/_board.html``), words and click input.
Works from observations (``HexState.to_json``) and canonical JSON actions only.

Words: cells as Hex players write them, a letter for the column and a number for the row (a1 at the top left,
where the engine's (0, 0) is). Click input: a move is one click, ``{"key": "cell:R,C", "label": "c2"}``;
every hexagon carries ``data-pick="cell:R,C"``.

``board(...)`` returns (for the template): ``turn``, ``flipped``, ``view_box``, ``size``, ``radius`` (of a
stone), ``cells`` (dicts: ``row``, ``col``, ``key``, ``points`` (the hexagon), ``cx``, ``cy``, ``cls``,
``label``, ``stone`` ("black", "white" or None), ``last``, ``mark`` (the diamond drawn on the last stone)),
``rims`` (edge segments ``x1 y1 x2 y2`` with ``side``: the outer edges of the border hexagons, Black's along
the top and bottom rows, White's along the left and right columns), ``rim_labels``, ``coords`` (the column
letters and row numbers: ``text``, ``x``, ``y``), ``chain`` (the winning
chain's centres as SVG points, or "") and ``winner``.
"""
from __future__ import annotations

import math

from games.engine.ui import GameUI, Param

R = 20.0  # hexagon circumradius in SVG units
W = math.sqrt(3) * R  # hexagon width (pointy top)
MARGIN = 30.0  # room for the rims and their letters
TITLES = {"black": "Black", "white": "White"}
STONE = {"B": "black", "W": "white"}
# The hexagon's corners, clockwise from the top; edge k runs from corner k to k + 1 and faces the neighbour
# EDGE_STEP[k] (a pointy-top hexagon at x = (col + row / 2) * W, y = row * 1.5 * R).
CORNERS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (-90, -30, 30, 90, 150, 210))
EDGE_STEP = ((-1, 1), (0, 1), (1, 0), (1, -1), (0, -1), (-1, 0))
DIAMOND = ((0, -6), (6, 0), (0, 6), (-6, 0))  # the last stone's mark, around its centre


def _text(sq) -> str:
    """A cell in Hex notation: row 1, column 2 (from 0) is c2."""
    return f"{chr(ord('a') + int(sq[1]))}{int(sq[0]) + 1}"


class UI(GameUI):
    board_template = "hex/_board.html"
    tagline = "Join your two sides of the rhombus before the other player joins theirs."
    stylesheet = "hex/board.css"
    legend = ("Black (dark stones) joins the dark top and bottom rims; White (light stones with a ring) joins the "
              "light left and right rims. The last stone has a diamond; a winning chain is outlined.")
    hint = "Click an empty hexagon to place a stone there."
    flippable = False  # turned round, the board shows the same rims on the same sides

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return TITLES.get(seat, seat.title())

    def action_words(self, seat: str, action, observation=None) -> str:
        return _text(self.game.action_from_json(action, seat))

    def event_words(self, event) -> str:
        if isinstance(event, dict) and "chain" in event:
            side = event.get("winner")
            rims = "top and bottom" if side == "black" else "left and right"
            return f"{self.seat_name(str(side))} joins {rims} with a chain of {len(event['chain'])} stones"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        winners = (outcome or {}).get("winners") or []
        if len(winners) != 1:
            return super().result_reason(outcome, observation)
        rims = "top and bottom rows" if winners[0] == "black" else "left and right columns"
        return f"{self.seat_name(winners[0])} joined the {rims} with an unbroken chain."

    # --- drawing -----------------------------------------------------------------------------------
    def _centre(self, r: int, c: int, flipped: bool) -> tuple[float, float]:
        n = self.game.size
        if flipped:
            r, c = n - 1 - r, n - 1 - c
        return MARGIN + W / 2 + (c + r / 2) * W, MARGIN + R + r * 1.5 * R

    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        game = self.game
        n = game.size
        state = game.state_from_json(observation) if observation else game.new_initial_state()
        obs = state.to_json()
        placed = None
        for action in ((last or {}).get("actions") or {}).values():
            if isinstance(action, list) and len(action) == 2:
                placed = (int(action[0]), int(action[1]))
        res = state.result()
        winner = res.winner if res else None
        chain = state.chain(0 if winner == "black" else 1) if winner else []
        in_chain = {game.cells[i] for i in chain}
        cells, rims = [], []
        for r, row in enumerate(obs["board"]):
            for c, ch in enumerate(row):
                cx, cy = self._centre(r, c, flipped)
                corners = [(cx + R * dx, cy + R * dy) for dx, dy in CORNERS]
                stone = STONE.get(ch)
                cls = ["cell"]
                if (r, c) == placed:
                    cls.append("last")
                if (r, c) in in_chain:
                    cls.append("chain")
                words = f"{TITLES[stone]} stone" if stone else "empty"
                if (r, c) == placed:
                    words += ", just placed"
                if (r, c) in in_chain:
                    words += ", in the winning chain"
                cells.append({"row": r, "col": c, "key": f"cell:{r},{c}", "cx": f"{cx:.1f}", "cy": f"{cy:.1f}",
                              "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in corners), "cls": " ".join(cls),
                              "label": f"{_text((r, c))}: {words}", "stone": stone, "last": (r, c) == placed,
                              "mark": " ".join(f"{cx + dx:.1f},{cy + dy:.1f}" for dx, dy in DIAMOND)})
                for k, (dr, dc) in enumerate(EDGE_STEP):
                    off_row, off_col = not 0 <= r + dr < n, not 0 <= c + dc < n
                    if off_row != off_col:  # off the board one way only: a black (row) or white (column) rim
                        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 6]
                        rims.append({"side": "black" if off_row else "white", "x1": f"{x1:.1f}", "y1": f"{y1:.1f}",
                                     "x2": f"{x2:.1f}", "y2": f"{y2:.1f}"})
        width = 2 * MARGIN + W * (n + (n - 1) / 2)
        height = 2 * MARGIN + 2 * R + 1.5 * R * (n - 1)
        return {
            "turn": obs["turn"],
            "flipped": flipped,
            "view_box": f"0 0 {width:.1f} {height:.1f}",
            "size": n,
            "radius": f"{R * 0.72:.1f}",
            "ring": f"{R * 0.36:.1f}",
            "cells": cells,
            "rims": rims,
            "rim_labels": self._rim_labels(n, flipped),
            "coords": self._coords(n, flipped),
            "chain": " ".join("{:.1f},{:.1f}".format(*self._centre(*game.cells[i], flipped)) for i in chain),
            "winner": winner,
            "to_move": obs["to_move"],
        }

    def _coords(self, n: int, flipped: bool) -> list[dict]:
        """The cells' names as moves say them: column letters above the top row, row numbers left of each
        row (below and right when the board is turned)."""
        k = -1 if flipped else 1
        out = []
        for c in range(n):
            cx, cy = self._centre(0, c, flipped)
            out.append({"text": chr(ord("a") + c), "x": f"{cx:.1f}", "y": f"{cy - k * (R + 14):.1f}"})
        for r in range(n):
            cx, cy = self._centre(r, 0, flipped)
            out.append({"text": str(r + 1), "x": f"{cx - k * (W / 2 + 18):.1f}", "y": f"{cy:.1f}"})
        return out

    def _rim_labels(self, n: int, flipped: bool) -> list[dict]:
        """A letter beyond the middle of the bottom rim (B) and of the right one (W); the top and left sides
        carry the cells' names."""
        out = []
        for side, letter, (r, c), (dx, dy) in (("black", "B", (n - 1, (n - 1) / 2), (0, 1.9)),
                                               ("white", "W", ((n - 1) / 2, n - 1), (1.55, 0))):
            cx, cy = self._centre(r, c, flipped)
            out.append({"side": side, "letter": letter, "x": f"{cx + dx * R:.1f}", "y": f"{cy + dy * R:.1f}"})
        return out

    def seat_stats(self, observation, seat: str) -> list:
        rows = (observation or {}).get("board") or []
        return [("Stones", "".join(rows).count("B" if seat == "black" else "W"))]

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        return [{"key": f"cell:{int(action[0])},{int(action[1])}", "label": _text(action)}]

    # --- the lobby ---------------------------------------------------------------------------------
    def params(self) -> list[Param]:
        return [Param("size", "Board size", 11, minimum=2, maximum=19)]
