"""Hex on an N x N rhombus of hexagons (rules: ``docs/games/hex.md``).

Black and White alternate placing a stone of their colour on an empty cell, Black first; there is no swap
rule. Black wins by joining row 0 to row N-1 with a chain of black stones, White by joining column 0 to
column N-1. Cell (r, c) touches (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1) and (r+1, c). A full
board always has exactly one winner, so the game ends with a win within N * N moves.

Cells are ``(row, col)`` tuples (prebuilt, shared by all states of a game); inside, index ``row * N + col``
into ``board`` (-1 empty, 0 black, 1 white). A win can only be made by the stone just placed, so each move
looks at that stone's group alone (a flood over its colour) and asks whether it touches both rims.
"""
from __future__ import annotations

import re

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn
from games.engine.sequential import SequentialState

SIDES = ("black", "white")
SIDE_INDEX = {"black": 0, "white": 1}
LETTERS = ("B", "W")
STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))  # the six neighbours of (r, c), as offsets
RESULTS = tuple(Result.shared(SIDES, [side], f"winner: {side}") for side in SIDES)

_TEXT_CELL = re.compile(r"\s*\(?\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})\s*\)?\s*")


def cell_text(sq) -> str:
    return f"({sq[0]}, {sq[1]})"


def _malformed(player, action, why: str) -> IllegalAction:
    return IllegalAction(player, action, f"malformed action: {why}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Hex(Game):
    """Hex of one board size; the neighbour and rim tables are built once per size."""

    def __init__(self, size: int):
        n = self.size = size
        self.params = {"size": size}
        self.info = GameInfo(name="hex", title="Hex", players=SIDES, simultaneous=False, max_turns=n * n)
        self.cells = tuple((r, c) for r in range(n) for c in range(n))
        self.index = {sq: i for i, sq in enumerate(self.cells)}
        self.neighbours = tuple(tuple((r + dr) * n + c + dc for dr, dc in STEPS if 0 <= r + dr < n and 0 <= c + dc < n)
                                for r, c in self.cells)
        # rims[side] = (first rim, second rim) as frozensets of cell indices
        self.rims = ((frozenset(range(n)), frozenset(range(n * (n - 1), n * n))),
                     (frozenset(range(0, n * n, n)), frozenset(range(n - 1, n * n, n))))

    def new_initial_state(self) -> "HexState":
        return HexState(self, [-1] * (self.size * self.size))

    # --- action forms -----------------------------------------------------------------------------
    def parse(self, player, data):
        """Any value to a ``(row, col)`` tuple of ints (the prebuilt one when on the board), or IllegalAction
        "malformed action"."""
        if not isinstance(data, (list, tuple)) or len(data) != 2 or not (_is_int(data[0]) and _is_int(data[1])):
            raise _malformed(player, data, "expected [row, col] (two integers)")
        sq = (data[0], data[1])
        i = self.index.get(sq)
        return sq if i is None else self.cells[i]

    def action_to_json(self, action):
        return [action[0], action[1]]

    def action_from_json(self, data, player=None):
        """``[row, col]``; total: anything else raises IllegalAction "malformed action: ...". A well-formed
        cell off the board is returned for ``check_action`` to refuse."""
        return self.parse(player, data)

    def action_to_text(self, action) -> str:
        return f"{action[0]},{action[1]}"

    def action_from_text(self, text, player=None):
        """Inverse of ``action_to_text``; also reads ``(3, 4)``."""
        m = _TEXT_CELL.fullmatch(text) if isinstance(text, str) else None
        if not m:
            raise _malformed(player, text, "expected 'row,col', e.g. '2,3'")
        return self.parse(player, (int(m.group(1)), int(m.group(2))))

    def state_from_json(self, data) -> "HexState":
        """A state from ``to_json`` output; ValueError if it is not one of this size, or not a position a
        game can reach (stone counts, turn, to_move and result must fit the board)."""
        n = self.size
        try:
            if data["size"] != n or isinstance(data["size"], bool):
                raise ValueError(f"size {data['size']!r} is not this game's {n}")
            rows = data["board"]
            if not isinstance(rows, list) or len(rows) != n:
                raise ValueError(f"board must be a list of {n} rows")
            board = []
            for r, row in enumerate(rows):
                if not isinstance(row, str) or len(row) != n or set(row) - set("BW."):
                    raise ValueError(f"row {r} must be {n} characters of 'B', 'W', '.', got {row!r}")
                board.extend(-1 if ch == "." else LETTERS.index(ch) for ch in row)
            nb, nw = board.count(0), board.count(1)
            if nb - nw not in (0, 1):
                raise ValueError(f"{nb} black and {nw} white stones: Black moves first, then they alternate")
            if data["turn"] != nb + nw or isinstance(data["turn"], bool):
                raise ValueError(f"turn must be the number of stones, {nb + nw}")
            state = HexState(self, board)
            won = [p for p in (0, 1) if state.chain(p)]
            if len(won) == 2:
                raise ValueError("both sides have a winning chain")
            if won:
                if won[0] != (nb - nw + 1) % 2:
                    raise ValueError(f"{SIDES[won[0]]} has a winning chain but did not move last")
                state._result = RESULTS[won[0]]
            if data["to_move"] != (None if won else SIDES[nb - nw]):
                raise ValueError(f"to_move {data['to_move']!r} does not fit the position")
            if data["result"] != (state._result.to_json() if state._result else None):
                raise ValueError(f"result {data['result']!r} does not fit the position")
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a Hex state: {exc!r}") from None
        return state


class HexState(SequentialState):
    __slots__ = ("game", "board", "turn", "_result")

    def __init__(self, game: Hex, board: list, turn: int | None = None, result: Result | None = None):
        self.game = game
        self.board = board
        self.turn = sum(1 for v in board if v >= 0) if turn is None else turn
        self._result = result

    def clone(self) -> "HexState":
        return HexState(self.game, self.board[:], self.turn, self._result)

    # --- status -------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.turn % 2

    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SIDES[self.to_move]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def chain(self, p: int, start: int | None = None) -> list[int]:
        """A shortest chain of ``p``'s stones joining its two rims (the group of ``start`` only, if given), as
        cell indices from the first rim; [] if there is none."""
        board, nbrs = self.board, self.game.neighbours
        first, second = self.game.rims[p]
        if start is not None:  # the group of ``start``: does it touch both rims?
            group, todo = {start}, [start]
            while todo:
                for j in nbrs[todo.pop()]:
                    if board[j] == p and j not in group:
                        group.add(j)
                        todo.append(j)
            if group.isdisjoint(first) or group.isdisjoint(second):
                return []
            sources = [i for i in group if i in first]
        else:
            sources = [i for i in sorted(first) if board[i] == p]
        came = {i: -1 for i in sources}  # breadth first from the first rim: the first stone on the second wins
        frontier = sources
        while frontier:
            following = []
            for i in frontier:
                if i in second:
                    path = []
                    while i >= 0:
                        path.append(i)
                        i = came[i]
                    return path[::-1]
                for j in nbrs[i]:
                    if board[j] == p and j not in came:
                        came[j] = i
                        following.append(j)
            frontier = following
        return []

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list:
        """Every empty cell, in reading order, for the side to move."""
        if self._result is not None or player != SIDES[self.to_move]:
            return []
        cells = self.game.cells
        return [cells[i] for i, v in enumerate(self.board) if v < 0]

    def check_action(self, player: str, action) -> None:
        self._validate(player, action)

    def _validate(self, player, action) -> int:
        """The cell index of a legal placement; IllegalAction naming the rule otherwise."""
        if player not in SIDE_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'black' or 'white')")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if SIDE_INDEX[player] != self.to_move:
            raise IllegalAction(player, action, f"it is {SIDES[self.to_move]}'s turn")
        sq = self.game.parse(player, action)
        i = self.game.index.get(sq)
        if i is None:
            n = self.game.size
            raise IllegalAction(player, action, f"{cell_text(sq)} is not on the board (rows and columns 0 to {n - 1})")
        if self.board[i] >= 0:
            raise IllegalAction(player, action, f"{cell_text(sq)} is already taken")
        return i

    def _apply_move(self, seat: str, action) -> Turn:
        """Place a stone of ``seat`` (to move) on the cell ``action``, ``[row, col]``."""
        i = self._validate(seat, action)
        p = self.to_move
        self.board[i] = p
        self.turn += 1
        events = []
        chain = self.chain(p, i)
        if chain:
            self._result = RESULTS[p]
            cells = self.game.cells
            events.append({"winner": seat, "chain": [list(cells[j]) for j in chain]})
        return Turn(self.turn, {seat: self.game.cells[i]}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn": stones placed, "to_move": side or null once over, "size": N, "board": N strings, row 0
        first, of "B" (black), "W" (white), "." (empty), "result": Result.to_json() or null}``."""
        n = self.game.size
        marks = "".join("." if v < 0 else LETTERS[v] for v in self.board)
        return {
            "turn": self.turn,
            "to_move": None if self._result is not None else SIDES[self.to_move],
            "size": n,
            "board": [marks[r * n:(r + 1) * n] for r in range(n)],
            "result": self._result.to_json() if self._result is not None else None,
        }

    def to_text(self) -> str:
        """The rhombus, row 0 on top and each row shifted half a cell right of the one above: ``B`` black,
        ``W`` white, ``.`` empty. Black joins top and bottom, White left and right."""
        status = self._result.text if self._result is not None else f"{SIDES[self.to_move]} to move"
        n = self.game.size
        rows = self.to_json()["board"]
        lines = [f"turn {self.turn}: {status}", "    " + " ".join(f"{c % 10}" for c in range(n))]
        for r in range(n):
            lines.append(f"{r:2d} " + " " * r + " " + " ".join(rows[r]))
        return "\n".join(lines)
