"""The site's adapter for Othello: the green board (``templates/othello/_board.html``), words and click input.
Works from observations (``OthelloState.to_json``) and canonical JSON actions only.

Words: squares as Othello players name them, a1 to h8 (letters for columns from the left, numbers for rows
from the top). Click input: a placement is one click, ``{"key": "cell:R,C", "label": "d3"}``, and every
square carries ``data-pick="cell:R,C"``; a pass is ``{"key": "pass", "label": "Pass"}``, not on the board, so the page
offers it as a button.

``board(...)`` returns (for the template): ``turn``, ``flipped``, ``view_box``, ``cell`` (square size),
``span`` (board size), ``cells`` (64 dicts: ``row``, ``col``, ``key``, ``x``, ``y`` (top left), ``cx``, ``cy``
(centre), ``cls``, ``label``, ``disc`` ("black", "white" or None), ``hint`` (True where the side to move may
place: a small dot), ``last`` (the disc just placed: a marker), ``flip`` (flipped by the last move: a ring)),
``stars`` (the four marker points), ``row_labels``, ``col_labels``, ``to_move`` and ``counts``.
"""
from __future__ import annotations

from games.engine.ui import GameUI

from .rules import GAME, PASS, SIZE

CELL = 50  # square size in SVG units
MARGIN = 22  # room for the row and column numbers
TITLES = {"black": "Black", "white": "White"}
DISC = {"B": "black", "W": "white"}


def _sq(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _text(sq) -> str:
    """A square in Othello notation: (2, 3) is d3."""
    return f"{'abcdefgh'[int(sq[1])]}{int(sq[0]) + 1}"


def _counts(observation) -> dict[str, int]:
    rows = (observation or {}).get("board") or []
    text = "".join(rows)
    return {"black": text.count("B"), "white": text.count("W")}


class UI(GameUI):
    board_template = "othello/_board.html"
    tagline = "Outflank and flip your opponent's discs: the most discs at the end wins."
    stylesheet = "othello/board.css"
    legend = ("Black's discs are dark, White's light. Dots mark where the player to move may place; the last "
              "disc placed has a diamond, the discs it flipped a dashed ring.")
    hint = "Click a square with a dot to place a disc there; with no dot on the board, pass."
    flippable = False  # the board looks the same from either side
    chart_label = "Discs"

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return TITLES.get(seat, seat.title())

    def action_words(self, seat: str, action, observation=None) -> str:
        move = self.game.action_from_json(action, seat)
        return "Pass" if move == PASS else _text(move)

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "flips" in event:
            n = len(event["flips"])
            return f"{n} disc{'s' if n != 1 else ''} flipped: " + ", ".join(_text(sq) for sq in event["flips"])
        if "must_pass" in event:
            return f"{self.seat_name(event['must_pass'])} has no placement and must pass"
        if "end" in event:
            counts = event["end"]
            return (f"Neither player can place: the game is over, Black {counts.get('black')} discs, "
                    f"White {counts.get('white')}")
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        if observation is None:
            return super().result_reason(outcome, observation)
        counts = _counts(observation)
        return (f"Neither player can place; Black has {counts['black']} discs, White {counts['white']}.")

    # --- drawing -----------------------------------------------------------------------------------
    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or GAME.new_initial_state().to_json()
        state = self.game.state_from_json(obs)
        to_move = obs.get("to_move")
        hints = {tuple(a) for a in state.legal_actions(to_move) if a != PASS} if to_move else set()
        placed, flipped_now = None, set()
        for action in ((last or {}).get("actions") or {}).values():
            if isinstance(action, list) and len(action) == 2:
                placed = _sq(action)
        for event in (last or {}).get("events") or []:
            if isinstance(event, dict) and "flips" in event:
                flipped_now |= {_sq(sq) for sq in event["flips"]}
        cells = []
        for r, row in enumerate(obs["board"]):
            for c, ch in enumerate(row):
                vr, vc = (SIZE - 1 - r, SIZE - 1 - c) if flipped else (r, c)
                x, y = vc * CELL, vr * CELL
                disc = DISC.get(ch)
                cls = ["cell"]
                if (r, c) in hints:
                    cls.append("hint")
                if (r, c) == placed:
                    cls.append("last")
                if (r, c) in flipped_now:
                    cls.append("flip")
                if disc:
                    words = f"{TITLES[disc]} disc" + (", just placed" if (r, c) == placed else
                                                      ", just flipped" if (r, c) in flipped_now else "")
                elif (r, c) in hints:
                    words = f"empty, {TITLES[to_move]} may place here"
                else:
                    words = "empty"
                cells.append({"row": r, "col": c, "key": f"cell:{r},{c}", "x": x, "y": y,
                              "cx": x + CELL // 2, "cy": y + CELL // 2, "cls": " ".join(cls),
                              "label": f"{_text((r, c))}: {words}", "disc": disc, "hint": (r, c) in hints,
                              "last": (r, c) == placed, "flip": (r, c) in flipped_now})
        order = list(range(SIZE))[::-1] if flipped else list(range(SIZE))
        span = SIZE * CELL
        return {
            "turn": obs.get("turn", 0),
            "flipped": flipped,
            "view_box": f"{-MARGIN} {-MARGIN} {span + MARGIN + 4} {span + MARGIN + 4}",
            "cell": CELL,
            "span": span,
            "cells": cells,
            "stars": [{"x": 2 * CELL, "y": 2 * CELL}, {"x": 6 * CELL, "y": 2 * CELL},
                      {"x": 2 * CELL, "y": 6 * CELL}, {"x": 6 * CELL, "y": 6 * CELL}],
            "row_labels": [{"text": n + 1, "x": -MARGIN / 2, "y": i * CELL + CELL / 2} for i, n in enumerate(order)],
            "col_labels": [{"text": "abcdefgh"[n], "x": i * CELL + CELL / 2, "y": -MARGIN / 2}
                           for i, n in enumerate(order)],
            "to_move": to_move,
            "counts": _counts(obs),
        }

    def seat_stats(self, observation, seat: str) -> list:
        return [("Discs", _counts(observation).get(seat, 0))]

    def material(self, observation, seat: str):
        if observation is None:
            return None
        return float(_counts(observation).get(seat, 0))

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        if action == PASS:
            return [{"key": "pass", "label": "Pass"}]
        return [{"key": f"cell:{int(action[0])},{int(action[1])}", "label": _text(action)}]

    def action_group(self, seat: str, action, observation=None) -> str:
        return "Pass" if action == PASS else "Placements"
