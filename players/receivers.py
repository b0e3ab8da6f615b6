"""What the players app does after others' events: rate a rated game once it has finished (``game_changed``,
sent by the games services after every committed change), and attach this browser's anonymous seats to the
account that just logged in or signed up (``user_logged_in``), and make a new game rated when its creator
asked the lobby for it (``game_created``), and tell the battleground which account an API key names
(``account_named``). Connected in ``apps.py``."""
from __future__ import annotations

import logging

from django.db import IntegrityError

from games.models import Game

from . import services
from .models import ApiKey, RatedGame

log = logging.getLogger(__name__)


def on_game_changed(sender, game_id, turn, over=True, **kwargs) -> None:
    """Cheap for the many changes that do not matter here: nothing while the game goes on, then one indexed
    read unless a rated game is over."""
    if not over:
        return
    if not RatedGame.objects.filter(game_id=game_id, state=RatedGame.State.PENDING,
                                    game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED]).exists():
        return
    try:
        services.rate_game(game_id)
    except IntegrityError:  # a first rating for someone, made at the same moment by another game: once more
        services.rate_game(game_id)


def on_game_created(sender, game_id, user, options, **kwargs) -> None:
    """A person asked the lobby for a rated game."""
    if options.get("rated") and user.is_authenticated:
        services.mark_rated(game_id, user)


def on_battleground_name(sender, name, **kwargs):
    """The account a battleground name proves: a name that is an API key plays as the key's account (an unknown
    or revoked key is refused); any other name is no account."""
    if not name.startswith(ApiKey.PREFIX):
        return None
    return services.user_for_key(name)


def on_user_logged_in(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    try:
        services.claim_browser_seats(user, session)
    except Exception:  # never fail a login over it: the seats stay in the session and are claimed next time
        log.exception("claiming the seats of %s's browser failed", user)
