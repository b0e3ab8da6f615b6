"""Rubik's Cube for one player (rules: ``docs/games/rubiks_cube.md``).

Chance scrambles the cube: the first ``scramble_moves`` turns are chance nodes, each one of the 18 face turns
with probability 1/18 (outcome: the move's notation). Then ``player`` turns faces until every face is one
colour ("solved in N moves", return 1) or ``MOVE_LIMIT`` moves have been played ("not solved in 200 moves",
return 0). Moves in Singmaster notation: ``U D L R F B`` a clockwise quarter turn of that face (as seen
looking at it), ``U'`` counter-clockwise, ``U2`` a half turn. A scramble that leaves the cube solved ends
the game at once, solved in 0 moves.

The cube is its 54 stickers in Kociemba's facelet order (faces U, R, F, D, L, B, each read row by row as
drawn on the unfolded net: U above F, then L F R B in a row, D below F), each sticker the letter of the
face whose centre has its colour. Centres never move, so the solved cube is ``UUUUUUUUURRR...BBB``. Each
move is a permutation of the 54 positions, derived once from the geometry: every sticker has a position
on the 3x3x3 grid and an outward normal, and a clockwise turn of a face is a rotation by -90 degrees about
its outward normal of the stickers in that layer.
"""
from __future__ import annotations

from typing import Mapping

from games.engine.api import CHANCE, Game, GameInfo, IllegalAction, Result, State, Turn

SEAT = "player"
FACES = "URFDLB"
MOVE_LIMIT = 200
SOLVED = "".join(f * 9 for f in FACES)
MOVES = tuple(f + s for f in FACES for s in ("", "'", "2"))  # U U' U2 R R' R2 ...
TURN_WORDS = {"": "clockwise", "'": "counter-clockwise", "2": "half turn"}
NORMALS = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}
_MALFORMED = "malformed action: expected a face turn in Singmaster notation, e.g. \"U\", \"R'\" or \"F2\""


