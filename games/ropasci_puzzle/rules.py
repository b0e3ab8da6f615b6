"""RoPaSci 360, single player (the course's first project): Upper clears the board of Lower's tokens.

The position (param ``position``, the course's JSON) puts Upper's tokens on the board with Lower's tokens
and blocks. Every turn every Upper token slides or swings, all at once, as in the full game (a swing goes
around an adjacent hex holding one of Upper's tokens at the start of the turn); Lower's tokens and the blocks
never move and nothing may enter a block's hex. Then every hex where a token landed battles as in the full
game, Upper's own tokens included. The puzzle is solved when no Lower token is left, even if Upper's last
token fell in the same turn (return 1); it is lost when it can no longer be solved or after ``TURN_LIMIT``
turns (return 0). Rules in full: ``docs/games/ropasci_puzzle.md``.

An action is every Upper token's move at once: a tuple with one full-game move ``("SLIDE" | "SWING", (r,
q), (r, q))`` per token, tokens in the order of ``upper`` in the state's JSON (sorted by symbol, r, q).
JSON ``[["SLIDE", [2, -1], [1, -1]], ...]``; text ``SLIDE from (2, -1) to (1, -1); SWING from ...``.
"""
from __future__ import annotations

import itertools
import re
from typing import Mapping

from games.engine.api import Game, GameInfo, IllegalAction, Result, State, Turn, short_repr
from games.ropasci360.rules import INDEX, MOVES, NMASK, PIVOTS, hex_text

from .position import SYMBOL_NAMES, Position, parse_position
from .solver import MAX_TURNS, dead_reason, encode

SEAT = "upper"
TURN_LIMIT = MAX_TURNS
BEATS = {"r": "s", "p": "r", "s": "p"}

_HEX = r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)"
_MOVE_TEXT = re.compile(rf"^\s*(SLIDE|SWING)\s+from\s+{_HEX}\s+to\s+{_HEX}\s*$")


