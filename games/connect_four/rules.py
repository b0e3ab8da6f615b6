"""Connect Four on a 6-row, 7-column frame (rules: ``docs/games/connect_four.md``).

Yellow moves first, then the players alternate, each dropping a disc into a column that is not full; it falls
to the lowest empty cell. Four discs of one colour in a row, column or diagonal win at once; a full frame
without such a line is a draw.

An action is a column number 0-6, in JSON and as text. Cells are ``(row, col)`` with row 0 at the top.
Inside, each colour's discs are one int (a bitboard): 7 bits per column, bit ``col * 7 + height`` where
height 0 is the bottom cell; the 7th bit of each column stays empty, so that shifted lines never wrap from one
column into the next. The bots work on these ints directly.
"""
from __future__ import annotations

import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn
from games.engine.sequential import SequentialState

SEATS = ("yellow", "red")
SEAT_INDEX = {"yellow": 0, "red": 1}
LETTERS = ("y", "r")  # a colour's letter in the JSON board ("." empty)
ROWS, COLS = 6, 7
STRIDE = ROWS + 1  # bits per column
CELLS = ROWS * COLS
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (d row, d col): across, down, down-right, down-left

RESULTS = (Result.shared(SEATS, ["yellow"], "winner: yellow"), Result.shared(SEATS, ["red"], "winner: red"))
DRAW = Result.shared(SEATS, [], "draw")

_TEXT_ACTION = re.compile(r"\s*([0-6])\s*")


def bit(row: int, col: int) -> int:
    """The bitboard bit of cell (row, col), row 0 at the top."""
    return 1 << (col * STRIDE + ROWS - 1 - row)


def has_four(b: int) -> bool:
    """Whether the discs ``b`` hold four in a line (shifts by 1: vertical, 7: across, 6 and 8: diagonals)."""
    for s in (1, STRIDE, STRIDE - 1, STRIDE + 1):
        m = b & (b >> s)
        if m & (m >> 2 * s):
            return True
    return False


def runs(b: int) -> list[list[list[int]]]:
    """The maximal lines of four or more of the discs ``b``, each as its cells ``[row, col]`` in order."""
    out = []
    for dr, dc in DIRECTIONS:
        for r in range(ROWS):
            for c in range(COLS):
                pr, pc = r - dr, c - dc
                if not b & bit(r, c) or (0 <= pr < ROWS and 0 <= pc < COLS and b & bit(pr, pc)):
                    continue  # not the start of a run
                cells, y, x = [], r, c
                while 0 <= y < ROWS and 0 <= x < COLS and b & bit(y, x):
                    cells.append([y, x])
                    y, x = y + dr, x + dc
                if len(cells) >= 4:
                    out.append(cells)
    return out


def _malformed(player, action) -> IllegalAction:
    return IllegalAction(player, action, "malformed action: expected a column number 0 to 6")


def parse_column(player, action) -> int:
    """A column 0-6 from any value (bools are not numbers here), or IllegalAction "malformed action"."""
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < COLS:
        return action
    raise _malformed(player, action)


class ConnectFour(Game):
    info = GameInfo(name="connect_four", title="Connect Four", players=SEATS, simultaneous=False, max_turns=CELLS)
    params: Mapping = {}

    def new_initial_state(self) -> "ConnectFourState":
        return ConnectFourState()

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        return parse_column(player, data)

    def action_to_text(self, action) -> str:
        return str(action)

    def action_from_text(self, text, player=None):
        match = _TEXT_ACTION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise _malformed(player, text)
        return int(match.group(1))

    def state_from_json(self, data) -> "ConnectFourState":
        """A state from ``to_json`` output; ValueError unless it is a position of a real game, stated exactly
        as ``to_json`` would state it (turn, side to move, lines and result follow from the board)."""
        try:
            rows = data["board"]
            if type(data["turn"]) is not int:
                raise ValueError("turn must be an integer")
            if not isinstance(rows, list) or len(rows) != ROWS:
                raise ValueError(f"board must be a list of {ROWS} rows")
            bits = [0, 0]
            for r, row in enumerate(rows):
                if not isinstance(row, str) or len(row) != COLS or set(row) - {"y", "r", "."}:
                    raise ValueError(f"row {r} must be {COLS} characters of 'y', 'r' and '.', got {row!r}")
                for c, ch in enumerate(row):
                    if ch != ".":
                        bits[LETTERS.index(ch)] |= bit(r, c)
            state = ConnectFourState(bits)
            if data != state.to_json():
                raise ValueError("turn, to_move, lines or result do not follow from the board")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a Connect Four state: {exc}") from None
        return state


