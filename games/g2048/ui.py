"""The site's adapter for 2048: the board drawing (``templates/g2048/_board.html``), words and input. Works
from observations (``G2048State.to_json``) and canonical JSON actions only.

Input: each move is one step whose key is not on the board (``{"key": "left", "label": "← Left"}``), so the
page offers four buttons; the page's own script maps the arrow keys and swipes to the same keys.

``board(...)`` returns (for the template): ``turn``, ``size`` (the SVG's width and height), ``mid`` (half of
it), ``cell``, ``cells`` (the 16 background squares: ``x``, ``y``), ``tiles`` (``row``, ``col``, ``value``,
``x``, ``y``, ``tx``, ``ty`` (the number's centre), ``cls`` (``v8``, or ``vbig`` above 2048, and ``d1`` to
``d6``: its digits), ``face`` (animation: ``new`` for a tile just added, ``merged``), ``slide`` (a CSS
``--dx``/``--dy`` style when the last move slid it here, else ""), ``label``), ``ghosts`` (the tiles that
merged, drawn sliding in and vanishing: ``value``, ``x``, ``y``, ``tx``, ``ty``, ``cls``, ``slide``),
``score``, ``best``, ``over``.
"""
from __future__ import annotations

from games.engine.ui import GameUI

from .rules import SIZE

CELL = 100  # tile size in SVG units
GAP = 12
STEP = CELL + GAP
LABELS = {"left": "← Left", "up": "↑ Up", "right": "→ Right", "down": "↓ Down"}


def _xy(row: int, col: int) -> tuple[int, int]:
    return GAP + col * STEP, GAP + row * STEP


def _cls(value: int) -> str:
    return f"v{value if value <= 2048 else 'big'} d{len(str(value))}"


def _where(row: int, col: int) -> str:
    return f"row {row + 1}, column {col + 1}"


class UI(GameUI):
    board_template = "g2048/_board.html"
    tagline = "Slide the tiles, merge equal numbers and reach 2048."
    stylesheet = "g2048/board.css"
    legend = ("Every tile shows its number. Equal tiles that meet merge into their sum, which is added to the "
              "score; after each move a new 2 (or, one time in ten, a 4) appears on an empty cell.")
    hint = "Slide the tiles with the arrow keys, a swipe on the board, or the direction buttons."
    flippable = False
    chart_label = "Score"
    shortcuts = {**{f"Arrow{d.title()}": d for d in ("left", "up", "right", "down")},
                 **{f"swipe-{d}": d for d in ("left", "up", "right", "down")}}

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return "Player"

    def action_words(self, seat: str, action, observation=None) -> str:
        return LABELS[self.game.action_from_json(action, seat)]

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "new_tile" in event:
            r, c, v = event["new_tile"]
            return f"A {v} appears at {_where(r, c)}"
        if "merged" in event:
            values = ", ".join(str(m[2]) for m in event["merged"])
            return f"Merged into {values}: +{event.get('points', 0)} points"
        if "reached" in event:
            return f"Reached the {event['reached']} tile!"
        if "game_over" in event:
            return "No tile can move: the game is over"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        if observation is None:
            return super().result_reason(outcome, observation)
        best = max(v for row in observation["board"] for v in row)
        return f"No tile can move any more: final score {observation['score']}, best tile {best}."

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        grid = obs.get("board") or [[0] * SIZE for _ in range(SIZE)]
        new = {(t[0], t[1]) for t in obs.get("new_tiles", [])}
        move = obs.get("last_move") or {"slides": [], "merged": []}
        merged = {tuple(m) for m in move["merged"]}
        sources: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for fr, fc, tr, tc in move["slides"]:
            sources.setdefault((tr, tc), []).append((fr, fc))
        tiles, ghosts = [], []
        for r in range(SIZE):
            for c in range(SIZE):
                value = grid[r][c]
                if not value:
                    continue
                x, y = _xy(r, c)
                face, slide = "", ""
                if (r, c) in new:
                    face = "new"
                elif (r, c) in merged:
                    face = "merged"
                    moved = sources.get((r, c), [])
                    for src in ([(r, c)] if len(moved) < 2 else []) + moved:
                        ghosts.append({"value": value // 2, "x": x, "y": y, "tx": x + CELL // 2, "ty": y + CELL // 2,
                                       "cls": _cls(value // 2), "slide": self._slide(src, (r, c))})
                elif (r, c) in sources:
                    slide = self._slide(sources[(r, c)][0], (r, c))
                tiles.append({"row": r, "col": c, "value": value, "x": x, "y": y, "tx": x + CELL // 2,
                              "ty": y + CELL // 2, "cls": _cls(value), "face": face, "slide": slide,
                              "label": f"{value} at {_where(r, c)}" + (" (new)" if face == "new" else "")})
        span = SIZE * STEP + GAP
        return {
            "turn": obs.get("turn", 0),
            "size": span,
            "mid": span // 2,
            "cell": CELL,
            "cells": [{"x": _xy(r, c)[0], "y": _xy(r, c)[1]} for r in range(SIZE) for c in range(SIZE)],
            "tiles": tiles,
            "ghosts": ghosts,
            "score": obs.get("score", 0),
            "best": max((v for row in grid for v in row), default=0),
            "over": obs.get("result") is not None,
        }

    @staticmethod
    def _slide(src, dest) -> str:
        """The CSS offset a tile slides in from (SVG user units), or "" if it did not move."""
        dx, dy = (src[1] - dest[1]) * STEP, (src[0] - dest[0]) * STEP
        return f"--dx: {dx}px; --dy: {dy}px" if dx or dy else ""

    def seat_stats(self, observation, seat: str) -> list:
        if not observation:
            return []
        best = max(v for row in observation["board"] for v in row)
        return [("Score", observation["score"]), ("Best tile", best)]

    def chance_words(self, outcome) -> str:
        row, col, value = outcome
        return f"a {value} appears at row {row + 1}, column {col + 1}"

    def score(self, observation):
        return None if not observation else observation["score"]

    def material(self, observation, seat: str):
        return None if observation is None else float(observation["score"])

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        return [{"key": action, "label": LABELS[action]}]