def _malformed(player, action, why: str) -> IllegalAction:
    return IllegalAction(player, action, f"malformed action: {why}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def token_words(sym: str, h) -> str:
    return f"{SYMBOL_NAMES[sym]} on {hex_text(h)}"


class RoPaSciPuzzle(Game):
    def __init__(self, position: Position):
        self.position = position
        self.params = {"position": position.to_json()}
        self.info = GameInfo(name="ropasci_puzzle", title="RoPaSci 360 Puzzle", players=(SEAT,),
                             simultaneous=False, max_turns=TURN_LIMIT)

    def new_initial_state(self) -> "PuzzleState":
        return PuzzleState(self, self.position, 0)

    # --- action forms -----------------------------------------------------------------------------
    def action_to_json(self, action):
        return [self.part_to_json(move) for move in action]

    def part_to_json(self, part):
        """One token's move: ``["SLIDE"|"SWING", [r, q], [r, q]]``."""
        kind, a, b = part
        return [kind, list(a), list(b)]

    def action_from_json(self, data, player=None):
        """``[["SLIDE"|"SWING", [r, q], [r, q]], ...]`` to a tuple of moves; IllegalAction for anything else."""
        if not isinstance(data, (list, tuple)) or not data:
            raise _malformed(player, data, 'expected a list of moves [["SLIDE"|"SWING", [r, q], [r, q]], ...], '
                                           'one per Upper token')
        moves = []
        for move in data:
            if (not isinstance(move, (list, tuple)) or len(move) != 3 or not isinstance(move[0], str)
                    or move[0] not in ("SLIDE", "SWING")):
                raise _malformed(player, data, f'each move must be ["SLIDE"|"SWING", [r, q], [r, q]], got '
                                               f'{short_repr(move)}')
            hexes = []
            for h in move[1:]:
                if not isinstance(h, (list, tuple)) or len(h) != 2 or not all(_is_int(v) for v in h):
                    raise _malformed(player, data, f"a hex must be a pair of integers [r, q], got {short_repr(h)}")
                hexes.append((h[0], h[1]))
            moves.append((move[0], hexes[0], hexes[1]))
        return tuple(moves)

    def action_to_text(self, action) -> str:
        """The course's wording per token, joined by "; ": ``SLIDE from (2, -1) to (1, -1); ...``."""
        return "; ".join(f"{kind} from {hex_text(a)} to {hex_text(b)}" for kind, a, b in action)

    def action_from_text(self, text, player=None):
        if not isinstance(text, str) or not text.strip():
            raise _malformed(player, text, "expected 'SLIDE|SWING from (r, q) to (r, q)' per token, joined by ';'")
        moves = []
        for part in text.split(";"):
            m = _MOVE_TEXT.match(part)
            if not m:
                raise _malformed(player, text, f"cannot read {part.strip()!r}: expected 'SLIDE|SWING from (r, q) "
                                               f"to (r, q)'")
            kind, r1, q1, r2, q2 = m.groups()
            moves.append((kind, (int(r1), int(q1)), (int(r2), int(q2))))
        return tuple(moves)

    def state_from_json(self, data) -> "PuzzleState":
        """A state from ``to_json`` output (its result is worked out again from the position and turn)."""
        try:
            position = parse_position({k: data[k] for k in ("upper", "lower", "block")}, partial=True)
            turn = data["turn"]
            if not _is_int(turn) or not 0 <= turn <= TURN_LIMIT:
                raise ValueError(f"turn must be an integer from 0 to {TURN_LIMIT}, got {short_repr(turn)}")
            if data.get("result") is not None and not isinstance(data["result"], str):
                raise ValueError(f"result must be a string or null, got {short_repr(data['result'])}")
        except (KeyError, TypeError, ValueError) as exc:  # PositionError is a ValueError
            raise ValueError(f"not a RoPaSci 360 puzzle state: {exc}") from None
        return PuzzleState(self, position, turn)


def _result(position: Position, turn: int) -> Result | None:
    """Solved, lost, or None while play goes on."""
    if not position.lower:
        return Result(f"solved in {turn} turn{'s' if turn != 1 else ''}", SEAT, {SEAT: 1.0})
    board, ups, lower = encode(position)
    reason = dead_reason(board, ups, lower)
    if reason:
        return Result(f"unsolvable: {reason}", None, {SEAT: 0.0})
    if turn >= TURN_LIMIT:
        return Result(f"turn limit: {TURN_LIMIT} turns played", None, {SEAT: 0.0})
    return None


class PuzzleState(State):
    __slots__ = ("game", "position", "turn", "_result", "_moves", "_legal")

    def __init__(self, game: RoPaSciPuzzle, position: Position, turn: int, result: Result | None = None,
                 compute: bool = True):
        self.game = game
        self.position = position
        self.turn = turn
        self._result = _result(position, turn) if compute else result
        self._moves = None  # per token, its legal moves (full-game action tuples)
        self._legal = None

    def clone(self) -> "PuzzleState":
        c = PuzzleState(self.game, self.position, self.turn, self._result, compute=False)
        c._moves, c._legal = self._moves, self._legal  # immutable, shared
        return c

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [SEAT]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    # --- actions ------------------------------------------------------------------------------------
    def token_moves(self) -> tuple[tuple, ...]:
        """Per Upper token (in order), its slides and swings (the full game's moves), none into a block."""
        if self._moves is None:
            blocks = set(self.position.blocks)
            occupied = 0
            for _, h in self.position.upper:
                occupied |= 1 << INDEX[h]
            self._moves = tuple(
                tuple(mv for mv in MOVES[INDEX[h]][NMASK[INDEX[h]] & occupied] if mv[2] not in blocks)
                for _, h in self.position.upper)
        return self._moves

    def legal_actions(self, player: str):
        """Every combination of one move per token (the product of the tokens' moves, first token slowest)."""
        if player != SEAT or self._result is not None:
            return ()
        if self._legal is None:
            self._legal = tuple(itertools.product(*self.token_moves()))
        return self._legal

    def legal_action_parts(self, player: str):
        """Per token (in order), its moves: the legal actions are every combination of one of each, so the
        site offers the choice token by token (9 tokens make millions of combinations). None when not to act."""
        if player != SEAT or self._result is not None:
            return None
        return self.token_moves()

    def check_action(self, player: str, action) -> None:
        if player != SEAT:
            raise IllegalAction(player, action, f"unknown player (the only seat is {SEAT!r})")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        self._validate(action)

    def _validate(self, action) -> tuple:
        """The action as a tuple of canonical moves, or IllegalAction naming the rule it breaks."""
        upper = self.position.upper
        try:
            moves = tuple(action)
        except TypeError:
            raise _malformed(SEAT, action, "expected one move per Upper token") from None
        if len(moves) != len(upper):
            order = ", ".join(token_words(s, h) for s, h in upper)
            raise IllegalAction(SEAT, action, f"every Upper token must move each turn: give {len(upper)} move(s), "
                                              f"one per token in order ({order})")
        blocks = set(self.position.blocks)
        occupied = {h for _, h in upper}
        out = []
        for i, ((sym, h), legal, move) in enumerate(zip(upper, self.token_moves(), moves), 1):
            if move in legal:
                out.append(move)
                continue
            try:
                kind, a, b = move
                a, b = tuple(a), tuple(b)
            except (TypeError, ValueError):
                raise _malformed(SEAT, action, f"move {i} must be (kind, (r, q), (r, q))") from None
            if (kind, a, b) in legal:  # given as lists, say
                out.append(legal[legal.index((kind, a, b))])
                continue
            if a != h:
                raise IllegalAction(SEAT, action, f"move {i} must move token {i}, the {token_words(sym, h)} "
                                                  f"(tokens in order of symbol, r, q)")
            ia, ib = INDEX.get(a), INDEX.get(b)
            if ib is None:
                raise IllegalAction(SEAT, action, f"move {i}: {b} is not on the board (|r|, |q|, |r+q| <= 4)")
            if b in blocks:
                raise IllegalAction(SEAT, action, f"move {i}: {hex_text(b)} holds a block; nothing may enter it")
            if kind == "SLIDE":
                raise IllegalAction(SEAT, action, f"move {i}: a slide goes to an adjacent hex; {hex_text(b)} is not "
                                                  f"next to {hex_text(a)}")
            if kind != "SWING":
                raise _malformed(SEAT, action, f"move {i}: the kind must be 'SLIDE' or 'SWING'")
            if (ia, ib) not in PIVOTS:
                raise IllegalAction(SEAT, action, f"move {i}: a swing ends on a hex opposite an adjacent hex; "
                                                  f"{hex_text(b)} is not two steps from {hex_text(a)} around a "
                                                  f"neighbour")
            raise IllegalAction(SEAT, action, f"move {i}: a swing needs one of Upper's tokens on a hex next to both "
                                              f"{hex_text(a)} and {hex_text(b)} (other than itself); "
                                              f"Upper is on {', '.join(hex_text(x) for x in sorted(occupied))}")
        return tuple(out)

    def apply_actions(self, actions: Mapping[str, object]) -> Turn:
        """One turn: all of Upper's moves at once, then a battle on every hex where a token landed."""
        if self._result is not None:
            raise IllegalAction(None, actions, "the game is over")
        try:
            action = actions[SEAT]
            if len(actions) != 1:
                raise KeyError(SEAT)
        except (KeyError, TypeError, IndexError):
            raise IllegalAction(None, actions, f"a turn takes exactly one action, from {SEAT}") from None
        moves = self._validate(action)
        landed: dict[tuple, list[str]] = {}
        for (sym, _), (_, _, b) in zip(self.position.upper, moves):
            landed.setdefault(b, []).append(sym)
        lower_at: dict[tuple, list[str]] = {}
        for sym, h in self.position.lower:
            lower_at.setdefault(h, []).append(sym)
        upper, lower, events = [], [s_h for s_h in self.position.lower if s_h[1] not in landed], []
        for h, arrivals in landed.items():
            here = set(arrivals) | set(lower_at.get(h, ()))
            dead = set(here) if len(here) == 3 else {BEATS[s] for s in here if BEATS[s] in here}
            fallen = []
            for side, syms, keep in (("upper", arrivals, upper), ("lower", lower_at.get(h, []), lower)):
                for sym in sorted(set(syms)):
                    n = syms.count(sym)
                    if sym in dead:
                        fallen.append({"player": side, "symbol": sym, "count": n})
                    else:
                        keep.extend([(sym, h)] * n)
            if fallen:
                events.append({"hex": list(h), "defeated": fallen})
        self.position = Position(tuple(sorted(upper)), tuple(sorted(lower)), self.position.blocks)
        self.turn += 1
        self._result = _result(self.position, self.turn)
        self._moves = self._legal = None
        return Turn(self.turn, {SEAT: moves}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The position in the course's form plus ``turn``, ``to_move`` and ``result``."""
        return {**self.position.to_json(), "turn": self.turn,
                "to_move": SEAT if self._result is None else None,
                "result": self._result.text if self._result is not None else None}

    def to_text(self) -> str:
        """An ASCII board, row +4 on top: ``R P S`` Upper, ``r p s`` Lower, ``#`` a block, a digit after a
        letter counts stacked tokens."""
        status = self._result.text if self._result is not None else f"{len(self.position.lower)} Lower token(s) left"
        cells: dict[tuple, str] = {h: "#" for h in self.position.blocks}
        for side, tokens in (("upper", self.position.upper), ("lower", self.position.lower)):
            for sym in "rps":
                for h in {h for s, h in tokens if s == sym}:
                    n = sum(1 for s, x in tokens if s == sym and x == h)
                    cells[h] = cells.get(h, "") + (sym.upper() if side == "upper" else sym) + (str(n) if n > 1 else "")
        lines = [f"turn {self.turn}; {status}"]
        for r in range(4, -5, -1):
            row = "".join(f"{cells.get((r, q), '.'):^4}" for q in range(-4, 5) if (r, q) in INDEX)
            lines.append(f"{r:+d} " + " " * (2 * abs(r)) + row)
        return "\n".join(lines)
