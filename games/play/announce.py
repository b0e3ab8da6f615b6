"""The announcement of a change, sent once its transaction commits (``signals.game_changed``): pages, bot seats
and turn clocks listen; the write side imports none of them."""
from __future__ import annotations

import logging

from django.db import transaction

from games.models import Game, Seat
from games.play.signals import game_changed

log = logging.getLogger(__name__)


def after_commit(game: Game, *, as_saved: bool = False) -> None:
    """Once the transaction commits, announce the change (pages, bot seats and the clock listen). A
    listener that fails is logged and never fails the request: the change is stored either way.
    ``as_saved``: ``game`` and the seats it has read are as the transaction saved them (a turn: its seats
    change only through those objects), so listeners may use it rather than read it again."""
    game_id, turn, over, deadline, version = game.id, game.turn, game.is_over, game.turn_deadline, game.version
    bots_to_act = game.status == Game.Status.ACTIVE and any(
        s.kind == Seat.Kind.BOT and s.side in game.to_act for s in game.seats.all())

    def announce():
        for receiver, error in game_changed.send_robust(sender=Game, game_id=game_id, turn=turn, over=over,
                                                        deadline=deadline, version=version,
                                                        bots_to_act=bots_to_act,
                                                        game=game if as_saved else None):
            if error is not None:
                log.error("after game %s turn %s: %s failed: %r", game_id, turn, getattr(receiver, "__name__",
                          receiver), error)

    transaction.on_commit(announce)


def group_name(game_id: str) -> str:
    """The channel group where a game's changes are heard: open pages and long-polls listen there."""
    return f"game-{game_id}"
