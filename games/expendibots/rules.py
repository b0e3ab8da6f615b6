"""Expendibots (COMP30024, 2020): alternating moves and booms of token stacks on an 8x8 board.

Exact to the rules (``shared/seeds/expendibots-rules.txt``) and to the course's 2020 referee where the rules
are silent (see ``docs/games/expendibots.md``): White moves first, then the sides alternate; an action is
``("MOVE", n, (x, y), (x, y))`` (n tokens of the stack on the first square to the second) or
``("BOOM", (x, y))``; a boom explodes every stack connected to it through 3x3 neighbourhoods, both
colours. After each action, in this order: a side with no tokens loses (both: a draw), the fourth
occurrence of a position (stacks and side to move; the initial position counts) is a draw, and so is the
end of the 500th action (each player's 250th turn).

Squares are ``(x, y)``, x the column and y the row, both 0 to 7; White starts on rows 0 and 1.

Speed: squares are indices ``i = 8 * y + x`` into precomputed tables (rays for moves, 3x3 neighbourhoods
for booms), the board is one list of signed counts (positive White, negative Black), legal action lists
are built from prebuilt action tuples, validation is a dict lookup plus a few comparisons, and the exact
repetition key is one integer updated incrementally.
"""
from __future__ import annotations

import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, State, Turn

SEATS = ("white", "black")
SEAT_INDEX = {"white": 0, "black": 1}
SIGN = (1, -1)  # board values: +n a White stack of n, -n a Black stack of n
SIZE = 8
N = SIZE * SIZE
MAX_TURNS = 500  # actions in all: each player's 250th turn ends the game
REPEATS = 4  # the fourth occurrence of a position is a draw
MAX_COUNT = 127  # the largest stack a state may hold (a real game has at most 12 per side)
PREBUILT = 12  # move tuples are prebuilt for up to this many tokens (a side's whole army)

SQUARES = tuple((i % SIZE, i // SIZE) for i in range(N))  # index -> (x, y)
INDEX = {sq: i for i, sq in enumerate(SQUARES)}  # (x, y) -> index
WHITE_START = tuple(INDEX[(x, y)] for y in (0, 1) for x in (0, 1, 3, 4, 6, 7))
BLACK_START = tuple(INDEX[(x, y)] for y in (6, 7) for x in (0, 1, 3, 4, 6, 7))

# NEAR[i]: the squares of the 3x3 area around i, but i (what a boom on i sets off).
NEAR = tuple(tuple(INDEX[(x + dx, y + dy)] for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                   if (dx or dy) and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE)
             for x, y in SQUARES)
DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0))  # up, down, left, right

# Prebuilt canonical action objects, shared by every state.
BOOM = tuple(("BOOM", SQUARES[i]) for i in range(N))
_MOVE = {}  # (from, to) -> tuple of the MOVE actions of 1..PREBUILT tokens
for _i, (_x, _y) in enumerate(SQUARES):
    for _dx, _dy in DIRECTIONS:
        for _d in range(1, SIZE):
            _sq = (_x + _dx * _d, _y + _dy * _d)
            if _sq not in INDEX:
                break
            _MOVE[(_i, INDEX[_sq])] = tuple(("MOVE", k, SQUARES[_i], _sq) for k in range(1, PREBUILT + 1))
# RAYS[i]: per direction, the (to square, its move tuples) at distances 1, 2, ... to the edge.
RAYS = tuple(
    tuple(ray for ray in (
        tuple((INDEX[(x + dx * d, y + dy * d)], _MOVE[(i, INDEX[(x + dx * d, y + dy * d)])])
              for d in range(1, SIZE) if (x + dx * d, y + dy * d) in INDEX)
        for dx, dy in DIRECTIONS) if ray)
    for i, (x, y) in enumerate(SQUARES))

# Every prebuilt action -> (kind (0 boom, 1 move), tokens, from, to, distance, the canonical action).
_INFO: dict = {}
for _i in range(N):
    _INFO[BOOM[_i]] = (0, 0, _i, -1, 0, BOOM[_i])
