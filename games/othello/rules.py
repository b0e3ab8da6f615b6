"""Othello (Reversi): rules on 64-bit bitboards (rules: ``docs/games/othello.md``).

Black and White alternate placing discs on an 8x8 board, Black first, from White (3, 3) (4, 4) and Black
(3, 4) (4, 3). A placement must enclose, in at least one of the eight directions, an unbroken line of
opposing discs between the new disc and another disc of the mover; every enclosed line is flipped. A player
without a placement must pass ("pass" is then the only legal action); when neither player can place, the
game ends and the player with more discs wins (equal counts: a draw).

Squares are ``(row, col)``, row 0 at the top; bit ``row * 8 + col`` of each side's bitboard (an int) is set
where that side has a disc. Placements for a side are found for all squares at once by shifting its bitboard
in the eight directions across runs of opposing discs (``placements``); the discs a placement flips are
collected along precomputed rays (``flips``). The bots' search uses the same two functions.
"""
from __future__ import annotations

import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn
from games.engine.sequential import SequentialState

SIDES = ("black", "white")
SIDE_INDEX = {"black": 0, "white": 1}
LETTERS = ("B", "W")
SIZE = 8
FULL = (1 << 64) - 1
NOT_EDGE_COLS = 0x7E7E7E7E7E7E7E7E  # columns 1 to 6: a run crossing the side edge would wrap to the next row
PASS = "pass"
MAX_TURNS = 120  # 60 placements, and a pass is always followed by a placement

CELLS = tuple((r, c) for r in range(SIZE) for c in range(SIZE))  # CELLS[i] = (row, col), the engine action
INDEX = {sq: i for i, sq in enumerate(CELLS)}
START = (1 << INDEX[(3, 4)] | 1 << INDEX[(4, 3)], 1 << INDEX[(3, 3)] | 1 << INDEX[(4, 4)])
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _rays(i: int) -> tuple:
    """The bits along each direction from square ``i`` (rays of two or more squares: a flip needs one disc
    to flip and one to enclose it)."""
    r, c = CELLS[i]
    rays = []
    for dr, dc in DIRECTIONS:
        ray = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < SIZE and 0 <= cc < SIZE:
            ray.append(1 << (rr * SIZE + cc))
            rr, cc = rr + dr, cc + dc
        if len(ray) >= 2:
            rays.append(tuple(ray))
    return tuple(rays)


RAYS = tuple(_rays(i) for i in range(64))


def placements(own: int, opp: int) -> int:
    """The bitboard of the squares where the side with discs ``own`` may place against ``opp``."""
    empty = FULL ^ (own | opp)
    mid = opp & NOT_EDGE_COLS
    moves = 0
    # Shifts by 1, 7 and 9 move sideways (only across columns 1-6 of the opponent's discs), 8 straight.
    for s, o in ((1, mid), (7, mid), (8, opp), (9, mid)):
        t = (own << s) & o
        t |= (t << s) & o
        t |= (t << s) & o
        t |= (t << s) & o
        t |= (t << s) & o
        t |= (t << s) & o
        moves |= (t << s) & empty
        t = (own >> s) & o
        t |= (t >> s) & o
        t |= (t >> s) & o
        t |= (t >> s) & o
        t |= (t >> s) & o
        t |= (t >> s) & o
        moves |= (t >> s) & empty
    return moves


def flips(own: int, opp: int, i: int) -> int:
    """The opposing discs that a disc placed on square ``i`` flips (0: not a placement)."""
    flipped = 0
    for ray in RAYS[i]:
        line = 0
        for b in ray:
            if opp & b:
                line |= b
            else:
                if own & b:
                    flipped |= line
                break
    return flipped


