"""The site's adapter for Cyclotron: the board drawing (``templates/cyclotron/_board.html``), words and click
input. Works from observations (``CyclotronState.to_json``) and canonical JSON actions only.

Click input: every action's path is its squares, each a step ``{"key": "sq:R,C", "label": "(R, C)"}``, and
every square of the board carries ``data-pick="sq:R,C"``: click the piece, the square it steps to, and for a
two-step capture the piece it captures.

``board(...)`` returns (for the template): ``turn``, ``flipped``, ``view_box``, ``cell`` (square size),
``squares`` (36 dicts: ``row``, ``col``, ``key``, ``x``, ``y`` (top left), ``cx``, ``cy`` (centre), ``cls``,
``label``, ``goal`` (whose goal it is, or None), ``piece`` (None or ``player``, ``kind``, ``letter``,
``shape``, ``label``, ``letter_y``)), ``pieces`` (the same piece dicts with ``row``/``col``), ``arrow``
(the last move's path as SVG points and its ``player``, or None), ``row_labels`` and ``col_labels``.
Square classes: ``light``/``dark``; ``goal goal-white`` on (0, 0) (White's goal, Black's Rock start) and
``goal goal-black`` on (5, 5); the last move: ``last-from``, ``last-via``, ``last-to``, ``last-capture``,
``last-goal``.
"""
from __future__ import annotations

from games.engine.ui import GameUI

from .rules import GOAL, SIDE_INDEX, SIZE, SQUARES

CELL = 60  # square size in SVG units
MARGIN = 24  # room for the row and column numbers (left and top)
PLAYER_TITLES = {"white": "White", "black": "Black"}
KIND_TITLES = {"rock": "Rock", "paper": "Paper", "scissors": "Scissors"}
LETTERS = {"rock": "R", "paper": "P", "scissors": "S"}
GOAL_SQUARE = {"white": SQUARES[GOAL[0]], "black": SQUARES[GOAL[1]]}  # the square each side must reach
GOAL_OF = {sq: side for side, sq in GOAL_SQUARE.items()}


def _sq(v) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


def _text(sq) -> str:
    return f"({sq[0]}, {sq[1]})"


def _other(seat: str) -> str:
    return "black" if seat == "white" else "white"


def _pieces(observation) -> dict:
    """Square -> (player, kind) of the pieces in an observation."""
    return {_sq(p["square"]): (p["player"], p["piece"]) for p in (observation or {}).get("pieces", [])}