for (_i, _j), _acts in _MOVE.items():
    _dist = abs(SQUARES[_i][0] - SQUARES[_j][0]) + abs(SQUARES[_i][1] - SQUARES[_j][1])
    for _a in _acts:
        _INFO[_a] = (1, _a[1], _i, _j, _dist, _a)

# The exact repetition key: an 8-bit field per square holding the signed count modulo 256 (exact for
# counts up to MAX_COUNT), plus one bit for the side to move (added when the key is recorded).
UNIT = tuple(1 << (8 * i) for i in range(N))
SIDE_BIT = 1 << (8 * N)

RESULT_TEXTS = {
    "white": "winner: white",
    "black": "winner: black",
    "none": "draw detected: no tokens remaining",
    "repeat": "draw detected: game state occurred 4 times.",
    "turns": "draw detected: maximum number of turns reached.",
}
RESULTS = {
    "white": Result.shared(SEATS, ["white"], RESULT_TEXTS["white"]),
    "black": Result.shared(SEATS, ["black"], RESULT_TEXTS["black"]),
    "none": Result.shared(SEATS, [], RESULT_TEXTS["none"]),
    "repeat": Result.shared(SEATS, [], RESULT_TEXTS["repeat"]),
    "turns": Result.shared(SEATS, [], RESULT_TEXTS["turns"]),
}
RESULT_BY_TEXT = {r.text: r for r in RESULTS.values()}

_SQ_TEXT = r"\(\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\)"  # (a longer number is no square: not read)
_TEXT_MOVE = re.compile(rf"^\s*MOVE\s+(\d{{1,9}})\s+from\s+{_SQ_TEXT}\s+to\s+{_SQ_TEXT}\s*\.?\s*$")
_TEXT_BOOM = re.compile(rf"^\s*BOOM\s+at\s+{_SQ_TEXT}\s*\.?\s*$")
_SHAPE = "expected ('MOVE', n, (x, y), (x, y)) or ('BOOM', (x, y)) with integers"


def _num(v: int) -> str:
    return str(v) if -10**12 < v < 10**12 else ("-" if v < 0 else "") + "(huge)"  # str() of 4300+ digits fails


def square_text(sq) -> str:
    return f"({_num(sq[0])}, {_num(sq[1])})"


def _illegal(player, action, rule: str) -> IllegalAction:
    """IllegalAction, with the action replaced by a short text if its repr would fail or be huge (deep
    nesting, integers of thousands of digits: any JSON value may come in)."""
    try:
        text = repr(action)
    except Exception:  # noqa: BLE001 - RecursionError, ValueError (int digits limit), ...
        action = "<unprintable value>"
    else:
        if len(text) > 500:
            action = text[:500] + "..."
    return IllegalAction(player, action, rule)


def _malformed(player, action, why: str) -> IllegalAction:
    return _illegal(player, action, f"malformed action: {why}")


def _is_int(v) -> bool:
    return type(v) is int  # not bool, not a subclass


