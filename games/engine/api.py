"""The engine interface every game implements.

Modelled on OpenSpiel's game/state API, made to fit the server: seats are named by strings, one state
type covers simultaneous and alternating moves (``players_to_act`` lists who must choose now), and every
action has a canonical JSON form and a human-readable text form. A state is changed only by
``apply_actions``/``apply_action``, which validate everything before touching anything: an illegal
action raises :class:`IllegalAction` and leaves the state as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Mapping, Sequence

Action = Hashable
JSON = Any

CHANCE = "chance"  # the seat name under which a chance outcome is logged in a turn record
RESIGN = "resign"  # a seat dropping out is logged as the turn record {RESIGN: seat} (``State.resign``)


class InvalidParams(ValueError):
    """Parameters that ``load_game`` cannot build a game from (unknown name, wrong type, out of range)."""


class LogFormatError(ValueError):
    """A game log that cannot be read; ``line`` is the 1-based line number at fault."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(f"line {line}: {message}")


class IllegalAction(ValueError):
    """An action the rules forbid, or one that is not even well formed.

    ``player`` names the seat that submitted it and ``rule`` says, in words, which rule it breaks.
    """

    def __init__(self, player: str | None, action: Any, rule: str):
        self.player, self.action, self.rule = player, action, rule
        who = f"{player}: " if player else ""
        super().__init__(f"{who}illegal action {short_repr(action)}: {rule}")


def short_repr(value: Any, limit: int = 120) -> str:
    """``repr(value)`` cut to ``limit`` characters; never fails (a huge int has no repr in Python 3.11)."""
    try:
        text = repr(value)
    except ValueError:
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class ParsedLog:
    """A game log as read by a game's ``logs.parse``: each turn as a dict seat -> engine action, in order,
    and the log's own result line (its words only) if it has one."""

    turns: list[dict[str, Any]] = field(default_factory=list)
    result: str | None = None


@dataclass(frozen=True)
class GameInfo:
    """Declared metadata of a game, as OpenSpiel's GameType: what kind of game it is."""

    name: str  # short registry name, e.g. "ropasci360"
    title: str  # display name
    players: tuple[str, ...]  # seat names, in the game's canonical order
    simultaneous: bool  # all seats to act choose at once
    chance: bool = False  # chance events occur
    perfect_information: bool = True  # observations equal the full state
    max_turns: int | None = None


@dataclass(frozen=True)
class Result:
    """How a finished game ended, as data: ``returns`` per seat (1 win, 0 loss, ties share 1 equally),
    ``text`` the game's own wording (for RoPaSci 360, the referee's), ``winner`` the single winner if any."""

    text: str
    winner: str | None
    returns: Mapping[str, float]

    @property
    def winners(self) -> list[str]:
        """Seats with the best return, unless every seat has the same (a draw)."""
        values = set(self.returns.values())
        if len(values) <= 1:
            return []
        best = max(values)
        return [seat for seat, v in self.returns.items() if v == best]

    def to_json(self) -> dict:
        return {"text": self.text, "winners": self.winners, "returns": dict(self.returns)}

    @classmethod
    def shared(cls, seats, winners, text: str) -> "Result":
        """Seats in ``winners`` share 1 equally, the others get 0; no winners: every seat shares 1 (a draw)."""
        seats, winners = list(seats), [s for s in seats if s in set(winners)]
        pool = winners or seats
        returns = {s: (1.0 / len(pool) if s in pool else 0.0) for s in seats}
        return cls(text, winners[0] if len(winners) == 1 else None, returns)


