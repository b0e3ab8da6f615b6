"""The site's adapter for Connect Four: the frame drawing (``templates/connect_four/_board.html``), words and
click input. Works from observations (``ConnectFourState.to_json``) and JSON actions (column numbers) only.

Words: columns are numbered 1-7 from the left, rows 1-6 from the bottom, as players count them (the engine's
columns are 0-6). Click input: one step per action, ``{"key": "col:N", "label": "Column N+1"}``; each column of the frame is one
click target, a rect as high as the frame carrying ``data-pick="col:N"``.

``board(...)`` returns: ``turn``, ``view_box``, ``cell``, ``width``/``height`` (of the frame), ``r`` (hole
radius), ``holes`` (42 dicts: ``row``, ``col``, ``cx``, ``cy``, ``disc`` (``yellow``, ``red`` or None),
``letter``, ``cls``), ``columns`` (7 dicts: ``col``, ``key``, ``x``, ``label``, ``cls`` (``full`` when no room
is left), ``arrow`` (the drop marker above the column, SVG points)), ``lines`` (the winning lines as strokes).
Hole classes: ``empty`` or ``disc yellow``/``disc red``, ``last`` (the last disc), ``win`` (on a winning line).
"""
from __future__ import annotations

from games.engine.ui import GameUI

ROWS, COLS = 6, 7
CELL = 60
TOP = 30  # room above the frame for the drop markers
SEAT_TITLES = {"yellow": "Yellow", "red": "Red"}
DISCS = {"y": "yellow", "r": "red"}


def _centre(row: int, col: int) -> tuple[int, int]:
    return col * CELL + CELL // 2, row * CELL + CELL // 2


def _column(col: int) -> str:
    return f"Column {col + 1}"


def _cell(row: int, col: int) -> str:
    """A hole as players name it: column 1-7 from the left, row 1-6 from the bottom."""
    return f"column {col + 1}, row {ROWS - row}"


def _grid(observation) -> list[list]:
    """The discs of an observation by [row][col] (row 0 at the top): ``yellow``, ``red`` or None."""
    rows = (observation or {}).get("board") or ["." * COLS] * ROWS
    return [[DISCS.get(ch) for ch in row] for row in rows]


class UI(GameUI):
    board_template = "connect_four/_board.html"
    tagline = "Drop discs into seven columns: four in a row wins."
    stylesheet = "connect_four/board.css"
    legend = "Yellow discs are marked Y, red discs R with a ring; four in a line across, down or diagonally win."
    hint = "Click a column to drop your disc into it."
    flippable = False

    def seat_name(self, seat: str) -> str:
        return SEAT_TITLES.get(seat, seat.title())

    def action_words(self, seat: str, action, observation=None) -> str:
        return _column(self.game.action_from_json(action, seat))

    def event_words(self, event) -> str:
        if isinstance(event, dict) and isinstance(event.get("line"), list):
            line = event["line"]
            return f"Four in a line from {_cell(*line[0])} to {_cell(*line[-1])}"
        return ""

    def result_reason(self, outcome: dict, observation) -> str:
        winners = (outcome or {}).get("winners") or []
        if len(winners) == 1:
            return f"{self.seat_name(winners[0])} has four in a line."
        return "The frame is full without four in a line."

    def board(self, observation, *, flipped: bool = False, last: dict | None = None) -> dict:
        obs = observation or {}
        grid = _grid(obs)
        last_col = None
        for action in ((last or {}).get("actions") or {}).values():
            if isinstance(action, int) and 0 <= action < COLS:
                last_col = action
        last_row = next((r for r in range(ROWS) if grid[r][last_col]), None) if last_col is not None else None
        on_line = {(r, c) for line in obs.get("lines") or [] for r, c in line}
        holes = []
        for r in range(ROWS):
            for c in range(COLS):
                disc = grid[r][c]
                cx, cy = _centre(r, c)
                cls = ["empty"] if disc is None else ["disc", disc]
                if (r, c) == (last_row, last_col):
                    cls.append("last")
                if (r, c) in on_line:
                    cls.append("win")
                holes.append({"row": r, "col": c, "cx": cx, "cy": cy, "disc": disc, "cls": " ".join(cls),
                              "letter": disc[0].upper() if disc else ""})
        columns = []
        for c in range(COLS):
            stack = [grid[r][c] for r in range(ROWS - 1, -1, -1) if grid[r][c]]
            room = ROWS - len(stack)
            label = f"{_column(c)}: empty"
            if stack:
                label = (f"{_column(c)} (bottom to top): {', '.join(SEAT_TITLES[d] for d in stack)}; "
                         + (f"room for {room}" if room else "full"))
            if c == last_col:
                label += "; the last disc went here"
            cx = c * CELL + CELL // 2
            arrow = f"{cx - 10},{-TOP + 6} {cx + 10},{-TOP + 6} {cx},{-6}"
            columns.append({"col": c, "key": f"col:{c}", "x": c * CELL, "label": label, "arrow": arrow,
                            "cls": "full" if not room else ""})
        lines = []
        for line in obs.get("lines") or []:
            (x1, y1), (x2, y2) = _centre(*line[0]), _centre(*line[-1])
            lines.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})
        width, height = COLS * CELL, ROWS * CELL
        return {
            "turn": obs.get("turn", 0),
            "flipped": False,
            "view_box": f"-8 {-TOP} {width + 16} {height + TOP + 8}",
            "cell": CELL,
            "top": TOP,
            "width": width,
            "height": height,
            "r": CELL * 40 // 100,
            "holes": holes,
            "columns": columns,
            "lines": lines,
            "to_move": obs.get("to_move"),
        }

    def seat_stats(self, observation, seat: str) -> list:
        return [("Discs", sum(1 for row in _grid(observation) for d in row if d == seat))]

    def action_path(self, seat: str, action, observation=None) -> list[dict]:
        col = self.game.action_from_json(action, seat)
        return [{"key": f"col:{col}", "label": _column(col)}]
