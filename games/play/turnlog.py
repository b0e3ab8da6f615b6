"""The one query of a game's turn log, the source of truth of every game: its records in order, from one turn
to another. Everything that folds, shows or exports a game reads its turns here."""
from __future__ import annotations


def _turns(game, after: int = 0, upto: int | None = None):
    rows = game.turns.order_by("number")
    if after:
        rows = rows.filter(number__gt=after)
    if upto is not None:
        rows = rows.filter(number__lte=upto)
    return rows


def records(game, after: int = 0, upto: int | None = None) -> list[dict]:
    """The turn records (seat -> action, as stored) of turns ``after + 1`` .. ``upto`` (the last, if None)."""
    return list(_turns(game, after, upto).values_list("actions", flat=True))


def rows(game, after: int = 0, upto: int | None = None) -> list[dict]:
    """The stored turns ``after + 1`` .. ``upto`` as ``{"number", "actions", "events"}``."""
    return list(_turns(game, after, upto).values("number", "actions", "events"))


def holds(game, record: dict) -> bool:
    """Whether the log holds the record ``record`` (e.g. a seat's resignation), without reading the log."""
    return game.turns.filter(actions=record).exists()
