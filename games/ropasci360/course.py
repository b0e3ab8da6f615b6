"""RoPaSci 360 as COMP30024 (2021) agents see it: a ``Player`` class with ``__init__(player)``, ``action()`` and
``update(opponent_action, player_action)``, whose actions are tuples with hexes as tuples. The arena and the
client play such classes through this module; a game without one has no course-style players."""
from __future__ import annotations

SEATS = ("upper", "lower")
BATTLEGROUND = True  # the course's online battleground (games.battleground) plays this game


def to_json(action) -> list:
    """A course action tuple (hexes as tuples or lists) as the API's JSON list."""
    kind = action[0]
    if kind == "THROW":
        return ["THROW", action[1], [int(action[2][0]), int(action[2][1])]]
    return [kind, [int(action[1][0]), int(action[1][1])], [int(action[2][0]), int(action[2][1])]]


def from_json(data) -> tuple:
    """The API's JSON action as the tuple a course player expects (hexes as tuples)."""
    if data[0] == "THROW":
        return ("THROW", data[1], tuple(data[2]))
    return (data[0], tuple(data[1]), tuple(data[2]))


def to_course_action(action):
    """An engine action as the referee passes it: a tuple with tuple hexes."""
    return tuple(tuple(x) if isinstance(x, (list, tuple)) else x for x in action)


def from_course_action(action):
    """A course player's action (hexes as tuples or lists) as an engine action tuple."""
    if not isinstance(action, (list, tuple)):
        return action
    return tuple(tuple(x) if isinstance(x, list) else x for x in action)


def tell(player, seat: str, actions: dict) -> None:
    """Tell ``player`` (playing ``seat``) one resolved turn, ``{seat: course action}`` of both seats: as the
    2021 referee does, ``update(opponent_action, player_action)``."""
    other = SEATS[1 - SEATS.index(seat)]
    player.update(actions[other], actions[seat])


class CourseAgent:
    """A course ``Player`` class playing one seat of an arena game."""

    def __init__(self, cls, seat):
        self.player = cls(seat)

    def act(self, state):
        return from_course_action(self.player.action())

    def after_turn(self, state, mine, theirs):
        self.player.update(to_course_action(theirs), to_course_action(mine))
