"""Cyclotron: Rock-Paper-Scissors without the luck, on a 6x6 board (rules: ``docs/games/cyclotron.md``).

White and Black each have a Rock, a Paper and a Scissors. White moves first, then the players alternate.
A move takes one piece one square orthogonally, onto an empty square or capturing an opposing piece it
beats (Rock takes Scissors, Scissors take Paper, Paper takes Rock); a piece that stepped onto an empty
square may step once more if that second step captures. Reaching the square where the opposing Rock
started wins at once; no position (pieces and side to move) may ever repeat; a side with no legal move
loses. There are no draws.

Squares are ``(row, col)``, row 0 at the top. White starts bottom right: Rock (5, 5), Paper (5, 4),
Scissors (4, 5); Black top left: Rock (0, 0), Paper (0, 1), Scissors (1, 0). An action is the path of the
moved piece, a tuple of squares: ``((5, 4), (4, 4))``, or a step to an empty square then a capture,
``((5, 4), (4, 4), (4, 3))``. JSON: ``[[5, 4], [4, 4]]``; text: ``5,4-4,4`` and ``5,4-4,4-4,3``.

Inside, squares are indices ``row * 6 + col``; pieces are codes ``side * 3 + kind`` (kinds 0 rock, 1 paper,
2 scissors; code ``c`` takes ``PREY[c]``); ``board`` maps squares to codes (-1 empty) and ``pos`` codes to
squares (-1 captured). A position is one integer, ``key``: 6 bits per piece (its square + 1) and the side to
move at bit 36, updated by adding differences. ``history`` holds the keys of the positions since the last
capture: a capture lowers the material for good, so no earlier position can ever come back, and the set is
restarted with the new position (exact, and keeps clones cheap). Every state keeps its legal actions (a
tuple of prebuilt action tuples, shared by clones), computed once after each move: that also tells at once
whether the side to move is stuck, which ends the game.
"""
from __future__ import annotations

import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn, short_repr
from games.engine.sequential import SequentialState

SIDES = ("white", "black")
SIDE_INDEX = {"white": 0, "black": 1}
KINDS = ("rock", "paper", "scissors")
KIND_INDEX = {"rock": 0, "paper": 1, "scissors": 2}
KIND_TITLES = ("Rock", "Paper", "Scissors")
SIDE_TITLES = ("White", "Black")
SIZE = 6
N = SIZE * SIZE

SQUARES = tuple((r, c) for r in range(SIZE) for c in range(SIZE))  # SQUARES[i] = (row, col)
INDEX = {sq: i for i, sq in enumerate(SQUARES)}


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = SQUARES[i]
    return tuple(INDEX[(r + dr, c + dc)] for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                 if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)


NEIGHBOURS = tuple(_neighbours(i) for i in range(N))

