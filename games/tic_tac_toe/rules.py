"""Tic-tac-toe on a 3x3 grid (rules: ``docs/games/tic_tac_toe.md``).

X moves first, then the players alternate, each putting a mark on an empty cell. Three marks of one player in
a row, column or diagonal win at once; a full grid without such a line is a draw.

Cells are numbered ``3 * row + col`` (row 0 at the top); an action is that number, in JSON and as text.
Inside, each seat's marks are one int, bit ``cell`` set for each of its cells.
"""
from __future__ import annotations

import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn
from games.engine.sequential import SequentialState

SEATS = ("x", "o")
SEAT_INDEX = {"x": 0, "o": 1}
CELLS = tuple((r, c) for r in range(3) for c in range(3))  # CELLS[i] = (row, col)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)
FULL = (1 << 9) - 1
MARKS = ("x", "o")  # a seat's letter in the JSON board ("." empty)

RESULTS = (Result.shared(SEATS, ["x"], "winner: x"), Result.shared(SEATS, ["o"], "winner: o"))
DRAW = Result.shared(SEATS, [], "draw")

_TEXT_ACTION = re.compile(r"\s*([0-8])\s*")


def cell_text(cell: int) -> str:
    r, c = CELLS[cell]
    return f"cell {cell} (row {r}, column {c})"


def lines_of(bits: int) -> list[tuple[int, ...]]:
    """The lines that ``bits`` (one seat's marks) completes."""
    return [line for line, m in zip(LINES, LINE_MASKS) if bits & m == m]


def _malformed(player, action) -> IllegalAction:
    return IllegalAction(player, action, "malformed action: expected a cell index 0 to 8 (3 * row + col)")


def parse_cell(player, action) -> int:
    """A cell index 0-8 from any value (bools are not numbers here), or IllegalAction "malformed action"."""
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action <= 8:
        return action
    raise _malformed(player, action)


class TicTacToe(Game):
    info = GameInfo(name="tic_tac_toe", title="Tic-tac-toe", players=SEATS, simultaneous=False, max_turns=9)
    params: Mapping = {}

    def new_initial_state(self) -> "TicTacToeState":
        return TicTacToeState()

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        return parse_cell(player, data)

    def action_to_text(self, action) -> str:
        return str(action)

    def action_from_text(self, text, player=None):
        match = _TEXT_ACTION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise _malformed(player, text)
        return int(match.group(1))

    def state_from_json(self, data) -> "TicTacToeState":
        """A state from ``to_json`` output; ValueError unless it is a position of a real game, stated exactly
        as ``to_json`` would state it (turn, side to move, lines and result follow from the grid)."""
        try:
            rows = data["board"]
            if type(data["turn"]) is not int:
                raise ValueError("turn must be an integer")
            if not isinstance(rows, list) or len(rows) != 3:
                raise ValueError("board must be a list of 3 rows")
            bits = [0, 0]
            for r, row in enumerate(rows):
                if not isinstance(row, str) or len(row) != 3 or set(row) - {"x", "o", "."}:
                    raise ValueError(f"row {r} must be 3 characters of 'x', 'o' and '.', got {row!r}")
                for c, ch in enumerate(row):
                    if ch != ".":
                        bits[MARKS.index(ch)] |= 1 << (3 * r + c)
            state = TicTacToeState(bits)
            if data != state.to_json():
                raise ValueError("turn, to_move, lines or result do not follow from the board")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a tic-tac-toe state: {exc}") from None
        return state


class TicTacToeState(SequentialState):
    game = None  # set below to the game object
    __slots__ = ("bits", "turn", "_result")

    def __init__(self, bits=None):
        """The position with these marks (X's bits, O's bits); ValueError if no game can reach it."""
        self.bits = list(bits) if bits is not None else [0, 0]
        x, o = self.bits
        nx, no = x.bit_count(), o.bit_count()
        if x & o or (x | o) & ~FULL:
            raise ValueError("a cell holds at most one mark")
        if nx - no not in (0, 1):
            raise ValueError("X moves first and the players alternate: X has as many marks as O, or one more")
        self.turn = nx + no
        self._result = None
        won = [bool(lines_of(b)) for b in self.bits]
        if won[0] and won[1]:
            raise ValueError("both players have a line")
        for p in (0, 1):
            if won[p]:
                if (nx - no) != 1 - p:
                    raise ValueError(f"{SEATS[p]} has a line but did not make the last move")
                self._result = RESULTS[p]
        if self._result is None and self.turn == 9:
            self._result = DRAW

    def clone(self) -> "TicTacToeState":
        c = TicTacToeState.__new__(TicTacToeState)
        c.bits, c.turn, c._result = self.bits[:], self.turn, self._result
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

    def winning_lines(self) -> list[tuple[int, ...]]:
        """The completed lines of the winner (none while the game goes on or after a draw)."""
        if self._result is None or self._result.winner is None:
            return []
        return lines_of(self.bits[SEAT_INDEX[self._result.winner]])

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list[int]:
        if self._result is not None or player != SEATS[self.turn & 1]:
            return []
        taken = self.bits[0] | self.bits[1]
        return [i for i in range(9) if not taken >> i & 1]

    def check_action(self, player: str, action) -> None:
        if player not in SEAT_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'x' or 'o')")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if SEAT_INDEX[player] != self.turn & 1:
            raise IllegalAction(player, action, f"it is {SEATS[self.turn & 1]}'s turn")
        cell = parse_cell(player, action)
        for p in (0, 1):
            if self.bits[p] >> cell & 1:
                raise IllegalAction(player, action, f"{cell_text(cell)} already holds {SEATS[p].upper()}: "
                                                    f"marks go on empty cells")

    def _apply_move(self, seat: str, action) -> Turn:
        """Mark cell ``action`` for ``seat`` (to move)."""
        self.check_action(seat, action)
        p = self.turn & 1
        self.bits[p] |= 1 << action
        self.turn += 1
        events = []
        made = lines_of(self.bits[p])
        if made:
            self._result = RESULTS[p]
            events = [{"line": [list(CELLS[i]) for i in line]} for line in made]
        elif self.turn == 9:
            self._result = DRAW
        return Turn(self.turn, {seat: action}, events)

    # --- views ----------------------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The grid as 3 strings, row 0 first: ``x``, ``o`` or ``.`` per cell."""
        x, o = self.bits
        return ["".join("x" if x >> (3 * r + c) & 1 else "o" if o >> (3 * r + c) & 1 else "." for c in range(3))
                for r in range(3)]

    def to_json(self) -> dict:
        """``{"turn": marks made, "to_move": seat or null once over, "board": 3 row strings of x/o/.,
        "lines": the winner's lines as lists of [row, col], "result": Result JSON or null}``."""
        return {
            "turn": self.turn,
            "to_move": None if self._result is not None else SEATS[self.turn & 1],
            "board": self.rows(),
            "lines": [[list(CELLS[i]) for i in line] for line in self.winning_lines()],
            "result": self._result.to_json() if self._result is not None else None,
        }

    def to_text(self) -> str:
        """The grid, row 0 on top: ``X``, ``O``, ``.`` for an empty cell."""
        status = self._result.text if self._result is not None else f"{SEATS[self.turn & 1]} to move"
        return "\n".join([f"turn {self.turn}: {status}"] + [" ".join(row.upper()) for row in self.rows()])


GAME = TicTacToe()
TicTacToeState.game = GAME
