"""Nim as in GBG (rules: ``docs/games/nim.md``): ``heaps`` heaps of ``size`` items each; the seats take turns,
Black first, each taking 1 to ``max_take`` items from one heap; whoever takes the last item wins.

An action is ``(heap, count)``: take ``count`` items from heap ``heap`` (numbered from 0). JSON ``[heap,
count]``; text ``heap:count`` (``0:2``). The seats move strictly in turn, so the seat to move is always
``turn % seats``; a state is its heaps and turn number (the result follows from them).

Nim3P (``games.nim3p``) is the same game for three seats with another limit and result: it subclasses
``Nim``, overrides ``limit`` and ``end_events`` and builds its own ``_results`` (one per last taker).
"""
from __future__ import annotations

import re

from games.engine.api import Game, GameInfo, IllegalAction, Result, Turn, short_repr
from games.engine.sequential import SequentialState

SEATS = ("black", "white")

_TEXT_ACTION = re.compile(r"\s*\[?\s*(\d+)\s*(?::|,|\s)\s*(\d+)\s*\]?\s*")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_action(player, data) -> tuple[int, int]:
    """Any value to ``(heap, count)``, or IllegalAction "malformed action"; ranges are the rules' business."""
    if isinstance(data, (list, tuple)) and len(data) == 2 and _is_int(data[0]) and _is_int(data[1]):
        return (data[0], data[1])
    raise IllegalAction(player, data, "malformed action: expected [heap, count], two integers")


class Nim(Game):
    """Nim with the given (validated) parameters; ``make_game`` builds it."""

    def __init__(self, heaps: int, size: int, max_take: int):
        self.params = {"heaps": heaps, "size": size, "max_take": max_take}
        self.heaps, self.size, self.max_take = heaps, size, max_take
        self.info = GameInfo(name="nim", title="Nim", players=SEATS, simultaneous=False, max_turns=heaps * size)
        self._results = tuple(Result.shared(SEATS, [s], f"winner: {s}") for s in SEATS)

    # --- what Nim3P changes ---------------------------------------------------------------------------
    def limit(self, items: int) -> int:
        """The most one move may take from a heap of ``items``."""
        return min(self.max_take, items)

    def outcome(self, last: int) -> Result:
        """The result once seat ``last`` took the last item: it wins."""
        return self._results[last]

    def end_events(self, last: int) -> list:
        return [{"last_item": self.info.players[last]}]

    # --- states and action forms --------------------------------------------------------------------
    def new_initial_state(self) -> "NimState":
        return NimState(self, [self.size] * self.heaps, 0)

    def action_to_json(self, action):
        return [action[0], action[1]]

    def action_from_json(self, data, player=None):
        return parse_action(player, data)

    def action_to_text(self, action) -> str:
        return f"{action[0]}:{action[1]}"

    def action_from_text(self, text, player=None):
        """``heap:count``; also reads ``heap,count``, ``heap count`` and ``[heap, count]``."""
        match = _TEXT_ACTION.fullmatch(text) if isinstance(text, str) else None
        if not match:
            raise IllegalAction(player, text, "malformed action: expected 'heap:count', e.g. '0:2'")
        return (int(match[1]), int(match[2]))

    def state_from_json(self, data) -> "NimState":
        """A state from ``to_json`` output; ValueError unless it is one this game can reach."""
        try:
            turn, heaps = data["turn"], data["heaps"]
            if not _is_int(turn) or turn < 0:
                raise ValueError(f"turn must be a non-negative integer, got {turn!r}")
            if not isinstance(heaps, list) or len(heaps) != self.heaps:
                raise ValueError(f"heaps must be a list of {self.heaps} counts")
            if not all(_is_int(h) and 0 <= h <= self.size for h in heaps):
                raise ValueError(f"each heap holds 0 to {self.size} items, got {heaps!r}")
            removed = self.heaps * self.size - sum(heaps)
            if not turn <= removed <= turn * self.limit(self.size):
                raise ValueError(f"{removed} items cannot have been taken in {turn} moves")
            state = NimState(self, list(heaps), turn)
            if data["to_move"] != state.to_json()["to_move"] or data["result"] != state.to_json()["result"]:
                raise ValueError("to_move or result does not match the heaps and turn")
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"not a {self.info.title} state: {exc!r}") from None
        return state


