"""2048 on a 4x4 board, as GBG plays it (rules: ``docs/games/2048.md``).

One seat, ``player``. Chance adds the tiles: the initial state is a chance node twice (the two starting
tiles), and after every move one more tile is added. A chance outcome is ``[row, col, value]``: a 2 with
probability 0.9 or a 4 with 0.1, on an empty cell, each empty cell equally likely. A move (``"left"``,
``"up"``, ``"right"``, ``"down"``) slides every tile that way as far as it goes; two equal tiles that meet
merge into one of twice the value (each tile at most once per move, the pair nearest the edge moved
towards first) and the new value is added to the score. A move is legal only if some tile moves. The game
ends when no move is legal (the board is full and no two neighbours are equal); it goes on past 2048.

Inside, cells are indices ``row * 4 + col`` and a tile is its exponent (1 for a 2, 11 for 2048, 0 empty).
The state also keeps what its last move did (the slides and merges) and the tiles added since, so that a
page can animate them; they are part of its JSON, which is exact.
"""
from __future__ import annotations

from typing import Mapping

from games.engine.api import CHANCE, Game, GameInfo, IllegalAction, Result, State, Turn, short_repr

SEAT = "player"
SIZE = 4
CELLS = SIZE * SIZE
ACTIONS = ("left", "up", "right", "down")
MAX_EXPONENT = 17  # 131072, the largest tile a 4x4 board can ever hold
FOUR_PROBABILITY = 0.1
GOAL = 11  # 2048: the first goal, announced once by an event; the game goes on

# LINES[action]: the four lines of cells, each from the edge the tiles move towards.
LINES = {
    "left": tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)),
    "right": tuple(tuple(r * SIZE + c for c in reversed(range(SIZE))) for r in range(SIZE)),
    "up": tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)),
    "down": tuple(tuple(r * SIZE + c for r in reversed(range(SIZE))) for c in range(SIZE)),
}
TEXT_ALIASES = {"←": "left", "↑": "up", "→": "right", "↓": "down", "l": "left", "u": "up", "r": "right", "d": "down"}
_MALFORMED = 'malformed action: expected "left", "up", "right" or "down"'


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def slide(cells, action: str):
    """The board after ``action`` (a new list), the points it scores, the slides ``(from, to)`` of the tiles
    that moved and the cells where tiles merged (in order along each line)."""
    out = [0] * CELLS
    points = 0
    slides, merged = [], []
    for line in LINES[action]:
        tiles = [(i, cells[i]) for i in line if cells[i]]
        j = k = 0
        while j < len(tiles):
            dest = line[k]
            src, e = tiles[j]
            if j + 1 < len(tiles) and tiles[j + 1][1] == e:
                out[dest] = e + 1
                points += 1 << (e + 1)
                merged.append(dest)
                slides += [(s, dest) for s in (src, tiles[j + 1][0]) if s != dest]
                j += 2
            else:
                out[dest] = e
                if src != dest:
                    slides.append((src, dest))
                j += 1
            k += 1
    return out, points, slides, merged


def tile_value(e: int) -> int:
    return 1 << e if e else 0


class G2048(Game):
    info = GameInfo(name="2048", title="2048", players=(SEAT,), simultaneous=False, chance=True)
    params: Mapping = {}

    def new_initial_state(self) -> "G2048State":
        return G2048State()

    def action_to_json(self, action):
        return action

    def action_from_json(self, data, player=None):
        if isinstance(data, str) and data in ACTIONS:
            return data
        raise IllegalAction(player, data, _MALFORMED)

    def action_to_text(self, action) -> str:
        return action

    def action_from_text(self, text, player=None):
        """``left``/``up``/``right``/``down`` in any case, their first letters, or the arrows ``← ↑ → ↓``."""
        word = text.strip().lower() if isinstance(text, str) else None
        word = TEXT_ALIASES.get(word, word)
        if word in ACTIONS:
            return word
        raise IllegalAction(player, text, _MALFORMED)

    def state_from_json(self, data) -> "G2048State":
        """A state from ``to_json`` output; ValueError if anything is malformed or inconsistent."""
        try:
            return _state_from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a 2048 state: {exc!r}") from None


def _cell(pair) -> int:
    r, c = pair
    if not (_is_int(r) and _is_int(c) and 0 <= r < SIZE and 0 <= c < SIZE):
        raise ValueError(f"not a cell: {short_repr(pair)}")
    return r * SIZE + c


