"""What the battleground serves and who plays: the game (the one whose ``course`` module declares
``BATTLEGROUND = True``, found through the registry), the bot levels a ``bot:LEVEL`` channel may name, and the
player a ``PLAY`` message names (a name shown as given, or an account proved by its API key)."""
from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal

from games.bots import levels_for
from games.engine import game_module, load_game
from games.engine.registry import course_games
from games.play.errors import BadRequest

MAX_NAME = 60  # a seat's display name
MAX_CHANNEL = 100
BOT_CHANNEL = "bot:"

# Sent with ``name`` for every PLAY: a receiver returns the account that the name proves (an API key's), None
# when the name is no key, or raises a ``games.play.errors.ServiceError`` (an unknown or revoked key). The
# players app answers it; the battleground imports no app.
account_named = Signal()


def game_name() -> str:
    """The registered game of the course's battleground."""
    for name in course_games():
        if getattr(game_module(name, "course"), "BATTLEGROUND", False):
            return name
    raise LookupError("no registered game's course module declares BATTLEGROUND = True")


def seats() -> tuple[str, ...]:
    return tuple(load_game(game_name()).info.players)


def bot_level(channel: str) -> str | None:
    """The level a ``bot:LEVEL`` channel names (None for any other channel); BadRequest for an unknown one."""
    if not channel.startswith(BOT_CHANNEL):
        return None
    level, levels = channel[len(BOT_CHANNEL):], levels_for(load_game(game_name()))
    if level not in levels:
        raise BadRequest(f"unknown bot level {level[:40]!r}: the channels bot:{', bot:'.join(levels)} play the "
                         f"server's bots")
    return level


@dataclass
class Player:
    name: str  # as shown on the site and to the opponent
    channel: str  # "" for the open channel
    user: object = None  # the account, if the name proved one


def player_of(msg: dict) -> Player:
    """The player a PLAY message names; BadRequest saying what is wrong with it."""
    name, channel = msg.get("name"), msg.get("channel")
    if not isinstance(name, str) or not name.strip() or not name.isprintable() or len(name.strip()) > MAX_NAME:
        raise BadRequest(f"PLAY needs a \"name\": printable text of 1 to {MAX_NAME} characters")
    if channel is None:
        channel = ""
    if not isinstance(channel, str) or not channel.isprintable() or len(channel) > MAX_CHANNEL:
        raise BadRequest(f"a \"channel\" is printable text of at most {MAX_CHANNEL} characters (or none)")
    name = name.strip()
    user = None
    for _, account in account_named.send(sender=Player, name=name):
        user = user or account
    if user is not None:
        name = user.get_username()[:MAX_NAME]
    return Player(name, channel, user)