class NimState(SequentialState):
    """A position: the heaps and the number of moves played; the seat to move is ``turn % seats``."""

    __slots__ = ("game", "heaps", "turn", "_result")

    def __init__(self, game: Nim, heaps: list[int], turn: int):
        self.game, self.heaps, self.turn = game, heaps, turn
        seats = len(game.info.players)
        self._result = game.outcome((turn - 1) % seats) if turn and not any(heaps) else None

    def clone(self) -> "NimState":
        c = NimState.__new__(NimState)
        c.game, c.heaps, c.turn, c._result = self.game, self.heaps[:], self.turn, self._result
        return c

    @property
    def mover(self) -> int:
        """Index of the seat to move (once over: the seat that would move next)."""
        return self.turn % len(self.game.info.players)

    # --- status -------------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        return [] if self._result is not None else [self.game.info.players[self.mover]]

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> list:
        if self._result is not None or player != self.game.info.players[self.mover]:
            return []
        limit = self.game.limit
        return [(h, c) for h, items in enumerate(self.heaps) for c in range(1, limit(items) + 1)]

    def check_action(self, player: str, action) -> None:
        self._validate(player, action)

    def _validate(self, player, action) -> tuple[int, int]:
        """The action as ``(heap, count)`` if ``player`` may take it now; IllegalAction naming the rule if not."""
        seats = self.game.info.players
        if player not in seats:
            raise IllegalAction(player, action, f"unknown player (expected one of {', '.join(seats)})")
        if self._result is not None:
            raise IllegalAction(player, action, "the game is over")
        if player != seats[self.mover]:
            raise IllegalAction(player, action, f"it is {seats[self.mover]}'s turn")
        h, c = parse_action(player, action)
        if not 0 <= h < len(self.heaps):
            raise IllegalAction(player, action, f"there is no heap {short_repr(h)} (heaps are numbered 0 to "
                                                f"{len(self.heaps) - 1})")
        items = self.heaps[h]
        if c < 1:
            raise IllegalAction(player, action, "a move takes at least one item")
        if c > items:
            raise IllegalAction(player, action, f"heap {h} is empty" if not items else
                                f"heap {h} has only {items} item{'s' if items > 1 else ''} left")
        if c > self.game.limit(items):
            raise IllegalAction(player, action, f"a move takes at most {self.game.max_take} items")
        return h, c

    def _apply_move(self, seat: str, action) -> Turn:
        """Take ``(heap, count)`` items for ``seat`` (to move)."""
        h, c = self._validate(seat, action)
        last = self.mover
        self.heaps[h] -= c
        self.turn += 1
        events = []
        if not any(self.heaps):
            self._result = self.game.outcome(last)
            events = self.game.end_events(last)
        return Turn(self.turn, {seat: (h, c)}, events)

    # --- views ----------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"turn": moves played, "to_move": seat or null once over, "heaps": [items left per heap],
        "result": Result.to_json() or null}``."""
        over = self._result is not None
        return {"turn": self.turn, "to_move": None if over else self.game.info.players[self.mover],
                "heaps": list(self.heaps), "result": self._result.to_json() if over else None}

    def to_text(self) -> str:
        """One line per heap: ``o`` an item left, ``.`` an item taken, then the count."""
        status = self._result.text if self._result is not None else f"{self.players_to_act()[0]} to move"
        size = self.game.size
        lines = [f"turn {self.turn}: {status}"]
        lines += [f"heap {h}: {'o' * n}{'.' * (size - n)} {n}" for h, n in enumerate(self.heaps)]
        return "\n".join(lines)