def _square(v):
    """``v`` as an (x, y) tuple of ints if it is a list or tuple of two ints, else None (no range check)."""
    if isinstance(v, (list, tuple)) and len(v) == 2 and _is_int(v[0]) and _is_int(v[1]):
        return (v[0], v[1])
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Expendibots(Game):
    info = GameInfo(name="expendibots", title="Expendibots", players=SEATS, simultaneous=False,
                    max_turns=MAX_TURNS)

    def new_initial_state(self) -> "ExpendibotsState":
        return ExpendibotsState()

    # --- action forms -------------------------------------------------------------------------------
    def action_to_json(self, action):
        if action[0] == "MOVE":
            return ["MOVE", action[1], list(action[2]), list(action[3])]
        return ["BOOM", list(action[1])]

    def action_from_json(self, data, player=None):
        """``["MOVE", n, [x, y], [x, y]]`` or ``["BOOM", [x, y]]`` to an action tuple. Total: anything else
        raises IllegalAction "malformed action: ...". Ranges are the rules' business (``check_action``)."""
        try:
            return self._from_parts(data, player)
        except IllegalAction:
            raise
        except Exception:  # noqa: BLE001 - total by contract; nothing here should raise, but never leak
            raise _malformed(player, "<unreadable value>", _SHAPE) from None

    def _from_parts(self, data, player):
        if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], str):
            raise _malformed(player, data, 'expected ["MOVE", n, [x, y], [x, y]] or ["BOOM", [x, y]]')
        kind = data[0]
        if kind == "MOVE":
            if len(data) != 4:
                raise _malformed(player, data, 'a move is ["MOVE", n, [x, y], [x, y]]')
            if not _is_int(data[1]):
                raise _malformed(player, data, "the number of tokens must be an integer")
            a, b = _square(data[2]), _square(data[3])
            if a is None or b is None:
                raise _malformed(player, data, "a square must be a pair of integers [x, y]")
            action = ("MOVE", data[1], a, b)
        elif kind == "BOOM":
            if len(data) != 2:
                raise _malformed(player, data, 'a boom is ["BOOM", [x, y]]')
            a = _square(data[1])
            if a is None:
                raise _malformed(player, data, "a square must be a pair of integers [x, y]")
            action = ("BOOM", a)
        else:
            raise _malformed(player, data, 'the kind must be "MOVE" or "BOOM"')
        info = _INFO.get(action)
        return info[5] if info is not None else action

    def action_to_text(self, action) -> str:
        """The 2020 referee's wording, trailing period included: ``MOVE 2 from (3, 1) to (3, 3).``,
        ``BOOM at (4, 6).`` (a log line is ``[white] - `` followed by this)."""
        if action[0] == "MOVE":
            return f"MOVE {_num(action[1])} from {square_text(action[2])} to {square_text(action[3])}."
        return f"BOOM at {square_text(action[1])}."

    def action_from_text(self, text, player=None):
        """Parse the referee's wording (the trailing period and extra spaces are optional)."""
        if not isinstance(text, str):
            raise _malformed(player, text, "expected text")
        m = _TEXT_MOVE.match(text)
        if m:
            n, ax, ay, bx, by = map(int, m.groups())
            action = ("MOVE", n, (ax, ay), (bx, by))
        else:
            m = _TEXT_BOOM.match(text)
            if not m:
                raise _malformed(player, text, "expected 'MOVE n from (x, y) to (x, y).' or 'BOOM at (x, y).'")
            action = ("BOOM", (int(m.group(1)), int(m.group(2))))
        info = _INFO.get(action)
        return info[5] if info is not None else action

    def state_from_json(self, data) -> "ExpendibotsState":
        """Rebuild a state from ``to_json`` output. The repetition history is only what the JSON says: the
        current position seen ``repetitions`` times (default 1), no earlier positions. Without a
        ``result`` the rules decide (no tokens, fourth occurrence, turn limit). ValueError if invalid."""
        if not isinstance(data, Mapping):
            raise ValueError("not an Expendibots state: expected an object")
        st = ExpendibotsState.__new__(ExpendibotsState)
        turn = data.get("turn", 0)
        if not _is_int(turn) or not 0 <= turn <= MAX_TURNS:
            raise ValueError(f"not an Expendibots state: turn must be an integer 0..{MAX_TURNS}")
        to_move = data.get("to_move")
        if to_move is not None and to_move != SEATS[turn & 1]:
            raise ValueError(f"not an Expendibots state: after {turn} actions {SEATS[turn & 1]} is to move")
        board = [0] * N
        stacks = data.get("stacks", [])
        if not isinstance(stacks, list):
            raise ValueError("not an Expendibots state: stacks must be a list")
        for s in stacks:
            if not isinstance(s, Mapping):
                raise ValueError("not an Expendibots state: a stack must be an object")
            sq, player, count = _square(s.get("square")), s.get("player"), s.get("count")
            if sq is None or sq not in INDEX:
                raise ValueError(f"not an Expendibots state: bad square {s.get('square')!r}")
            if player not in SEATS or not isinstance(player, str):
                raise ValueError(f"not an Expendibots state: bad player {player!r}")
            if not _is_int(count) or not 1 <= count <= MAX_COUNT:
                raise ValueError(f"not an Expendibots state: a count must be an integer 1..{MAX_COUNT}")
            i = INDEX[sq]
            if board[i]:
                raise ValueError(f"not an Expendibots state: two stacks on {square_text(sq)}")
            board[i] = count * SIGN[SEAT_INDEX[player]]
        seen = data.get("repetitions", 1)
        if not _is_int(seen) or not 1 <= seen <= REPEATS:
            raise ValueError(f"not an Expendibots state: repetitions must be 1..{REPEATS}")
        st.board = board
        st.turn = turn
        st.tokens = [sum(v for v in board if v > 0), -sum(v for v in board if v < 0)]
        st.key = sum((v & 255) * UNIT[i] for i, v in enumerate(board) if v)
        st.history = {st.key | (SIDE_BIT if turn & 1 else 0): seen}
        st._shared = False
        text = data.get("result")
        if text is not None:
            if text not in RESULT_BY_TEXT:
                raise ValueError(f"not an Expendibots state: unknown result {text!r}")
            st._result = RESULT_BY_TEXT[text]
        else:
            st._result = st._judge_end(seen)
        return st