# Piece codes: side * 3 + kind. The starting squares, by code.
START = (INDEX[(5, 5)], INDEX[(5, 4)], INDEX[(4, 5)], INDEX[(0, 0)], INDEX[(0, 1)], INDEX[(1, 0)])
OWN = ((0, 1, 2), (3, 4, 5))  # the codes of each side's pieces
PREY = tuple((1 - c // 3) * 3 + (c % 3 + 2) % 3 for c in range(6))  # the opposing piece code c takes
PIECE_NAMES = tuple(f"{SIDES[c // 3]} {KINDS[c % 3]}" for c in range(6))  # "white rock", ...
PIECE_TITLES = tuple(f"{SIDE_TITLES[c // 3]}'s {KIND_TITLES[c % 3]}" for c in range(6))  # "White's Rock"
# The square each side must reach: where the opposing Rock starts.
GOAL = (START[3], START[0])
SHIFT = tuple(6 * c for c in range(6))  # bit offset of each piece's field in the key
SIDE_BIT = 1 << 36
FLIP = (SIDE_BIT, -SIDE_BIT)  # key change when the side to move changes from white (0) / black (1)

# Prebuilt canonical actions (shared by every state) and, per action, its squares (s, n, m), m = -1 for a
# single step. PATH3 includes s -> n -> s (never legal: the second step must capture) so that every
# syntactically possible path is an entry.
PATH2 = {(s, n): (SQUARES[s], SQUARES[n]) for s in range(N) for n in NEIGHBOURS[s]}
PATH3 = {(s, n, m): (SQUARES[s], SQUARES[n], SQUARES[m]) for s in range(N) for n in NEIGHBOURS[s]
         for m in NEIGHBOURS[n]}
INFO: dict = {a: (s, n, -1) for (s, n), a in PATH2.items()}
INFO.update({a: (s, n, m) for (s, n, m), a in PATH3.items()})
STEPS = tuple(tuple((n, PATH2[(s, n)]) for n in NEIGHBOURS[s]) for s in range(N))
# VIA[s * N + q]: the two-step paths from s to q (q two squares away, not s): (middle square, action).
VIA = tuple(tuple((n, PATH3[(s, n, q)]) for n in NEIGHBOURS[s] if q in NEIGHBOURS[n] and q != s)
            for s in range(N) for q in range(N))

RESULTS = (Result.shared(SIDES, ["white"], "winner: white"), Result.shared(SIDES, ["black"], "winner: black"))
RESULT_BY_TEXT = {r.text: r for r in RESULTS}

_SQ = r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?"
_SEP = r"\s*(?:->|→|-)\s*"
_TEXT_ACTION = re.compile(rf"\s*{_SQ}(?:{_SEP}{_SQ}){{1,2}}\s*")
_TEXT_SQUARE = re.compile(_SQ)


def square_text(sq) -> str:
    return f"({sq[0]}, {sq[1]})"


def _malformed(player, action, why: str) -> IllegalAction:
    return IllegalAction(player, action, f"malformed action: {why}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_path(player, action) -> tuple:
    """Any value to a path (a tuple of 2 or 3 ``(int, int)`` squares), or IllegalAction "malformed action"."""
    if not isinstance(action, (list, tuple)) or not 2 <= len(action) <= 3:
        raise _malformed(player, action, "expected the path of the moved piece: [[r, c], [r, c]] or "
                                         "[[r, c], [r, c], [r, c]]")
    path = []
    for sq in action:
        if not isinstance(sq, (list, tuple)) or len(sq) != 2 or not (_is_int(sq[0]) and _is_int(sq[1])):
            raise _malformed(player, action, f"a square must be a pair of integers [row, col], got {short_repr(sq)}")
        path.append((sq[0], sq[1]))
    return tuple(path)


class Cyclotron(Game):
    info = GameInfo(name="cyclotron", title="Cyclotron", players=SIDES, simultaneous=False)
    params: Mapping = {}

    def new_initial_state(self) -> "CyclotronState":
        return CyclotronState()

    # --- action forms -----------------------------------------------------------------------------
    def action_to_json(self, action):
        return [list(sq) for sq in action]

    def action_from_json(self, data, player=None):
        """``[[r, c], [r, c]]`` or ``[[r, c], [r, c], [r, c]]`` to the action tuple (the prebuilt one when the
        path is one on the board). Total: anything else raises IllegalAction "malformed action: ..."."""
        path = parse_path(player, data)
        try:
            return _canonical(path)
        except KeyError:
            return path  # well formed, but off the board or not orthogonal steps: check_action says which

    def action_to_text(self, action) -> str:
        """The squares of the path as ``row,col`` joined by ``-``: ``5,4-4,4`` or ``5,4-4,4-4,3``."""
        return "-".join(f"{sq[0]},{sq[1]}" for sq in action)

    def action_from_text(self, text, player=None):
        """Inverse of ``action_to_text``; also reads ``(5, 4) → (4, 4)`` (separators ``-``, ``->``, ``→``)."""
        if not isinstance(text, str) or not _TEXT_ACTION.fullmatch(text):
            raise _malformed(player, text, "expected squares 'row,col' joined by '-', e.g. '5,4-4,4' or "
                                           "'5,4-4,4-4,3'")
        path = tuple((int(r), int(c)) for r, c in _TEXT_SQUARE.findall(text))
        try:
            return _canonical(path)
        except KeyError:
            return path

    def state_from_json(self, data) -> "CyclotronState":
        """A state from ``to_json`` output, the positions seen since the last capture included (without
        ``"seen"`` the history starts afresh with this position)."""
        try:
            turn = data["turn"]
            to_move = SIDE_INDEX[data["to_move"]]
            if not _is_int(turn) or turn < 0:
                raise ValueError(f"turn must be a non-negative integer, got {turn!r}")
            pos = [-1] * 6
            board = [-1] * N
            for piece in data["pieces"]:
                c = SIDE_INDEX[piece["player"]] * 3 + KIND_INDEX[piece["piece"]]
                sq = piece["square"]
                if not isinstance(sq, list) or len(sq) != 2:
                    raise ValueError(f"a square must be [row, col], got {short_repr(sq)}")
                i = INDEX[(sq[0], sq[1])]
                if pos[c] >= 0:
                    raise ValueError(f"{PIECE_NAMES[c]} appears twice")
                if board[i] >= 0:
                    raise ValueError(f"two pieces on {square_text(sq)}")
                pos[c], board[i] = i, c
            text = data.get("result")
            result = None if text is None else RESULT_BY_TEXT[text]
            seen = data.get("seen", [])
            if not isinstance(seen, list) or not all(_is_int(k) and 0 <= k < 1 << 37 for k in seen):
                raise ValueError("seen must be a list of position keys")
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a Cyclotron state: {exc!r}") from None
        return CyclotronState(pos=pos, board=board, to_move=to_move, turn=turn, result=result, seen=seen)


def _canonical(path: tuple) -> tuple:
    """The prebuilt action for a path of on-board squares; KeyError if it is not a path of orthogonal steps."""
    idx = tuple(INDEX[sq] for sq in path)
    return PATH2[idx] if len(idx) == 2 else PATH3[idx]


class CyclotronState(SequentialState):
    game = None  # set below to the game object
    __slots__ = ("turn", "to_move", "board", "pos", "key", "history", "_result", "_legal")

    def __init__(self, *, pos=None, board=None, to_move: int = 0, turn: int = 0, result: Result | None = None,
                 seen=()):
        if pos is None:
            pos = list(START)
            board = [-1] * N
            for c, i in enumerate(pos):
                board[i] = c
        self.turn = turn
        self.to_move = to_move
        self.pos = pos
        self.board = board
        self.key = sum((i + 1) << SHIFT[c] for c, i in enumerate(pos)) + (SIDE_BIT if to_move else 0)
        self.history = {self.key, *seen}  # the positions since the last capture (see the module docstring)
        self._result = result
        self._legal = ()
        if result is None:
            # A piece already on its goal square means its side won (the game would have ended there).
            for p in (0, 1):
                if any(pos[c] == GOAL[p] for c in OWN[p]):
                    self._result = RESULTS[p]
                    return
            self._legal = self._generate()
            if not self._legal:
                self._result = RESULTS[1 - to_move]

    def clone(self) -> "CyclotronState":
        c = CyclotronState.__new__(CyclotronState)
        c.turn, c.to_move, c.key, c._result, c._legal = self.turn, self.to_move, self.key, self._result, self._legal
        c.board, c.pos, c.history = self.board[:], self.pos[:], self.history.copy()
        return c

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SIDES[self.to_move]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def side_to_move(self) -> str:
        """The side whose turn it is (when the game is over: the side that would have moved next)."""
        return SIDES[self.to_move]

    def pieces(self) -> list[tuple[str, str, tuple[int, int]]]:
        """The pieces on the board as (player, kind, square): White's Rock, Paper, Scissors, then Black's."""
        return [(SIDES[c // 3], KINDS[c % 3], SQUARES[i]) for c, i in enumerate(self.pos) if i >= 0]

    # --- actions ------------------------------------------------------------------------------------
    def _generate(self) -> tuple:
        """Every legal action of the side to move: per piece its steps (empty square, new position; or a
        capture), then its two-step captures (via an empty square that is not its goal)."""
        p = self.to_move
        board, pos = self.board, self.pos
        key, history, flip, goal = self.key, self.history, FLIP[p], GOAL[p]
        acts = []
        for c in OWN[p]:
            s = pos[c]
            if s < 0:
                continue
            prey = PREY[c]
            sh = SHIFT[c]
            for n, a in STEPS[s]:
                t = board[n]
                if t < 0:
                    if key + ((n - s) << sh) + flip not in history:
                        acts.append(a)
                elif t == prey:
                    acts.append(a)
            q = pos[prey]
            if q >= 0:
                for n, a in VIA[s * N + q]:
                    if board[n] < 0 and n != goal:
                        acts.append(a)
        return tuple(acts)

    def legal_actions(self, player: str):
        """Every legal action of ``player``: empty unless it is that side's turn in a game still going on."""
        if self._result is not None or player != SIDES[self.to_move]:
            return ()
        return self._legal

    def check_action(self, player: str, action) -> None:
        if player not in SIDE_INDEX:
            raise IllegalAction(player, action, "unknown player (expected 'white' or 'black')")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if SIDE_INDEX[player] != self.to_move:
            raise IllegalAction(player, action, f"it is {SIDES[self.to_move]}'s turn")
        self._validate(self.to_move, action)

    def _validate(self, p: int, action) -> tuple[int, int, int, int]:
        """(from, to, captured code or -1, moving code) of a legal action of side ``p``; IllegalAction,
        naming the rule broken, otherwise. One dict lookup and a few list reads for a prebuilt action."""
        try:
            info = INFO[action]
        except (KeyError, TypeError):  # not a prebuilt action (a list, off the board, malformed...)
            path = parse_path(SIDES[p], action)
            for sq in path:
                if sq not in INDEX:
                    raise IllegalAction(SIDES[p], action,
                                        f"{square_text(sq)} is not on the board (rows and columns 0 to 5)")
            try:
                info = INFO[_canonical(path)]
            except KeyError:
                idx = [INDEX[sq] for sq in path]
                a, b = next((a, b) for a, b in zip(idx, idx[1:]) if b not in NEIGHBOURS[a])
                raise IllegalAction(SIDES[p], action,
                                    f"a piece moves one square up, down, left or right at a time; "
                                    f"{square_text(SQUARES[a])} to {square_text(SQUARES[b])} is not such a "
                                    f"step") from None
        s, n, m = info
        board = self.board
        c = board[s]
        if c >= 0 and c // 3 == p:
            t = board[n]
            if m < 0:
                if t < 0:
                    if self.key + ((n - s) << SHIFT[c]) + FLIP[p] not in self.history:
                        return s, n, -1, c
                elif t == PREY[c]:
                    return s, n, t, c
            elif t < 0 and n != GOAL[p] and board[m] == PREY[c]:
                return s, m, board[m], c
        raise self._explain(p, action, s, n, m)

    def _explain(self, p: int, action, s: int, n: int, m: int) -> IllegalAction:
        """The IllegalAction for an action on the board that ``_validate`` refused."""
        player, board = SIDES[p], self.board

        def illegal(rule):
            return IllegalAction(player, action, rule)

        def holds(i):
            return f"{square_text(SQUARES[i])} holds {PIECE_TITLES[board[i]]}"

        c = board[s]
        if c < 0 or c // 3 != p:
            return illegal(f"{player} has no piece on {square_text(SQUARES[s])} to move")
        t = board[n]
        if m < 0:
            if t < 0:
                return illegal("that position has occurred before (no position may repeat)")
            if t // 3 == p:
                return illegal(f"no square may hold two pieces: {holds(n)}")
            return illegal(_capture_rule(c, holds(n)))
        if t >= 0:
            return illegal(f"a piece may move a second time only after a first step to an empty square; {holds(n)}")
        if n == GOAL[p]:
            return illegal(f"reaching {square_text(SQUARES[n])}, where the opposing Rock started, wins at once: "
                           f"a path stops there")
        u = board[m]
        if m == s:
            return illegal("a piece may move a second time only to capture; it would step back to an empty square")
        if u < 0:
            return illegal(f"a piece may move a second time only to capture; {square_text(SQUARES[m])} is empty")
        if u // 3 == p:
            return illegal(f"a piece may move a second time only to capture an opposing piece; {holds(m)}")
        return illegal(_capture_rule(c, holds(m)))

    def _apply_move(self, seat: str, action) -> Turn:
        """Move a piece of ``seat`` (to move) along the path ``action``."""
        p = self.to_move
        s, d, v, c = self._validate(p, action)
        board, pos = self.board, self.pos
        board[s] = -1
        board[d] = c
        pos[c] = d
        key = self.key + ((d - s) << SHIFT[c]) + FLIP[p]
        events = []
        if v >= 0:
            pos[v] = -1
            key -= (d + 1) << SHIFT[v]
            self.history = {key}  # material only falls: no earlier position can come back
            events.append({"capture": list(SQUARES[d]), "piece": PIECE_NAMES[v], "by": PIECE_NAMES[c]})
        else:
            self.history.add(key)
        self.key = key
        self.turn += 1
        self.to_move = 1 - p
        if d == GOAL[p]:
            self._result = RESULTS[p]
            self._legal = ()
            events.append({"goal": list(SQUARES[d]), "piece": PIECE_NAMES[c]})
        else:
            self._legal = legal = self._generate()
            if not legal:
                self._result = RESULTS[p]
                events.append({"no_legal_move": SIDES[1 - p]})
        return Turn(self.turn, {seat: action}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn": plies played, "to_move": side (the side that would move, also once over), "pieces":
        [{"square": [r, c], "player": side, "piece": kind}, ...] (White's Rock, Paper, Scissors, then
        Black's, captured ones left out), "result": result text or None, "seen": [position keys since the
        last capture, sorted]}`` (``seen`` makes the JSON form exact: the no-repetition rule depends on it)."""
        return {
            "turn": self.turn,
            "to_move": SIDES[self.to_move],
            "pieces": [{"square": list(SQUARES[i]), "player": SIDES[c // 3], "piece": KINDS[c % 3]}
                       for c, i in enumerate(self.pos) if i >= 0],
            "result": self._result.text if self._result is not None else None,
            "seen": sorted(self.history),
        }

    def to_text(self) -> str:
        """An ASCII board, row 0 on top: ``R P S`` White's pieces, ``r p s`` Black's, ``.`` an empty square,
        ``*`` an empty goal square (a Rock's starting square)."""
        status = self._result.text if self._result is not None else f"{SIDES[self.to_move]} to move"
        lines = [f"turn {self.turn}: {status}", "   " + " ".join(str(c) for c in range(SIZE))]
        for r in range(SIZE):
            cells = []
            for col in range(SIZE):
                i = r * SIZE + col
                code = self.board[i]
                if code < 0:
                    cells.append("*" if i in GOAL else ".")
                else:
                    letter = "RPS"[code % 3]
                    cells.append(letter if code < 3 else letter.lower())
            lines.append(f"{r}  " + " ".join(cells))
        return "\n".join(lines)


def _capture_rule(c: int, holds: str) -> str:
    kind = c % 3
    rule = ("a Rock captures only Scissors", "a Paper captures only a Rock", "Scissors capture only a Paper")[kind]
    return f"{rule}, and only the opponent's; {holds}"


GAME = Cyclotron()
CyclotronState.game = GAME