def _slide(item) -> tuple[int, int]:
    if len(item) != 4:
        raise ValueError(f"a slide is [from_row, from_col, to_row, to_col], got {short_repr(item)}")
    return _cell(item[:2]), _cell(item[2:])


def _exponent(value) -> int:
    if not _is_int(value) or value < 0 or (value and (value < 2 or value & (value - 1) or value > 1 << MAX_EXPONENT)):
        raise ValueError(f"not a tile value: {short_repr(value)}")
    return value.bit_length() - 1 if value else 0


def _state_from_json(data) -> "G2048State":
    turn, score, to_add = data["turn"], data["score"], data["tiles_to_add"]
    if not all(_is_int(v) and v >= 0 for v in (turn, score, to_add)) or to_add > 2:
        raise ValueError("turn, score and tiles_to_add must be non-negative integers (tiles_to_add at most 2)")
    rows = data["board"]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("board must be 4 rows of 4 tile values")
    cells = [_exponent(v) for row in rows for v in row]
    if to_add > cells.count(0):
        raise ValueError("more tiles to add than empty cells")
    last = data["last_move"]
    if last is not None:
        if last["action"] not in ACTIONS:
            raise ValueError(f"unknown move {short_repr(last['action'])}")
        last = {"action": last["action"],
                "slides": [_slide(s) for s in last["slides"]],
                "merged": [_cell(m) for m in last["merged"]]}
    new_tiles = [(_cell(t[:2]), _exponent(t[2])) for t in data["new_tiles"]]
    if any(len(t) != 3 or e not in (1, 2) or cells[i] != e for t, (i, e) in zip(data["new_tiles"], new_tiles)):
        raise ValueError("new_tiles must be [row, col, 2 or 4] of tiles on the board")
    state = G2048State(cells=cells, score=score, turn=turn, to_add=to_add, last=last, new_tiles=new_tiles)
    if data["to_move"] != (SEAT if state.players_to_act() else None):
        raise ValueError(f"to_move {short_repr(data['to_move'])} does not fit the position")
    result = state.result()
    if data["result"] != (result.to_json() if result else None):
        raise ValueError(f"result {short_repr(data['result'])} does not fit the position")
    return state


