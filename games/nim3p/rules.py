"""Nim3P as in GBG (rules: ``docs/games/nim3p.md``): Nim (``games.nim.rules``) for the seats ``p0``, ``p1``,
``p2`` in that order, ``p0`` first; a move takes any number of items (at least one) from one heap; the
player *after* the one who takes the last item wins (1, the others 0). With ``extra_rule`` the player after
the winner gets 0.2.

A seat may resign (``resign``): it is skipped from then on and the player after the last taker is the next
seat still in; with a seat out there is no extra rule (the winner 1, the others 0), and once only one seat is
left in, it wins.

Actions and their forms are Nim's: ``(heap, count)``, JSON ``[heap, count]``, text ``heap:count``.
"""
from __future__ import annotations

from games.engine.api import RESIGN, GameInfo, IllegalAction, Result, Turn
from games.nim.rules import Nim, NimState

SEATS = ("p0", "p1", "p2")
EXTRA = 0.2  # the return of the player after the winner under the extra rule


class Nim3P(Nim):
    """Nim3P with the given (validated) parameters; ``make_game`` builds it."""

    def __init__(self, heaps: int, size: int, extra_rule: bool):
        self.params = {"heaps": heaps, "size": size, "extra_rule": extra_rule}
        self.heaps, self.size, self.extra_rule = heaps, size, extra_rule
        self.max_take = size  # GBG: "Max Minus" is always the heap size, i.e. no limit but the heap
        self.info = GameInfo(name="nim3p", title="Nim3P", players=SEATS, simultaneous=False,
                             max_turns=heaps * size)
        self._results = tuple(self._result_after(last) for last in range(3))

    def _result_after(self, last: int) -> Result:
        """The result once seat ``last`` took the last item: the next seat wins."""
        winner, third = SEATS[(last + 1) % 3], SEATS[(last + 2) % 3]
        returns = {s: 0.0 for s in SEATS}
        returns[winner] = 1.0
        if self.extra_rule:
            returns[third] = EXTRA
        return Result(f"winner: {winner}", winner, returns)

    def winner_result(self, winner: int, out) -> Result:
        """The result with seat ``winner`` winning: as the rules say with nobody out, else 1 for it, 0 for the
        others (no extra rule once a seat resigned)."""
        if not out:
            return self._results[(winner - 1) % 3]
        return Result.shared(SEATS, [SEATS[winner]], f"winner: {SEATS[winner]}")

    def limit(self, items: int) -> int:
        return items

    def end_events(self, last: int) -> list:
        return [{"last_item": SEATS[last], "winner": SEATS[(last + 1) % 3]}]

    def new_initial_state(self) -> "Nim3PState":
        return Nim3PState(self, [self.size] * self.heaps, 0, [], 0)

    def state_from_json(self, data) -> "Nim3PState":
        """Nim's checks, and the seats out (``out``, absent while nobody resigned): the seat to move (the
        winner once over) must be one still in; with nobody out it is ``turn % 3``."""
        out = data.get("out", []) if isinstance(data, dict) else None
        if not out:
            state = Nim.state_from_json(self, data)
            return Nim3PState(self, state.heaps, state.turn, [], state.turn % 3)
        try:
            if (not isinstance(out, list) or len(set(out)) != len(out) or not 0 < len(out) < 3
                    or not set(out) <= set(SEATS)):
                raise ValueError(f"out must list one or two distinct seats, got {out!r}")
            heaps, turn, result = data["heaps"], data["turn"], data["result"]
            plain = NimState(self, list(heaps), turn).to_json()
            Nim.state_from_json(self, {**plain, "heaps": heaps})  # Nim's checks of the heaps and the turn
            to_move = data["to_move"] if result is None else (result["winners"] or [None])[0]
            if to_move not in SEATS or to_move in out:
                raise ValueError("the seat to move (or the winner) must be a seat still in")
            state = Nim3PState(self, list(heaps), turn, [SEATS.index(s) for s in out], SEATS.index(to_move))
            if state.to_json() != data:
                raise ValueError("to_move or result does not match the heaps, turn and seats out")
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a {self.info.title} state: {exc!r}") from None
        return state


class Nim3PState(NimState):
    """Nim's position plus the seats that resigned (``out``, in order) and the seat to move (once over: the
    winner), which with nobody out is always ``turn % 3``."""

    __slots__ = ("out", "to_move")

    def __init__(self, game: Nim3P, heaps: list[int], turn: int, out: list[int], to_move: int):
        self.game, self.heaps, self.turn, self.out, self.to_move = game, heaps, turn, out, to_move
        left = [p for p in range(3) if p not in out]
        over = len(left) == 1 or (turn and not any(heaps))
        self._result = game.winner_result(to_move, out) if over else None

    def clone(self) -> "Nim3PState":
        c = Nim3PState.__new__(Nim3PState)
        c.game, c.heaps, c.turn, c._result = self.game, self.heaps[:], self.turn, self._result
        c.out, c.to_move = self.out[:], self.to_move
        return c

    @property
    def mover(self) -> int:
        return self.to_move

    def _next_in(self, p: int) -> int:
        """The first seat after ``p`` that is still in."""
        return next(q % 3 for q in range(p + 1, p + 4) if q % 3 not in self.out)

    def _apply_move(self, seat: str, action) -> Turn:
        """Nim's move, then the turn passes to the next seat still in."""
        last = self.to_move
        turn = NimState._apply_move(self, seat, action)
        self.to_move = self._next_in(last)
        if self._result is not None:  # the last item: the next seat still in wins
            self._result = self.game.winner_result(self.to_move, self.out)
            turn.events = [{"last_item": SEATS[last], "winner": SEATS[self.to_move]}]
        return turn

    def can_drop_out(self, player: str) -> bool:
        return self._result is None and player in SEATS and SEATS.index(player) not in self.out

    def resign(self, player: str) -> Turn:
        """``player`` is skipped from now on (the turn passes on if it was to move); the last seat in wins."""
        if not (isinstance(player, str) and self.can_drop_out(player)):
            raise IllegalAction(player, RESIGN, "only a seat still in can resign")
        p = SEATS.index(player)
        self.out.append(p)
        if self.to_move == p:
            self.to_move = self._next_in(p)
        events: list = [{"resigned": player}]
        if len(self.out) == 2:
            self._result = self.game.winner_result(self.to_move, self.out)
            events.append({"winner": SEATS[self.to_move]})
        return Turn(self.turn, {RESIGN: player}, events)  # ``turn`` counts moves: a resignation is none

    def to_json(self) -> dict:
        """Nim's, plus ``"out": [seats that resigned]`` once a seat has."""
        data = NimState.to_json(self)
        if self.out:
            data["out"] = [SEATS[p] for p in self.out]
        return data