class ConnectFourState(SequentialState):
    game = None  # set below to the game object
    __slots__ = ("bits", "heights", "turn", "_result")

    def __init__(self, bits=None):
        """The position with these discs (yellow's bitboard, red's); ValueError if no game can reach it."""
        self.bits = list(bits) if bits is not None else [0, 0]
        y, r = self.bits
        full = (1 << ROWS) - 1
        self.heights = []
        for c in range(COLS):
            column = ((y | r) >> (c * STRIDE)) & ((1 << STRIDE) - 1)
            if column & (column + 1) or column > full:  # not a run of discs from the bottom
                raise ValueError(f"column {c} has a gap under a disc: discs fall to the lowest empty cell")
            self.heights.append(column.bit_count())
        if y & r or (y | r) >> (COLS * STRIDE):
            raise ValueError("a cell holds at most one disc")
        ny, nr = y.bit_count(), r.bit_count()
        if ny - nr not in (0, 1):
            raise ValueError("yellow moves first and the players alternate: yellow has as many discs as red, "
                             "or one more")
        self.turn = ny + nr
        self._result = None
        won = [has_four(b) for b in self.bits]
        if won[0] and won[1]:
            raise ValueError("both players have four in a line")
        for p in (0, 1):
            if won[p]:
                if ny - nr != 1 - p:
                    raise ValueError(f"{SEATS[p]} has four in a line but did not make the last move")
                b = self.bits[p]
                if not any(b & bit(ROWS - h, c) and not has_four(b & ~bit(ROWS - h, c))
                           for c, h in enumerate(self.heights) if h):
                    raise ValueError(f"{SEATS[p]} had four in a line before its last disc")
                self._result = RESULTS[p]
        if self._result is None and self.turn == CELLS:
            self._result = DRAW

    def clone(self) -> "ConnectFourState":
        c = ConnectFourState.__new__(ConnectFourState)
        c.bits, c.heights, c.turn, c._result = self.bits[:], self.heights[:], self.turn, self._result
        return c

    # --- status -------------------------------------------------------------------------------------
    def to_move(self) -> int:
        """Index of the seat to move (or that would move, once the game is over)."""
        return self.turn & 1

    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SEATS[self.turn & 1]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def winning_lines(self) -> list[list[list[int]]]:
        """The winner's lines of four or more (none while the game goes on or after a draw)."""
        if self._result is None or self._result.winner is None:
            return []
        return runs(self.bits[SEAT_INDEX[self._result.winner]])

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list[int]:
        if self._result is not None or player != SEATS[self.turn & 1]:
            return []
        return [c for c in range(COLS) if self.heights[c] < ROWS]

    def check_action(self, player: str, action) -> None:
        if player not in SEAT_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'yellow' or 'red')")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if SEAT_INDEX[player] != self.turn & 1:
            raise IllegalAction(player, action, f"it is {SEATS[self.turn & 1]}'s turn")
        col = parse_column(player, action)
        if self.heights[col] == ROWS:
            raise IllegalAction(player, action, f"column {col} is full: discs go into a column with room")

    def _apply_move(self, seat: str, col) -> Turn:
        """Drop a disc of ``seat`` (to move) into column ``col``."""
        self.check_action(seat, col)
        p = self.turn & 1
        b = self.bits[p] | 1 << (col * STRIDE + self.heights[col])
        self.bits[p] = b
        self.heights[col] += 1
        self.turn += 1
        events = []
        if has_four(b):
            self._result = RESULTS[p]
            events = [{"line": line} for line in runs(b)]
        elif self.turn == CELLS:
            self._result = DRAW
        return Turn(self.turn, {seat: col}, events)

    # --- views ----------------------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The frame as 6 strings, top row first: ``y``, ``r`` or ``.`` per cell."""
        y, r = self.bits
        return ["".join("y" if y & bit(row, c) else "r" if r & bit(row, c) else "." for c in range(COLS))
                for row in range(ROWS)]

    def to_json(self) -> dict:
        """``{"turn": discs dropped, "to_move": seat or null once over, "board": 6 row strings of y/r/., top
        row first, "lines": the winner's lines of four or more as lists of [row, col], "result": Result JSON
        or null}``."""
        return {
            "turn": self.turn,
            "to_move": None if self._result is not None else SEATS[self.turn & 1],
            "board": self.rows(),
            "lines": self.winning_lines(),
            "result": self._result.to_json() if self._result is not None else None,
        }

    def to_text(self) -> str:
        """The frame, top row first: ``Y``, ``R``, ``.`` for an empty cell, column numbers underneath."""
        status = self._result.text if self._result is not None else f"{SEATS[self.turn & 1]} to move"
        lines = [f"turn {self.turn}: {status}"] + [" ".join(row.upper()) for row in self.rows()]
        return "\n".join(lines + [" ".join(str(c) for c in range(COLS))])


GAME = ConnectFour()
ConnectFourState.game = GAME