def _shape(kind: str, cx: float, cy: float) -> dict:
    """A distinct outline per kind (not only a letter or a colour): rock a circle, paper a square, scissors a
    triangle."""
    k = CELL * 0.36
    if kind == "rock":
        return {"tag": "circle", "cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "r": f"{k:.1f}"}
    if kind == "paper":
        h = k * 0.86
        return {"tag": "rect", "x": f"{cx - h:.1f}", "y": f"{cy - h:.1f}", "w": f"{2 * h:.1f}", "h": f"{2 * h:.1f}"}
    t = k * 1.2
    pts = [(cx, cy - t), (cx + t * 0.866, cy + t * 0.5), (cx - t * 0.866, cy + t * 0.5)]
    return {"tag": "polygon", "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}


class UI(GameUI):
    board_template = "cyclotron/_board.html"
    tagline = "Rock, paper and scissors as pieces on a 6×6 board: race to the far corner."
    stylesheet = "cyclotron/board.css"
    legend = ("Rock is a circle, Paper a square, Scissors a triangle (R, P, S); White's pieces are light, "
              "Black's dark. Reach the dashed square where the opposing Rock started to win.")
    hint = ("Click a piece, then the square it moves to. To capture after a step, click the empty square "
            "first, then the piece.")
    chart_label = "Pieces"

    # --- words -------------------------------------------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return PLAYER_TITLES.get(seat, seat.title())

    def action_words(self, seat: str, action, observation=None) -> str:
        """E.g. ``Paper (5, 4) → (4, 4) × Rock (4, 3)`` given the position before the move (``observation``);
        without it the pieces are unknown: ``(5, 4) → (4, 4) × (4, 3)`` (a two-step move always captures)."""
        path = self.game.action_from_json(action, seat)
        pieces = _pieces(observation) if observation is not None else None
        dest = path[-1]
        if pieces is None:
            words = " → ".join(_text(sq) for sq in path[:2])
            if len(path) == 3:
                words += f" × {_text(dest)}"
        else:
            mover = pieces.get(path[0])
            words = (KIND_TITLES[mover[1]] + " " if mover else "") + _text(path[0])
            target = pieces.get(dest)
            capture = target is not None and target[0] != seat
            for sq in path[1:-1]:
                words += f" → {_text(sq)}"
            if capture:
                words += f" × {KIND_TITLES[target[1]]} {_text(dest)}"
            else:
                words += f" → {_text(dest)}"
        if GOAL_SQUARE.get(seat) == dest:
            words += ", reaching the goal"
        return words

    def event_words(self, event) -> str:
        if not isinstance(event, dict):
            return ""
        if "capture" in event:
            return (f"{_piece_title(event.get('by', ''))} captures {_piece_title(event.get('piece', ''))} on "
                    f"{_text(event['capture'])}")
        if "goal" in event:
            side = str(event.get("piece", "")).split(" ")[0]
            return (f"{_piece_title(event.get('piece', ''))} reaches {_text(event['goal'])}, where "
                    f"{self.seat_name(_other(side))}'s Rock started, and wins")
        if "no_legal_move" in event:
            return f"{self.seat_name(event['no_legal_move'])} has no legal move and loses"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        text = (outcome or {}).get("text") or ""
        winners = (outcome or {}).get("winners") or []
        winner = winners[0] if len(winners) == 1 else (text[len("winner: "):] if text.startswith("winner: ") else None)
        if winner not in SIDE_INDEX or observation is None:
            return super().result_reason(outcome, observation)
        loser = _other(winner)
        goal = GOAL_SQUARE[winner]
        if _pieces(observation).get(goal, ("",))[0] == winner:
            return f"{self.seat_name(winner)} reached {self.seat_name(loser)}'s Rock square."
        if not any(p["player"] == loser for p in observation.get("pieces", [])):
            return f"{self.seat_name(loser)} has no pieces left, so no legal move."
        return f"{self.seat_name(loser)} has no legal move."

    # --- drawing -----------------------------------------------------------------------------------
    def _xy(self, row: int, col: int, flipped: bool) -> tuple[int, int]:
        """Top-left corner of a square: row 0 on top, or (flipped) the board turned 180 degrees."""
        if flipped:
            row, col = SIZE - 1 - row, SIZE - 1 - col
        return col * CELL, row * CELL

    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        pieces = _pieces(obs)
        marks: dict[tuple[int, int], list[str]] = {}
        arrow = None
        if last:
            for seat, action in (last.get("actions") or {}).items():
                try:
                    path = [_sq(sq) for sq in action]
                except (TypeError, ValueError, IndexError, KeyError):
                    continue
                if not 2 <= len(path) <= 3:
                    continue
                marks.setdefault(path[0], []).append("last-from")
                for sq in path[1:-1]:
                    marks.setdefault(sq, []).append("last-via")
                marks.setdefault(path[-1], []).append("last-to")
                arrow = {"player": seat, "points": self._arrow_points(path, flipped)}
            for event in last.get("events") or []:
                if isinstance(event, dict) and "capture" in event:
                    marks.setdefault(_sq(event["capture"]), []).append("last-capture")
                if isinstance(event, dict) and "goal" in event:
                    marks.setdefault(_sq(event["goal"]), []).append("last-goal")
        squares, drawn = [], []
        for row in range(SIZE):
            for col in range(SIZE):
                x, y = self._xy(row, col, flipped)
                cx, cy = x + CELL / 2, y + CELL / 2
                cls = ["dark" if (row + col) % 2 else "light"]
                goal_of = GOAL_OF.get((row, col))
                if goal_of:
                    cls += ["goal", f"goal-{goal_of}"]
                cls += marks.get((row, col), [])
                piece = None
                here = pieces.get((row, col))
                words = "empty"
                if here:
                    player, kind = here
                    words = f"{PLAYER_TITLES.get(player, player)} {KIND_TITLES.get(kind, kind)}"
                    piece = {"row": row, "col": col, "player": player, "kind": kind, "letter": LETTERS.get(kind, "?"),
                             "shape": _shape(kind, cx, cy), "cx": f"{cx:.1f}",
                             "letter_y": f"{cy + (CELL * 0.09 if kind == 'scissors' else 0):.1f}",
                             "label": f"{words} on {_text((row, col))}"}
                    drawn.append(piece)
                label = f"{_text((row, col))}: {words}"
                if goal_of:
                    label += (f"; {PLAYER_TITLES[goal_of]}'s goal, where "
                              f"{PLAYER_TITLES[_other(goal_of)]}'s Rock started")
                squares.append({"row": row, "col": col, "key": f"sq:{row},{col}", "x": x, "y": y,
                                "cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "cls": " ".join(cls), "label": label,
                                "goal": goal_of, "piece": piece})
        span = SIZE * CELL
        order = list(range(SIZE))[::-1] if flipped else list(range(SIZE))
        row_labels = [{"text": n, "x": -MARGIN / 2, "y": f"{i * CELL + CELL / 2:.1f}"} for i, n in enumerate(order)]
        col_labels = [{"text": n, "x": f"{i * CELL + CELL / 2:.1f}", "y": -MARGIN / 2} for i, n in enumerate(order)]
        return {
            "turn": obs.get("turn", 0),
            "flipped": flipped,
            "view_box": f"{-MARGIN} {-MARGIN} {span + MARGIN + 4} {span + MARGIN + 4}",
            "cell": CELL,
            "size": span,
            "squares": squares,
            "pieces": drawn,
            "arrow": arrow,
            "row_labels": row_labels,
            "col_labels": col_labels,
            "to_move": obs.get("to_move"),
            "result": obs.get("result"),
        }

    def _arrow_points(self, path, flipped: bool) -> str:
        """The centres along ``path`` (the squares left behind are empty), the last one pulled back to the
        edge of its square so that the arrowhead does not cover the piece that moved."""
        pts = []
        for row, col in path:
            x, y = self._xy(row, col, flipped)
            pts.append([x + CELL / 2, y + CELL / 2])
        cut = CELL * 0.46
        dx, dy = pts[-2][0] - pts[-1][0], pts[-2][1] - pts[-1][1]
        d = (dx * dx + dy * dy) ** 0.5 or 1.0
        pts[-1] = [pts[-1][0] + dx * cut / d, pts[-1][1] + dy * cut / d]
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)

    def seat_stats(self, observation, seat: str) -> list:
        own = [p["piece"] for p in (observation or {}).get("pieces", []) if p["player"] == seat]
        return [("Pieces left", ", ".join(KIND_TITLES.get(k, k) for k in own) or "none")]

    def material(self, observation, seat: str):
        if observation is None:
            return None
        return float(sum(1 for p in observation.get("pieces", []) if p["player"] == seat))

    # --- input -------------------------------------------------------------------------------------
    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        return [{"key": f"sq:{int(sq[0])},{int(sq[1])}", "label": _text(sq)} for sq in action]

    def action_group(self, seat: str, action, observation=None) -> str:
        """"Captures" or "Moves". Exact given the position (``observation``); without it a two-step move is a
        capture and a single step is counted a move."""
        if observation is not None:
            target = _pieces(observation).get(_sq(action[-1]))
            return "Captures" if target is not None and target[0] != seat else "Moves"
        return "Captures" if len(action) == 3 else "Moves"


def _piece_title(name: str) -> str:
    """"white rock" -> "White's Rock"."""
    player, _, kind = str(name).partition(" ")
    return f"{PLAYER_TITLES.get(player, player.title())}'s {KIND_TITLES.get(kind, kind.title())}"