def check_params(game_name: str, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict:
    """``defaults`` updated with ``given``; InvalidParams for a name the game does not take or a value of
    another JSON type than its default. Range checks are the game's own."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        takes = ", ".join(sorted(defaults)) or "no parameters"
        raise InvalidParams(f"{game_name} takes {takes}; unknown: {', '.join(map(str, unknown))}")
    params = dict(defaults)
    for key, value in given.items():
        want = type(defaults[key])
        ok = isinstance(value, want) and not (isinstance(value, bool) and want is not bool)
        if not ok:
            raise InvalidParams(f"{game_name}: parameter {key!r} must be a {want.__name__}, got {value!r}")
        params[key] = value
    return params


@dataclass(slots=True)
class Turn:
    """One resolved turn: its number (from 1), each seat's action, and what happened as a consequence."""

    number: int
    actions: dict[str, Action]
    events: list[JSON] = field(default_factory=list)


class Game:
    """A game definition: metadata plus conversion between actions and their JSON and text forms.

    ``params`` are the (validated, complete) parameters it was loaded with; ``info`` may depend on them
    (the seats of a 3-player Sim, say). ``action_from_json`` is total: any JSON value in, an action or
    IllegalAction out, never another exception.
    """

    info: GameInfo
    params: Mapping[str, Any] = {}

    def new_initial_state(self) -> "State":
        raise NotImplementedError

    def action_to_json(self, action: Action) -> JSON:
        raise NotImplementedError

    def action_from_json(self, data: JSON, player: str | None = None) -> Action:
        """Parse a JSON action; raise IllegalAction (rule: malformed ...) if it is not well formed."""
        raise NotImplementedError

    def part_to_json(self, part: Any) -> JSON:
        """The JSON of one part of an action, for a game whose states give ``legal_action_parts``: such a
        game's ``action_to_json(action)`` is the list of its parts' JSON, in order."""
        raise NotImplementedError

    def action_to_text(self, action: Action) -> str:
        raise NotImplementedError

    def action_from_text(self, text: str, player: str | None = None) -> Action:
        raise NotImplementedError

    def state_from_json(self, data: JSON) -> "State":
        raise NotImplementedError

    def redact_record(self, record: Mapping[str, JSON], seat: str | None, over: bool) -> dict:
        """A turn record as ``seat`` (None: a spectator) may see it; ``over`` once the game has ended. A game
        with hidden information overrides this (e.g. hide other seats' dealt cards); by default all shows."""
        return dict(record)


class State:
    """A position. Mutable; ``clone`` gives an independent copy."""

    game: Game

    # --- whose move -------------------------------------------------------------------------------
    def players_to_act(self) -> list[str]:
        """Seats that must choose an action now (all of them at once in a simultaneous game)."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    # --- chance (OpenSpiel's chance player): a state where chance acts has no seat to act -----------
    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[JSON, float]]:
        """The (outcome, probability) pairs at a chance node; outcomes are JSON values."""
        return []

    def apply_chance(self, outcome: JSON) -> Turn:
        raise IllegalAction(CHANCE, outcome, "this game has no chance events")

    def result(self) -> Result | None:
        """The result once terminal, else None."""
        raise NotImplementedError

    def returns(self) -> dict[str, float]:
        """Each seat's payoff: 1 win, 0.5 draw, 0 loss; all 0 while the game goes on."""
        res = self.result()
        return dict(res.returns) if res else {p: 0.0 for p in self.game.info.players}

    # --- actions ------------------------------------------------------------------------------------
    def legal_actions(self, player: str) -> Sequence[Action]:
        """Every distinct action the seat may take now (empty if it is not to act)."""
        raise NotImplementedError

    def legal_action_parts(self, player: str) -> tuple[tuple[Any, ...], ...] | None:
        """None (the default), or the legal actions as a product of independent parts: a tuple of tuples of
        parts, the legal actions being exactly the tuples made of one part from each inner tuple, in order
        (what ``itertools.product(*parts)`` lists; every move of a turn that moves each of several pieces).
        The site then offers the choice part by part instead of listing the product, which may be huge;
        ``legal_actions`` must still list it (for bots), and ``Game.part_to_json`` must be given. A seat
        not to act gets None (an empty tuple would be the product with one action, the empty one)."""
        return None

    def check_action(self, player: str, action: Action) -> None:
        """Raise IllegalAction if ``player`` may not take ``action`` now; never mutates."""
        raise NotImplementedError

    def apply_actions(self, actions: Mapping[str, Action]) -> Turn:
        """Apply one action for every seat in ``players_to_act`` atomically, as one turn."""
        raise NotImplementedError

    def apply_action(self, player: str, action: Action) -> Turn:
        """Apply one seat's action; only allowed when that seat alone is to act."""
        to_act = self.players_to_act()
        if to_act != [player]:
            raise IllegalAction(player, action, f"not the only seat to act (to act: {', '.join(to_act) or 'none'})")
        return self.apply_actions({player: action})

    # --- resigning ----------------------------------------------------------------------------------
    def can_drop_out(self, player: str) -> bool:
        """Whether ``player`` may resign and leave the others to play on (a game of three or more seats that
        says what its rules make of it). False, the default: a resignation ends the game, every other seat
        sharing the win (the server does that; the turn log records nothing)."""
        return False

    def resign(self, player: str) -> Turn:
        """``player`` drops out (only where ``can_drop_out``): the others play on without it, and the state may
        be terminal after (the last seat left wins, say). Logged as the turn record ``{RESIGN: player}``, so a
        replay of the log reproduces it; the Turn's actions are that record."""
        raise IllegalAction(player, RESIGN, "a seat cannot drop out of this game: resigning ends it")

    # --- views ----------------------------------------------------------------------------------------
    def observation(self, player: str | None) -> JSON:
        """What ``player`` may see (None: a spectator). Equals ``to_json`` in a perfect-information game."""
        return self.to_json()

    def to_json(self) -> JSON:
        raise NotImplementedError

    def to_text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.to_text()

    def clone(self) -> "State":
        raise NotImplementedError