class ExpendibotsState(State):
    """A position: ``board`` (64 signed counts, index ``8 * y + x``), ``tokens`` ([White's, Black's]),
    ``turn`` (actions so far), ``key`` (the exact board code), ``history`` (position key with side to move
    -> times seen; shared between clones until one of them writes) and the result."""

    game = None  # set below to the registered game object
    __slots__ = ("board", "turn", "tokens", "key", "history", "_shared", "_result")

    def __init__(self):
        board = [0] * N
        for i in WHITE_START:
            board[i] = 1
        for i in BLACK_START:
            board[i] = -1
        self.board = board
        self.turn = 0
        self.tokens = [12, 12]
        self.key = sum((v & 255) * UNIT[i] for i, v in enumerate(board) if v)
        self.history = {self.key: 1}  # the initial position counts as its first occurrence
        self._shared = False
        self._result: Result | None = None

    def clone(self) -> "ExpendibotsState":
        c = ExpendibotsState.__new__(ExpendibotsState)
        c.board = self.board[:]
        c.turn = self.turn
        c.tokens = self.tokens[:]
        c.key = self.key
        c.history = self.history  # copy on write: whichever state records a position first copies it
        c._shared = self._shared = True
        c._result = self._result
        return c

    # --- status -------------------------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        return None if self._result is not None else SEATS[self.turn & 1]

    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SEATS[self.turn & 1]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def position_key(self) -> int:
        """The position as the repetition rule compares them: the stacks and the side to move."""
        return self.key | (SIDE_BIT if self.turn & 1 else 0)

    def repetitions(self) -> int:
        """How many times the current position has occurred (1 the first time)."""
        return self.history.get(self.position_key(), 0)

    def stacks(self, seat: str | None = None) -> list[tuple[tuple[int, int], str, int]]:
        """The stacks as ((x, y), player, count), in square order (row by row from y = 0); one seat's only
        if ``seat`` is given."""
        out = []
        for i, v in enumerate(self.board):
            if v:
                player = "white" if v > 0 else "black"
                if seat is None or seat == player:
                    out.append((SQUARES[i], player, abs(v)))
        return out

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str):
        """Every distinct legal action of ``player``: a boom of each own stack, then per stack (square order)
        its moves, per direction (up, down, left, right) by distance then by tokens moved."""
        if self._result is not None or player != SEATS[self.turn & 1]:
            return []
        board = self.board
        s = SIGN[self.turn & 1]
        booms = []
        moves = []
        for i, v in enumerate(board):
            n = v * s
            if n <= 0:
                continue
            booms.append(BOOM[i])
            for ray in RAYS[i]:
                for j, acts in ray[:n]:
                    if board[j] * s >= 0:  # empty or own: a possible destination (enemies are jumped over)
                        if n <= PREBUILT:
                            moves += acts[:n]
                        else:
                            moves += acts
                            moves += [("MOVE", k, SQUARES[i], SQUARES[j]) for k in range(PREBUILT + 1, n + 1)]
        booms += moves
        return booms

    def check_action(self, player: str, action) -> None:
        self._validate(player, action)

    def _validate(self, player, action) -> tuple:
        """The action's info tuple (see ``_INFO``) if ``player`` may take it now, else IllegalAction."""
        if self._result is not None:
            raise _illegal(player, action, "the game is over")
        p = self.turn & 1
        if player != SEATS[p]:
            if isinstance(player, str) and player in SEAT_INDEX:
                raise _illegal(player, action, f"it is {SEATS[p]}'s turn, not {player}'s")
            raise _illegal(player, action, "unknown player (expected 'white' or 'black')")
        try:
            info = _INFO[action]
        except (KeyError, TypeError):  # not a prebuilt action, or not hashable: _judge decides
            return self._judge(p, action)
        if info[5] is not action:  # equal but not the canonical object (maybe True for 1): judge strictly
            return self._judge(p, action)
        board = self.board
        own = board[info[2]] * SIGN[p]
        if info[0]:
            if own >= info[1] and own >= info[4] and board[info[3]] * SIGN[p] >= 0:
                return info
        elif own > 0:
            return info
        return self._judge(p, action)

    def _judge(self, p: int, action) -> tuple:
        """The reference validation, naming the rule an action breaks; returns the info tuple if legal."""
        seat = SEATS[p]
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise _malformed(seat, action, _SHAPE)
        kind = action[0]
        if kind == "BOOM":
            if len(action) != 2 or not isinstance(action[1], tuple) or _square(action[1]) is None:
                raise _malformed(seat, action, _SHAPE)
            a = action[1]
            i = INDEX.get(a)
            if i is None:
                raise _illegal(seat, action, f"{square_text(a)} is off the board (x and y are 0 to 7)")
            if self.board[i] * SIGN[p] <= 0:
                raise _illegal(seat, action, f"there is no {seat} stack at {square_text(a)} to explode")
            return (0, 0, i, -1, 0, BOOM[i])
        if kind != "MOVE" or len(action) != 4 or not _is_int(action[1]) or not isinstance(action[2], tuple) \
                or not isinstance(action[3], tuple) or _square(action[2]) is None or _square(action[3]) is None:
            raise _malformed(seat, action, _SHAPE)
        _, k, a, b = action
        i, j = INDEX.get(a), INDEX.get(b)
        if i is None or j is None:
            off = a if i is None else b
            raise _illegal(seat, action, f"{square_text(off)} is off the board (x and y are 0 to 7)")
        n = self.board[i] * SIGN[p]
        if n <= 0:
            raise _illegal(seat, action, f"there is no {seat} stack at {square_text(a)} to move")
        if k < 1:
            raise _illegal(seat, action, "a move takes at least 1 token")
        if k > n:
            raise _illegal(seat, action, f"a stack of {n} can move at most {_plural(n, 'token')}")
        if i == j:
            raise _illegal(seat, action, "tokens must move at least one square")
        if a[0] != b[0] and a[1] != b[1]:
            raise _illegal(seat, action, "tokens move up, down, left or right, never diagonally")
        d = abs(a[0] - b[0]) + abs(a[1] - b[1])
        if d > n:
            raise _illegal(seat, action, f"a stack of {n} moves at most {_plural(n, 'square')}")
        if self.board[j] * SIGN[p] < 0:
            raise _illegal(seat, action,
                                f"tokens may not move onto {square_text(b)}: it holds {SEATS[1 - p]}'s tokens")
        canon = _INFO.get(("MOVE", k, SQUARES[i], SQUARES[j]))
        return (1, k, i, j, d, canon[5] if canon else ("MOVE", k, SQUARES[i], SQUARES[j]))

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """Apply the action of the side to move (``{seat: action}``, exactly one seat): validated first, so
        an illegal one raises IllegalAction and changes nothing."""
        if self._result is not None:
            raise _illegal(None, actions, "the game is over")
        seat = SEATS[self.turn & 1]
        try:
            action = actions[seat]
            ok = len(actions) == 1
        except (KeyError, TypeError):
            ok = False
        if not ok:
            try:
                others = [s for s in actions if s != seat]
            except TypeError:
                others = []
            who = others[0] if len(others) == 1 and isinstance(others[0], str) else None
            raise _illegal(who, actions, f"{seat} is to move: a turn is exactly one action, by {seat}")
        return self._apply(self._validate(seat, action))

    def apply_action(self, player: str, action) -> Turn:
        return self._apply(self._validate(player, action))

    def _apply(self, info: tuple) -> Turn:
        """Apply a validated action (its info tuple), then the end conditions in the referee's order."""
        kind, k, i, j, _, action = info
        board = self.board
        p = self.turn & 1
        if kind:  # a move: no token leaves the board, so nobody can have run out
            s = k if p == 0 else -k
            old = board[i]
            new = old - s
            board[i] = new
            key = self.key + ((new & 255) - (old & 255)) * UNIT[i]
            old = board[j]
            new = old + s
            board[j] = new
            self.key = key = key + ((new & 255) - (old & 255)) * UNIT[j]
            events = []
            out = False
        else:
            key = self.key
            tokens = self.tokens
            queue = [(i, board[i])]
            board[i] = 0
            exploded = []
            for q, v in queue:  # breadth first from the chosen stack, as the referee's chain reaction
                key -= (v & 255) * UNIT[q]
                if v > 0:
                    tokens[0] -= v
                    exploded.append([q % SIZE, q // SIZE, "white", v])
                else:
                    tokens[1] += v
                    exploded.append([q % SIZE, q // SIZE, "black", -v])
                for r in NEAR[q]:
                    w = board[r]
                    if w:  # taken off as it is reached, so each stack explodes once
                        board[r] = 0
                        queue.append((r, w))
            self.key = key
            events = [{"boom": list(SQUARES[i]), "exploded": exploded}]
            out = not tokens[0] or not tokens[1]
        self.turn = turn = self.turn + 1
        hk = key | SIDE_BIT if turn & 1 else key
        history = self.history
        if self._shared:
            self.history = history = dict(history)
            self._shared = False
        seen = history.get(hk, 0) + 1
        history[hk] = seen
        if out:
            self._result = self._judge_end(seen)
        elif seen >= REPEATS:
            self._result = RESULTS["repeat"]
        elif turn >= MAX_TURNS:
            self._result = RESULTS["turns"]
        return Turn(turn, {SEATS[p]: action}, events)

    def _judge_end(self, seen: int) -> Result | None:
        """The end conditions in the referee's order: no tokens, the fourth occurrence, the turn limit."""
        w, b = self.tokens
        if not w or not b:
            return RESULTS["none" if not w and not b else ("white" if w else "black")]
        if seen >= REPEATS:
            return RESULTS["repeat"]
        if self.turn >= MAX_TURNS:
            return RESULTS["turns"]
        return None

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"game", "turn" (actions so far), "to_move" (None when over), "to_act", "stacks": [{"square",
        "player", "count"}, ...] (square order), "tokens": {"white", "black"}, "repetitions" (times the
        current position has occurred), "result" (text or None)}``."""
        return {
            "game": "expendibots",
            "turn": self.turn,
            "to_move": self.to_move,
            "to_act": self.players_to_act(),
            "stacks": [{"square": list(sq), "player": player, "count": n} for sq, player, n in self.stacks()],
            "tokens": {"white": self.tokens[0], "black": self.tokens[1]},
            "repetitions": self.repetitions(),
            "result": self._result.text if self._result else None,
        }

    def to_text(self) -> str:
        """An ASCII board in the referee's style, row 7 on top: ``(n)`` a White stack, ``[n]`` a Black one."""
        head = f"turn {self.turn}; tokens: white {self.tokens[0]}, black {self.tokens[1]}; "
        head += self._result.text if self._result else f"{SEATS[self.turn & 1]} to move"
        lines = [head, "   +" + "---+" * SIZE]
        for y in range(SIZE - 1, -1, -1):
            cells = []
            for x in range(SIZE):
                v = self.board[8 * y + x]
                cells.append("   " if not v else (f"({v:X})" if v > 0 else f"[{-v:X}]"))  # 10-15: A-F
            lines.append(f" {y} |" + "|".join(cells) + "|")
            lines.append("   +" + "---+" * SIZE)
        lines.append("y/x  " + "   ".join(str(x) for x in range(SIZE)))
        return "\n".join(lines)


GAME = Expendibots()
ExpendibotsState.game = GAME