def squares_of(bits: int) -> list[int]:
    """The square indices of the set bits, in increasing order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def final_result(black: int, white: int) -> Result:
    """The result by disc count: more discs wins, equal counts draw."""
    nb, nw = black.bit_count(), white.bit_count()
    if nb == nw:
        return Result.shared(SIDES, [], f"draw {nb}-{nw}")
    winner = "black" if nb > nw else "white"
    return Result.shared(SIDES, [winner], f"winner: {winner} {max(nb, nw)}-{min(nb, nw)}")


def cell_text(sq) -> str:
    return f"({sq[0]}, {sq[1]})"


def _malformed(player, action, why: str) -> IllegalAction:
    return IllegalAction(player, action, f"malformed action: {why}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_TEXT_CELL = re.compile(r"\s*\(?\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})\s*\)?\s*")


def parse_action(player, data):
    """Any value to ``"pass"`` or a ``(row, col)`` tuple of ints (the prebuilt one when on the board), or
    IllegalAction "malformed action"."""
    if isinstance(data, str) and data == PASS:
        return PASS
    if not isinstance(data, (list, tuple)) or len(data) != 2 or not (_is_int(data[0]) and _is_int(data[1])):
        raise _malformed(player, data, 'expected [row, col] (two integers) or "pass"')
    sq = (data[0], data[1])
    i = INDEX.get(sq)
    return sq if i is None else CELLS[i]


class Othello(Game):
    info = GameInfo(name="othello", title="Othello", players=SIDES, simultaneous=False, max_turns=MAX_TURNS)
    params: Mapping = {}

    def new_initial_state(self) -> "OthelloState":
        return OthelloState(START[0], START[1], 0, 0)

    # --- action forms -----------------------------------------------------------------------------
    def action_to_json(self, action):
        return PASS if action == PASS else [action[0], action[1]]

    def action_from_json(self, data, player=None):
        """``[row, col]`` or ``"pass"``; total: anything else raises IllegalAction "malformed action: ...".
        A well-formed square off the board is returned for ``check_action`` to refuse."""
        return parse_action(player, data)

    def action_to_text(self, action) -> str:
        """``3,4`` for a placement, ``pass`` for a pass."""
        return PASS if action == PASS else f"{action[0]},{action[1]}"

    def action_from_text(self, text, player=None):
        """Inverse of ``action_to_text``; also reads ``(3, 4)`` and ``Pass``."""
        if not isinstance(text, str):
            raise _malformed(player, text, "expected 'row,col' or 'pass'")
        if text.strip().lower() == PASS:
            return PASS
        m = _TEXT_CELL.fullmatch(text)
        if not m:
            raise _malformed(player, text, "expected 'row,col' (e.g. '2,3') or 'pass'")
        return parse_action(player, (int(m.group(1)), int(m.group(2))))

    def state_from_json(self, data) -> "OthelloState":
        """A state from ``to_json`` output; ValueError if it is not one (or its ``to_move``/``result`` do not
        fit the position)."""
        try:
            turn = data["turn"]
            if not _is_int(turn) or turn < 0:
                raise ValueError(f"turn must be a non-negative integer, got {turn!r}")
            rows = data["board"]
            if not isinstance(rows, list) or len(rows) != SIZE:
                raise ValueError("board must be a list of 8 rows")
            discs = [0, 0]
            for r, row in enumerate(rows):
                if not isinstance(row, str) or len(row) != SIZE or set(row) - set("BW."):
                    raise ValueError(f"row {r} must be 8 characters of 'B', 'W', '.', got {row!r}")
                for c, ch in enumerate(row):
                    if ch != ".":
                        discs[LETTERS.index(ch)] |= 1 << (r * SIZE + c)
            to_move = data["to_move"]
            state = OthelloState(discs[0], discs[1], SIDE_INDEX[to_move] if to_move is not None else 0, turn)
            if (to_move is None) != state.is_terminal():
                raise ValueError("to_move must be null exactly when neither side can place")
            if data["result"] != (state._result.to_json() if state._result else None):
                raise ValueError(f"result {data['result']!r} does not fit the position")
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise ValueError(f"not an Othello state: {exc!r}") from None
        return state


class OthelloState(SequentialState):
    game = None  # set below to the game object
    __slots__ = ("discs", "to_move", "turn", "_moves", "_result")

    def __init__(self, black: int, white: int, to_move: int, turn: int):
        self.discs = [black, white]
        self.to_move = to_move
        self.turn = turn
        self._result = None
        self._moves = placements(self.discs[to_move], self.discs[1 - to_move])
        if not self._moves and not placements(self.discs[1 - to_move], self.discs[to_move]):
            self._result = final_result(black, white)

    def clone(self) -> "OthelloState":
        c = OthelloState.__new__(OthelloState)
        c.discs, c.to_move, c.turn, c._moves, c._result = self.discs[:], self.to_move, self.turn, self._moves, \
            self._result
        return c

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SIDES[self.to_move]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def counts(self) -> dict[str, int]:
        return {"black": self.discs[0].bit_count(), "white": self.discs[1].bit_count()}

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list:
        """The squares the side to move may place on, in reading order; ``["pass"]`` when there is none."""
        if self._result is not None or player != SIDES[self.to_move]:
            return []
        return [CELLS[i] for i in squares_of(self._moves)] if self._moves else [PASS]

    def check_action(self, player: str, action) -> None:
        self._validate(player, action)

    def _validate(self, player, action) -> int:
        """The square index of a legal placement, -1 for a legal pass; IllegalAction naming the rule otherwise."""
        if player not in SIDE_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'black' or 'white')")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if SIDE_INDEX[player] != self.to_move:
            raise IllegalAction(player, action, f"it is {SIDES[self.to_move]}'s turn")
        action = parse_action(player, action)
        if action == PASS:
            if self._moves:
                raise IllegalAction(player, action, "a player may pass only when they have no placement")
            return -1
        i = INDEX.get(action)
        if i is None:
            raise IllegalAction(player, action, f"{cell_text(action)} is not on the board (rows and columns 0 to 7)")
        if not self._moves:
            raise IllegalAction(player, action, f"{player} has no placement and must pass")
        if (self.discs[0] | self.discs[1]) >> i & 1:
            raise IllegalAction(player, action, f"{cell_text(action)} is already taken")
        if not self._moves >> i & 1:
            raise IllegalAction(player, action, f"a disc on {cell_text(action)} would enclose no opposing discs "
                                                "(a placement must flip at least one)")
        return i

    def _apply_move(self, seat: str, action) -> Turn:
        """Place a disc of ``seat`` (to move) and flip what it encloses, or pass."""
        i = self._validate(seat, action)
        p = self.to_move
        events = []
        if i >= 0:
            own, opp = self.discs[p], self.discs[1 - p]
            flipped = flips(own, opp, i)
            self.discs[p] = own | flipped | 1 << i
            self.discs[1 - p] = opp ^ flipped
            events.append({"flips": [list(CELLS[j]) for j in squares_of(flipped)]})
            action = CELLS[i]
        else:
            action = PASS
        self.turn += 1
        self.to_move = 1 - p
        self._moves = placements(self.discs[1 - p], self.discs[p])
        if not self._moves:
            if placements(self.discs[p], self.discs[1 - p]):
                events.append({"must_pass": SIDES[1 - p]})
            else:
                self._result = final_result(*self.discs)
                events.append({"end": self.counts()})
        return Turn(self.turn, {seat: action}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn": moves played (passes too), "to_move": side or null once over, "board": 8 strings, row 0
        first, of "B" (black), "W" (white), "." (empty), "result": Result.to_json() or null}``."""
        black, white = self.discs
        rows = []
        for r in range(SIZE):
            row = []
            for c in range(SIZE):
                bit = 1 << (r * SIZE + c)
                row.append("B" if black & bit else "W" if white & bit else ".")
            rows.append("".join(row))
        return {
            "turn": self.turn,
            "to_move": None if self._result is not None else SIDES[self.to_move],
            "board": rows,
            "result": self._result.to_json() if self._result is not None else None,
        }

    def to_text(self) -> str:
        """The board, row 0 on top: ``B`` black, ``W`` white, ``*`` a square the side to move may place on,
        ``.`` another empty square."""
        status = self._result.text if self._result is not None else f"{SIDES[self.to_move]} to move"
        counts = self.counts()
        lines = [f"turn {self.turn}: {status} (black {counts['black']}, white {counts['white']})",
                 "   " + " ".join(str(c) for c in range(SIZE))]
        board = self.to_json()["board"]
        for r in range(SIZE):
            cells = ["*" if ch == "." and self._moves >> (r * SIZE + c) & 1 and self._result is None else ch
                     for c, ch in enumerate(board[r])]
            lines.append(f"{r}  " + " ".join(cells))
        return "\n".join(lines)


GAME = Othello()
OthelloState.game = GAME
