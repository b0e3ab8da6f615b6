"""The site's adapter for tic-tac-toe: the grid drawing (``templates/tic_tac_toe/_board.html``), words and
click input. Works from observations (``TicTacToeState.to_json``) and JSON actions (cell numbers) only.

Words: a cell by its name, as people say it ("Top left", "Centre"). Click input: one step per action,
``{"key": "cell:N", "label": "Centre"}``; every cell of the grid
carries ``data-pick="cell:N"``.

``board(...)`` returns: ``turn``, ``view_box``, ``cell`` (cell size), ``size``, ``cells`` (9 dicts: ``index``,
``row``, ``col``, ``key``, ``x``, ``y`` (top left), ``cx``, ``cy``, ``mark`` (``x``, ``o`` or None),
``cls``, ``label``, ``cross`` (X's two strokes as x1 y1 x2 y2 dicts) and ``r`` (O's radius)), ``lines`` (the
winning lines as strokes) and ``grid`` (the four grid lines). Cell classes: ``empty``/``mark-x``/``mark-o``,
``last`` (the last move), ``win`` (on a winning line).
"""
from __future__ import annotations

from games.engine.ui import GameUI

CELL = 100
PAD = 8  # room around the grid
NAMES = ("Top left", "Top middle", "Top right", "Middle left", "Centre", "Middle right", "Bottom left",
         "Bottom middle", "Bottom right")
SEAT_TITLES = {"x": "X", "o": "O"}


def cell_label(cell: int) -> str:
    """E.g. ``Centre``, ``Top left``."""
    return NAMES[cell]


def _centre(r: int, c: int) -> tuple[int, int]:
    return c * CELL + CELL // 2, r * CELL + CELL // 2


def _marks(observation) -> list:
    """The 9 marks of an observation's board, ``x``/``o``/None, cell by cell."""
    rows = (observation or {}).get("board") or ["..."] * 3
    return [None if ch == "." else ch for row in rows for ch in row]


class UI(GameUI):
    board_template = "tic_tac_toe/_board.html"
    tagline = "Three in a row on a 3×3 grid."
    stylesheet = "tic_tac_toe/board.css"
    legend = "X is a cross, O a ring; three in a row, column or diagonal win."
    hint = "Click an empty cell to put your mark there."
    flippable = False

    def seat_name(self, seat: str) -> str:
        return SEAT_TITLES.get(seat, seat.title())

    def action_words(self, seat: str, action, observation=None) -> str:
        return cell_label(self.game.action_from_json(action, seat))

    def event_words(self, event) -> str:
        if isinstance(event, dict) and isinstance(event.get("line"), list):
            return "Three in a line: " + ", ".join(cell_label(3 * r + c).lower() for r, c in event["line"])
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        winners = (outcome or {}).get("winners") or []
        if len(winners) == 1:
            return f"{self.seat_name(winners[0])} has three in a line."
        return "The grid is full without a line of three."

    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        marks = _marks(obs)
        last_cell = None
        for action in ((last or {}).get("actions") or {}).values():
            if isinstance(action, int) and 0 <= action <= 8:
                last_cell = action
        on_line = {(r, c) for line in obs.get("lines") or [] for r, c in line}
        k = CELL * 28 // 100  # half the size of a mark
        cells = []
        for i, mark in enumerate(marks):
            r, c = divmod(i, 3)
            cx, cy = _centre(r, c)
            cls = ["empty" if mark is None else f"mark-{mark}"]
            if i == last_cell:
                cls.append("last")
            if (r, c) in on_line:
                cls.append("win")
            words = "empty" if mark is None else SEAT_TITLES.get(mark, mark)
            if i == last_cell:
                words += ", the last move"
            cross = [{"x1": cx - k, "y1": cy - k, "x2": cx + k, "y2": cy + k},
                     {"x1": cx - k, "y1": cy + k, "x2": cx + k, "y2": cy - k}]
            cells.append({"index": i, "row": r, "col": c, "key": f"cell:{i}", "x": c * CELL, "y": r * CELL,
                          "cx": cx, "cy": cy, "mark": mark, "cls": " ".join(cls), "cross": cross, "r": k,
                          "label": f"{cell_label(i)}: {words}"})
        lines = []
        for line in obs.get("lines") or []:
            (x1, y1), (x2, y2) = _centre(*line[0]), _centre(*line[-1])
            lines.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})
        span = 3 * CELL
        grid = [{"x1": i * CELL, "y1": 0, "x2": i * CELL, "y2": span} for i in (1, 2)]
        grid += [{"x1": 0, "y1": i * CELL, "x2": span, "y2": i * CELL} for i in (1, 2)]
        return {
            "turn": obs.get("turn", 0),
            "flipped": False,
            "view_box": f"{-PAD} {-PAD} {span + 2 * PAD} {span + 2 * PAD}",
            "cell": CELL,
            "size": span,
            "cells": cells,
            "lines": lines,
            "grid": grid,
            "to_move": obs.get("to_move"),
        }

    def seat_stats(self, observation, seat: str) -> list:
        return [("Marks", sum(1 for m in _marks(observation) if m == seat))]

    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        cell = self.game.action_from_json(action, seat)
        return [{"key": f"cell:{cell}", "label": cell_label(cell)}]
