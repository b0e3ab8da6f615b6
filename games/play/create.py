"""Creating a game and taking its seats: the game's kind and parameters checked, its players (people or
server bots of a level), its clocks, the seat tokens handed out (returned once, stored hashed), and the start
once every seat is taken."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.bots import LEVELS, levels_for
from games.engine import InvalidParams, load_game, registered_names
from games.engine.registry import default_name
from games.models import Game, Seat
from games.play.access import get_game
from games.play.announce import after_commit
from games.play.errors import BadRequest, Conflict
from games.play.positions import current_state
from games.play.turns import advance


BOT_LEVELS = LEVELS  # every level some game has; a game offers those of levels_for(game)


TURN_SECONDS_CHOICES = (None, 30, 120)


def parse_player(spec, levels=BOT_LEVELS) -> tuple[str, str]:
    """``"human"`` or ``"bot:LEVEL"`` to (kind, level)."""
    if spec == "human":
        return Seat.Kind.HUMAN, ""
    if isinstance(spec, str) and spec.startswith("bot:") and spec[4:] in levels:
        return Seat.Kind.BOT, spec[4:]
    raise BadRequest(f"a player must be \"human\" or one of {', '.join('bot:' + lv for lv in levels)}; "
                     f"got {str(spec)[:60]!r}")


def load_kind(kind, params=None):
    """The engine game of ``kind`` with ``params``; BadRequest saying what is wrong otherwise."""
    if not isinstance(kind, str) or kind not in registered_names():
        raise BadRequest(f"unknown game {str(kind)[:40]!r}; known: {', '.join(registered_names())}")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadRequest("params must be a JSON object of the game's parameters")
    try:
        return load_game(kind, **params)
    except InvalidParams as exc:
        raise BadRequest(f"bad params: {exc}") from None


@dataclass
class Created:
    game: Game
    tokens: dict[str, str]  # side -> seat token, for the human seats handed out now


BOT_SECONDS_RANGE = (0.1, 10.0)


def create_game(kind: str | None = None, players: dict | None = None, turn_seconds: int | None = None, *,
                params: dict | None = None, claim: str | None = "all", user=None, name: str = "",
                bot_seconds: float | None = None, move_seconds: float | None = None) -> Created:
    """Create a game. ``claim="all"`` hands out a token for every human seat (API), ``claim=SIDE`` only
    for that side (the creator in the browser; other human seats stay open for an invitee).
    ``bot_seconds``: the bots' thinking time per move (None: each level's default). ``move_seconds``: the
    least time between two bot moves (a game of bots made to be watched; None: as fast as they play). ``kind`` None: the
    registry's first game."""
    if kind is None:
        kind = default_name()
    eg = load_kind(kind, params)
    sides = eg.info.players
    if not isinstance(players, dict) or set(players) != set(sides):
        raise BadRequest(f"players must name each of {', '.join(sides)}")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not 5 <= turn_seconds <= 3600):
        raise BadRequest("turn_seconds must be null or a whole number of seconds from 5 to 3600")
    low, high = BOT_SECONDS_RANGE
    if bot_seconds is not None and (isinstance(bot_seconds, bool) or not isinstance(bot_seconds, (int, float))
                                    or not low <= bot_seconds <= high):
        raise BadRequest(f"bot_seconds must be null or a number of seconds from {low:g} to {high:g}")
    specs = {side: parse_player(players[side], levels_for(eg)) for side in sides}
    if claim not in ("all", None) and claim not in sides:
        raise BadRequest(f"unknown side {claim!r}")
    tokens = {}
    with transaction.atomic():
        state = eg.new_initial_state()
        game = Game.objects.create(kind=kind, params=dict(eg.params), turn_seconds=turn_seconds,
                                   state=state.to_json(), to_act=state.players_to_act(), move_seconds=move_seconds)
        for side in sides:
            kind_, level = specs[side]
            seat = Seat(game=game, side=side, kind=kind_, bot_level=level,
                        bot_seconds=float(bot_seconds) if level and bot_seconds is not None else None)
            if kind_ == Seat.Kind.HUMAN and (claim == "all" or claim == side):
                tokens[side] = _hand_out(seat, user, name)
            seat.save()
        start_if_full(game)
    return Created(game, tokens)


def claim_seat(game_id: str, side: str | None = None, *, user=None, name: str = "") -> tuple[Game, str, str]:
    """Take an open seat (the invite link); returns (game, side, token)."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        open_seats = [s for s in game.seats.all() if not s.is_claimed]
        if side is not None:
            open_seats = [s for s in open_seats if s.side == side]
        if game.status != Game.Status.WAITING or not open_seats:
            raise Conflict("this game has no open seat")
        seat = open_seats[0]
        token = _hand_out(seat, user, name)
        seat.save()
        start_if_full(game)
    return game, seat.side, token


def _hand_out(seat: Seat, user, name: str) -> str:
    """Give a human seat to its player: a new token (returned once, stored hashed), their user and name."""
    token = seat.issue_token()
    seat.user = user if (user is not None and user.is_authenticated) else None
    seat.display_name = name or (user.get_username() if seat.user else "")
    return token


def start_if_full(game: Game) -> None:
    """Start the clock once every seat is taken, save, and tell the world after commit."""
    if all(s.is_claimed for s in game.seats.all()):
        game.status = Game.Status.ACTIVE
        game.turn_started = timezone.now()
        state = current_state(game)
        if state.is_chance_node():  # e.g. the first deal
            advance(game, state)
    game.save()
    after_commit(game, as_saved=True)
