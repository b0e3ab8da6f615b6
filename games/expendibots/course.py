"""Expendibots as COMP30024 (2020) agents see it: a ``Player`` class with ``__init__(colour)`` ("white" or
"black"), ``action()`` and ``update(colour, action)``, told every action of the game, its own included, with
the colour that took it. Actions are tuples with squares as ``(x, y)`` tuples (x the column, y the row, both
0-7, White starting on rows 0 and 1): ``("MOVE", n, (x, y), (x, y))`` or ``("BOOM", (x, y))``, exactly the
engine's own form, so only lists and integer types need converting. The arena and the client play such
classes through this module."""
from __future__ import annotations

SEATS = ("white", "black")


def _int(v):
    """``v`` as an int if it equals one (the referee compares actions with ``==``: ``1.0`` and NumPy integers
    pass), else ``v`` unchanged for the rules to refuse."""
    try:
        n = int(v)
    except (TypeError, ValueError, OverflowError):
        return v
    return n if n == v else v


def _square(sq):
    return (_int(sq[0]), _int(sq[1])) if isinstance(sq, (list, tuple)) and len(sq) == 2 else sq


def from_course_action(action):
    """A course player's action (squares as tuples or lists, numbers of any integer type) as an engine action;
    anything else is passed on unchanged for the rules to refuse."""
    if isinstance(action, (list, tuple)) and len(action) == 4 and action[0] == "MOVE":
        return ("MOVE", _int(action[1]), _square(action[2]), _square(action[3]))
    if isinstance(action, (list, tuple)) and len(action) == 2 and action[0] == "BOOM":
        return ("BOOM", _square(action[1]))
    return action


def to_course_action(action) -> tuple:
    """An engine action as the referee passes it: a tuple with tuple squares."""
    return from_course_action(action)


def to_json(action):
    """A course action as the API's JSON (tuples as lists; what is no action is sent as it is, for the server
    to refuse)."""
    action = from_course_action(action)
    return [list(x) if isinstance(x, tuple) else x for x in action] if isinstance(action, tuple) else action


def from_json(data) -> tuple:
    """The API's JSON action as the tuple a course player expects (squares as tuples)."""
    return from_course_action(data)


def tell(player, seat: str, actions: dict) -> None:
    """Tell ``player`` (playing ``seat``) one resolved turn, ``{colour: course action}``: as the referee does,
    ``update(colour, action)`` with the colour that acted, whoever's turn it was."""
    for colour in SEATS:
        if colour in actions:
            player.update(colour, actions[colour])


class CourseAgent:
    """A course ``Player`` class playing one seat of an arena game."""

    def __init__(self, cls, seat):
        self.seat = seat
        self.player = cls(seat)

    def act(self, state):
        return from_course_action(self.player.action())

    def after_turn(self, state, mine, theirs):
        """Every player hears every action: ``mine`` if this seat acted, else ``theirs``."""
        colour = self.seat if mine is not None else SEATS[1 - SEATS.index(self.seat)]
        self.player.update(colour, to_course_action(mine if mine is not None else theirs))