def _sticker(face: str, i: int, j: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(grid position, outward normal) of the sticker in row ``i``, column ``j`` of ``face`` on the net."""
    x, y, z = {"U": (j - 1, 1, i - 1), "R": (1, 1 - i, 1 - j), "F": (j - 1, 1 - i, 1),
               "D": (j - 1, -1, 1 - i), "L": (-1, 1 - i, j - 1), "B": (1 - j, 1 - i, -1)}[face]
    return (x, y, z), NORMALS[face]


STICKERS = tuple(_sticker(f, i, j) for f in FACES for i in range(3) for j in range(3))
INDEX = {s: k for k, s in enumerate(STICKERS)}


def _clockwise(axis, v):
    """``v`` rotated by -90 degrees about the unit ``axis``: v' = a (a . v) - a x v."""
    ax, ay, az = axis
    x, y, z = v
    dot = ax * x + ay * y + az * z
    cross = (ay * z - az * y, az * x - ax * z, ax * y - ay * x)
    return tuple(a * dot - c for a, c in zip(axis, cross))


def _quarter_turn(face: str) -> tuple[int, ...]:
    """SOURCE[k]: the position whose sticker lands on position ``k`` when ``face`` turns clockwise."""
    n = NORMALS[face]
    source = list(range(54))
    for k, (pos, normal) in enumerate(STICKERS):
        if sum(a * b for a, b in zip(pos, n)) == 1:
            source[INDEX[(_clockwise(n, pos), _clockwise(n, normal))]] = k
    return tuple(source)


def _compose(first, then):
    """The permutation of doing ``first`` and then ``then`` (both as SOURCE tables)."""
    return tuple(first[then[k]] for k in range(54))


def _move_tables() -> dict[str, tuple[int, ...]]:
    tables = {}
    for f in FACES:
        q = _quarter_turn(f)
        half = _compose(q, q)
        tables[f], tables[f + "2"], tables[f + "'"] = q, half, _compose(half, q)
    return tables


SOURCE = _move_tables()


def turn(facelets: str, move: str) -> str:
    """The facelet string after ``move``."""
    return "".join([facelets[k] for k in SOURCE[move]])


def move_words(move: str) -> str:
    """E.g. ``U' (counter-clockwise)``."""
    return f"{move} ({TURN_WORDS[move[1:]]})"


class RubiksCube(Game):
    def __init__(self, scramble_moves: int = 25):
        self.scramble_moves = scramble_moves
        self.params = {"scramble_moves": scramble_moves}
        self.info = GameInfo(name="rubiks_cube", title="Rubik's Cube", players=(SEAT,), simultaneous=False,
                             chance=True, max_turns=scramble_moves + MOVE_LIMIT)

    def new_initial_state(self) -> "CubeState":
        return CubeState(self)

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        if isinstance(data, str) and data in SOURCE:
            return data
        raise IllegalAction(player, data, _MALFORMED)

    def action_to_text(self, action) -> str:
        return action

    def action_from_text(self, text, player=None):
        """The notation, also with a typographic prime (``U’``, ``U′``); faces are upper case (lower case
        letters mean wide turns in Singmaster notation, which this game does not have)."""
        move = text.strip().replace("’", "'").replace("′", "'") if isinstance(text, str) else None
        if move in SOURCE:
            return move
        raise IllegalAction(player, text, _MALFORMED)

    def state_from_json(self, data) -> "CubeState":
        """A state from ``to_json`` output: the scramble and the moves are replayed and must give the same
        stickers, turn, seat to move and result (ValueError otherwise)."""
        try:
            scramble, moves = list(data["scramble"]), list(data["moves"])
            if len(scramble) > self.scramble_moves or (moves and len(scramble) < self.scramble_moves):
                raise ValueError("the scramble must be complete before the player moves")
            state = CubeState(self)
            for move in scramble:
                state.apply_chance(move)
            for move in moves:
                state.apply_actions({SEAT: self.action_from_json(move, SEAT)})
            if state.to_json() != data:
                raise ValueError("the stickers, turn, seat to move or result do not fit the moves")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # IllegalAction is a ValueError
            raise ValueError(f"not a Rubik's Cube state: {exc!r}") from None
        return state


class CubeState(State):
    __slots__ = ("game", "facelets", "scramble", "moves", "_result")

    def __init__(self, game: RubiksCube):
        self.game = game
        self.facelets = SOLVED
        self.scramble: list[str] = []  # the chance moves so far
        self.moves: list[str] = []  # the player's moves
        self._result = None
        self._settle()

    def _settle(self) -> None:
        """The end of the game, once scrambled: solved, or out of moves."""
        if len(self.scramble) < self.game.scramble_moves:
            return
        n = len(self.moves)
        if self.facelets == SOLVED:
            self._result = Result(f"solved in {n} move{'' if n == 1 else 's'}", SEAT, {SEAT: 1.0})
        elif n >= MOVE_LIMIT:
            self._result = Result(f"not solved in {MOVE_LIMIT} moves", None, {SEAT: 0.0})

    def clone(self) -> "CubeState":
        c = CubeState.__new__(CubeState)
        c.game, c.facelets, c._result = self.game, self.facelets, self._result
        c.scramble, c.moves = self.scramble[:], self.moves[:]
        return c

    @property
    def turn(self) -> int:
        return len(self.scramble) + len(self.moves)

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None or self.is_chance_node() else [SEAT]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    # --- chance: the scramble -----------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return len(self.scramble) < self.game.scramble_moves

    def chance_outcomes(self) -> list:
        return [(m, 1 / len(MOVES)) for m in MOVES] if self.is_chance_node() else []

    def apply_chance(self, outcome) -> Turn:
        if not self.is_chance_node():
            raise IllegalAction(CHANCE, outcome, "the cube is already scrambled")
        if not (isinstance(outcome, str) and outcome in SOURCE):
            raise IllegalAction(CHANCE, outcome, "malformed outcome: expected a face turn, e.g. \"U\", \"R'\", \"F2\"")
        self.facelets = turn(self.facelets, outcome)
        self.scramble.append(outcome)
        self._settle()
        events = [{"scramble": outcome, "number": len(self.scramble), "of": self.game.scramble_moves}]
        if self._result is not None:
            events.append({"solved": 0})
        return Turn(self.turn, {CHANCE: outcome}, events)

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str):
        return MOVES if player == SEAT and self._result is None and not self.is_chance_node() else ()

    def check_action(self, player: str, action) -> None:
        if player != SEAT:
            raise IllegalAction(player, action, f"unknown seat (the only seat is {SEAT!r})")
        if not (isinstance(action, str) and action in SOURCE):
            raise IllegalAction(player, action, _MALFORMED)
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if self.is_chance_node():
            raise IllegalAction(player, action, "the cube is still being scrambled (chance moves)")

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """One move: ``{"player": "R'"}``."""
        if not isinstance(actions, Mapping) or len(actions) != 1 or SEAT not in actions:
            raise IllegalAction(None, actions, f"a move takes exactly one action, from {SEAT!r}")
        move = actions[SEAT]
        self.check_action(SEAT, move)
        self.facelets = turn(self.facelets, move)
        self.moves.append(move)
        self._settle()
        events = [{"solved": len(self.moves)}] if self.facelets == SOLVED else []
        return Turn(self.turn, {SEAT: move}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn", "to_move": "player" or null, "facelets": 54 letters (Kociemba's order), "scramble":
        [the chance moves], "moves": [the player's moves], "result": null or the result}``."""
        return {
            "turn": self.turn,
            "to_move": SEAT if self.players_to_act() else None,
            "facelets": self.facelets,
            "scramble": self.scramble[:],
            "moves": self.moves[:],
            "result": self._result.to_json() if self._result else None,
        }

    def to_text(self) -> str:
        """The unfolded net (U above F; L F R B in a row; D below F), each sticker its colour's face letter."""
        f = self.facelets

        def row(face, i):
            k = FACES.index(face) * 9 + i * 3
            return f[k:k + 3]

        if self._result is not None:
            status = self._result.text
        elif self.is_chance_node():
            status = f"scrambling ({len(self.scramble)} of {self.game.scramble_moves} moves)"
        else:
            status = f"player to move ({len(self.moves)} moves so far)"
        lines = [f"turn {self.turn}: {status}"]
        lines += ["    " + row("U", i) for i in range(3)]
        lines += [" ".join(row(face, i) for face in "LFRB") for i in range(3)]
        lines += ["    " + row("D", i) for i in range(3)]
        return "\n".join(lines)