class G2048State(State):
    game = None  # set below to the game object
    __slots__ = ("cells", "score", "turn", "to_add", "last", "new_tiles", "_legal", "_result")

    def __init__(self, *, cells=None, score: int = 0, turn: int = 0, to_add: int = 2, last=None, new_tiles=()):
        self.cells = cells if cells is not None else [0] * CELLS
        self.score = score
        self.turn = turn
        self.to_add = to_add  # tiles chance must add before the player moves (2 at the start, then 1)
        self.last = last  # {"action", "slides": [(from, to)], "merged": [cell]} of the last move, or None
        self.new_tiles = list(new_tiles)  # (cell, exponent) added since the last move
        self._legal = ()
        self._result = None
        self._settle()

    def _settle(self) -> None:
        """Once no tile is due: the legal moves, and the end of the game if there are none."""
        if self.to_add:
            self._legal = ()
            return
        self._legal = tuple(a for a in ACTIONS if slide(self.cells, a)[0] != self.cells)
        if not self._legal:
            best = tile_value(max(self.cells))
            self._result = Result(f"game over: score {self.score}, best tile {best}", None,
                                  {SEAT: float(self.score)})

    def clone(self) -> "G2048State":
        c = G2048State.__new__(G2048State)
        c.cells, c.new_tiles = self.cells[:], self.new_tiles[:]
        c.score, c.turn, c.to_add, c.last = self.score, self.turn, self.to_add, self.last
        c._legal, c._result = self._legal, self._result
        return c

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [SEAT] if self._legal else []

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def best_tile(self) -> int:
        return tile_value(max(self.cells))

    # --- chance -------------------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.to_add > 0

    def chance_outcomes(self) -> list:
        """``([row, col, 2], 0.9 / E)`` and ``([row, col, 4], 0.1 / E)`` for each of the E empty cells."""
        if not self.to_add:
            return []
        empty = [i for i in range(CELLS) if not self.cells[i]]
        p4 = FOUR_PROBABILITY / len(empty)
        p2 = (1 - FOUR_PROBABILITY) / len(empty)
        return [([i // SIZE, i % SIZE, v], p) for i in empty for v, p in ((2, p2), (4, p4))]

    def apply_chance(self, outcome) -> Turn:
        """Add the tile ``[row, col, value]``; IllegalAction unless it is one of ``chance_outcomes``."""
        if not self.to_add:
            raise IllegalAction(CHANCE, outcome, "no tile is due: the game is over" if self._result
                                else "no tile is due: the player is to move")
        if (not isinstance(outcome, (list, tuple)) or len(outcome) != 3 or not all(map(_is_int, outcome))
                or outcome[2] not in (2, 4) or not (0 <= outcome[0] < SIZE and 0 <= outcome[1] < SIZE)):
            raise IllegalAction(CHANCE, outcome, "malformed outcome: expected [row, col, 2 or 4], row and col 0 to 3")
        r, c, v = outcome
        i = r * SIZE + c
        if self.cells[i]:
            raise IllegalAction(CHANCE, outcome, f"cell ({r}, {c}) is not empty")
        e = 1 if v == 2 else 2
        self.cells[i] = e
        self.new_tiles.append((i, e))
        self.to_add -= 1
        self.turn += 1
        self._settle()
        events = [{"new_tile": [r, c, v]}]
        if self._result is not None:
            events.append({"game_over": {"score": self.score, "best_tile": self.best_tile()}})
        return Turn(self.turn, {CHANCE: [r, c, v]}, events)

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str):
        return self._legal if player == SEAT else ()

    def check_action(self, player: str, action) -> None:
        if player != SEAT:
            raise IllegalAction(player, action, f"unknown seat (the only seat is {SEAT!r})")
        if not (isinstance(action, str) and action in ACTIONS):
            raise IllegalAction(player, action, _MALFORMED)
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if self.to_add:
            raise IllegalAction(player, action, "a new tile is due first (a chance event)")
        if action not in self._legal:
            raise IllegalAction(player, action, f"moving {action} moves no tile")

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """One move: ``{"player": "left"}`` (or up, right, down)."""
        if not isinstance(actions, Mapping) or len(actions) != 1 or SEAT not in actions:
            raise IllegalAction(None, actions, f"a move takes exactly one action, from {SEAT!r}")
        action = actions[SEAT]
        self.check_action(SEAT, action)
        best = max(self.cells)
        cells, points, slides, merged = slide(self.cells, action)
        self.cells = cells
        self.score += points
        self.turn += 1
        self.to_add = 1
        self.last = {"action": action, "slides": slides, "merged": merged}
        self.new_tiles = []
        self._legal = ()
        events = []
        if merged:
            events.append({"merged": [[i // SIZE, i % SIZE, tile_value(cells[i])] for i in merged], "points": points})
        if max(cells) >= GOAL > best:
            events.append({"reached": tile_value(max(cells))})
        return Turn(self.turn, {SEAT: action}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn", "to_move": "player" or null (a tile is due, or the game is over), "board": 4 rows of 4
        tile values (0 empty), "score", "tiles_to_add": tiles due before the next move, "last_move": null or
        {"action", "slides": [[from_row, from_col, to_row, to_col], ...], "merged": [[row, col], ...]},
        "new_tiles": [[row, col, value], ...] (added since the last move), "result": null or the result}``."""
        def rc(i):
            return [i // SIZE, i % SIZE]
        last = self.last
        return {
            "turn": self.turn,
            "to_move": SEAT if self._legal else None,
            "board": [[tile_value(self.cells[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
            "score": self.score,
            "tiles_to_add": self.to_add,
            "last_move": None if last is None else {
                "action": last["action"],
                "slides": [rc(a) + rc(b) for a, b in last["slides"]],
                "merged": [rc(i) for i in last["merged"]]},
            "new_tiles": [rc(i) + [tile_value(e)] for i, e in self.new_tiles],
            "result": self._result.to_json() if self._result else None,
        }

    def to_text(self) -> str:
        """The board, row 0 on top, ``.`` for an empty cell, under a status line."""
        if self._result is not None:
            status = self._result.text
        elif self.to_add:
            status = f"score {self.score}: a new tile is due"
        else:
            status = f"score {self.score}: player to move"
        rows = ["".join(f"{tile_value(self.cells[r * SIZE + c]) or '.':>6}" for c in range(SIZE))
                for r in range(SIZE)]
        return "\n".join([f"turn {self.turn}, {status}"] + rows)


GAME = G2048()
G2048State.game = GAME
